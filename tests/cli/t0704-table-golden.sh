# SPDX-License-Identifier: GPL-2.0-only
# perpkt table on the repeat fixtures: the threads' kernel-by-run table,
# and the spread of the model (sd column of report).
#   UPDATE_GOLDEN=1 PERPKT=build/perpkt SRCDIR=. bash tests/cli/t0704-table-golden.sh
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
G=$SRCDIR/tests/golden

check() {
	local golden=$1; shift
	expect_exit 0 "$PERPKT" "$@"
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$TMP/out" "$G/$golden"
		return
	fi
	diff -u "$G/$golden" "$TMP/out" || fail "$* differs from $golden"
}

cd "$P"
check table-latency.txt table rep-a.json rep-noise.json rep-shift.json
check table-udp.md table --value function:udp_sendmsg --format markdown rep-a.json rep-noise.json rep-shift.json diff-a.json
check table-bucket.csv table --value bucket:udp --format csv --label old --label new rep-a.json rep-shift.json
check report-repeats.txt report -i rep-a.json --by bucket
grep -q "^6.1.90-test  83.490  83.050  83.430  83.190  83.290   0.206$" "$G/table-latency.txt" ||
	fail "latency row not as the thread's"
expect_exit 0 "$PERPKT" table --format json --value total rep-a.json
[ "$(jq -c '.rows[0].per_repeat' "$TMP/out")" = '[25000,27000,26000,26000]' ] || fail "json repeats"
expect_exit 0 "$PERPKT" report -i rep-a.json --format json
[ "$(jq '.functions[] | select(.name=="udp_sendmsg") | .spread["cpu-clock"] | . * 1000 | round' "$TMP/out")" = 816497 ] ||
	fail "model spread"
# the unit in the text head outlives the profiles it came from
expect_exit 0 "$PERPKT" table --value busy rep-a.json rep-shift.json
head -1 "$TMP/out" | grep -qx 'kernel busy (ns per round trip), per repeat' ||
	fail "table head: $(head -1 "$TMP/out")"
expect_exit 64 "$PERPKT" table --value speed rep-a.json
expect_exit 64 "$PERPKT" table
expect_exit 2 "$PERPKT" table "$TMP/missing.json"
echo ok
