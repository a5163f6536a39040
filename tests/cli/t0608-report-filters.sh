# SPDX-License-Identifier: GPL-2.0-only
# report and diff --role, --cpu, --pid keep only the matching samples:
# the filtered total is the unfiltered role's (or CPU's) row, every
# format shows the subset, and the top of the report says it is one.
# (A filter chooses the rows itself, among every task's: the rows it is
# set against are --all-tasks'.)
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles/sw-clock.json

total() { jq '.total.per_rt["cpu-clock"]' "$TMP/out"; }
expect_exit 0 "$PERPKT" report -i "$P" --format json --all-tasks
client=$(jq '.roles[] | select(.name == "client") | .per_rt["cpu-clock"]' "$TMP/out")
cpu1=$(jq '.cpus[] | select(.name == "cpu 1") | .per_rt["cpu-clock"]' "$TMP/out")
both=$(jq '[.roles[] | select(.name == "client" or .name == "responder") | .per_rt["cpu-clock"]] | add' "$TMP/out")

expect_exit 0 "$PERPKT" report -i "$P" --format json --role client
[ "$(total)" = "$client" ] || fail "--role client total $(total), the client row says $client"
jq -e '.warnings[0] | startswith("filtered to role client")' "$TMP/out" >/dev/null ||
	fail "filter not said first: $(jq -c .warnings "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$P" --format json --role client,responder
[ "$(total)" = "$both" ] || fail "--role client,responder $(total), want $both"
expect_exit 0 "$PERPKT" report -i "$P" --format json --cpu 1
[ "$(total)" = "$cpu1" ] || fail "--cpu 1 total $(total), the cpu 1 row says $cpu1"
# --pid names a workload process by the pid the profile recorded
expect_exit 0 "$PERPKT" report -i "$P" --format json --pid 100
[ "$(total)" = "$client" ] || fail "--pid 100 (the client) total $(total)"
expect_exit 2 "$PERPKT" report -i "$P" --pid 4242
grep -q "pid 4242 is not a workload process.*client 100" "$TMP/err" || fail "$(cat "$TMP/err")"
expect_exit 64 "$PERPKT" report -i "$P" --role martian
grep -q "unknown role 'martian'" "$TMP/err" || fail "$(cat "$TMP/err")"
# the text says so at the top; csv carries only the subset
expect_exit 0 "$PERPKT" report -i "$P" --role client
sed -n 3p "$TMP/out" | grep -q "^warning: filtered to role client" || fail "text: $(head -4 "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$P" --role client --format csv --by role
# (the role view lists all six roles; only the client's has samples)
[ "$(awk -F, 'NR > 1 && $2 > 0 { print $1 }' "$TMP/out")" = client ] ||
	fail "csv --role client has samples of other roles: $(cat "$TMP/out")"

# diff filters both sides the same way
expect_exit 0 "$PERPKT" diff "$P" "$P" --role client --format json
jq -e --argjson c "$client" '.total.per_rt[0] == $c and .total.per_rt[1] == $c' "$TMP/out" >/dev/null ||
	fail "diff --role client totals: $(jq -c .total "$TMP/out")"
echo "ok: client $client of $(jq -n "$both") ns/RT"
