# SPDX-License-Identifier: GPL-2.0-only
# Combined keys: --by role,function (and perf's --sort cpu,sym) give one
# row per pair; the rows of one role add up to that role's row, all rows
# to the total, in every format that has the table.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles/sw-clock.json

expect_exit 0 "$PERPKT" report -i "$P" --format json
client=$(jq '.roles[] | select(.name == "client") | .per_rt["cpu-clock"]' "$TMP/out")
cpu0=$(jq '.cpus[] | select(.name == "cpu 0") | .per_rt["cpu-clock"]' "$TMP/out")
total=$(jq '.total.per_rt["cpu-clock"]' "$TMP/out")
# (function rows: name,bucket,module,file,samples,share,cum,per_rt)
# (the other tasks' one row is outside the total)
sum() { awk -F, -v p="$1" 'NR > 1 && $1 != "[other tasks]" && index($1, p) == 1 { s += $8 } END { printf "%g", s }' "$TMP/out"; }
near() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b * 0.999 - 0.01 && a < b * 1.001 + 0.01) }'; }

expect_exit 0 "$PERPKT" report -i "$P" --by role,function --format csv
[ "$(head -1 "$TMP/out" | cut -d, -f1-5)" = '"role,function",bucket,module,file' ] ||
	fail "csv header: $(head -1 "$TMP/out")"
near "$(sum 'client: ')" "$client" || fail "client rows sum to $(sum 'client: '), the role row says $client"
near "$(sum '')" "$total" || fail "all rows sum to $(sum ''), total $total"
grep -q '^client: udp_sendmsg,udp,' "$TMP/out" || fail "no client: udp_sendmsg row"

# perf's spelling: --sort cpu,sym groups by CPU, then symbol
expect_exit 0 "$PERPKT" report -i "$P" --sort cpu,sym --format csv
near "$(sum 'cpu 0: ')" "$cpu0" || fail "cpu 0 rows sum to $(sum 'cpu 0: '), the CPU row says $cpu0"
cp "$TMP/out" "$TMP/sort.csv"
expect_exit 0 "$PERPKT" report -i "$P" --by cpu,function --format csv
cmp -s "$TMP/out" "$TMP/sort.csv" || fail "--sort cpu,sym differs from --by cpu,function"

# the text table is titled by the keys and keeps within 72 columns
expect_exit 0 "$PERPKT" report -i "$P" --by role,bucket
grep -q ' role,bucket$' "$TMP/out" || fail "text table not titled role,bucket"
grep -q ' client: udp$' "$TMP/out" || fail "no client: udp row"
awk 'length > 72 { exit 1 }' "$TMP/out" || fail "wider than 72 columns"

expect_exit 64 "$PERPKT" report -i "$P" --by function,role
grep -q "combined keys are role or cpu, then function" "$TMP/err" || fail "$(cat "$TMP/err")"
expect_exit 64 "$PERPKT" report -i "$P" --by role,nosuch
echo "ok: client $client, cpu 0 $cpu0 of $total ns/RT"
