# SPDX-License-Identifier: GPL-2.0-only
# report options: bad keys are usage errors (64), --callers needs
# callchains, a newer profile is refused naming both versions with
# nothing on stdout in any format, and text never exceeds --width.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles

expect_exit 64 "$PERPKT" report -i "$P/sw-clock.json" --by nothing
grep -q "unknown --by 'nothing'" "$TMP/err" || fail "--by message: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" report -i "$P/sw-clock.json" --sort nothing
grep -q "unknown --sort 'nothing'" "$TMP/err" || fail "--sort message"
[ ! -s "$TMP/out" ] || fail "stdout not empty after a usage error"
expect_exit 64 "$PERPKT" report -i "$P/sw-clock.json" --format pdf
expect_exit 2 "$PERPKT" report -i "$P/hw-mux.json" --callers udp_sendmsg
grep -q "no callchains" "$TMP/err" || fail "--callers without stacks"
expect_exit 2 "$PERPKT" report -i "$P/sw-clock.json" --callers no_such_fn
grep -q "no_such_fn" "$TMP/err" || fail "--callers of an absent function"

# sorting by an event, by name, by samples
expect_exit 0 "$PERPKT" report -i "$P/hw-mux.json" --sort instructions --format csv
[ "$(sed -n 2p "$TMP/out" | cut -d, -f1)" = udp_sendmsg ] || fail "--sort instructions"
expect_exit 0 "$PERPKT" report -i "$P/hw-mux.json" --sort name --format csv
[ "$(sed -n 2p "$TMP/out" | cut -d, -f1)" = default_idle ] || fail "--sort name"
expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json" --threshold 10 --format csv
[ "$(wc -l <"$TMP/out")" = 6 ] || fail "--threshold 10: $(cat "$TMP/out")"
[ "$(tail -2 "$TMP/out" | head -1 | cut -d, -f1)" = "[other]" ] || fail "--threshold 10: no [other] row"
# the other tasks' one row comes last, outside the total
[ "$(tail -1 "$TMP/out" | cut -d, -f1)" = "[other tasks]" ] || fail "--threshold 10: no [other tasks] row last"

# CSV carries every row, or sums the rest in an [other] row: its column
# adds up to the total either way (it was cut to 40 rows, 68% of it);
# the other tasks' row is outside it
"$PERPKT" report -i "$P/sw-clock.json" --format json >"$TMP/j" 2>/dev/null
total=$(jq '.total.per_rt["cpu-clock"]' "$TMP/j")
for args in "" "--limit 3" "--threshold 5" "--by bucket --limit 2" "--by file"; do
	expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json" --format csv $args
	sum=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpu-clock_per_rt") c = i; next }
		$1 != "[other tasks]" { s += $c } END { printf "%.3f", s }' "$TMP/out")
	awk -v s="$sum" -v t="$total" 'BEGIN { exit !(s > t * 0.999 && s < t * 1.001) }' ||
		fail "csv $args: column sums to $sum of $total"
done
expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json" --format csv
[ "$(wc -l <"$TMP/out")" -eq $(( $(jq '.functions | length' "$TMP/j") + 2 )) ] ||
	fail "csv without --limit does not carry every function"
# each column named once: no "bucket,bucket,module,file" for --by bucket
expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json" --format csv --by bucket
[ "$(head -1 "$TMP/out")" = "bucket,samples,share,cum,cpu-clock_per_rt,cpu-clock_err,ipc" ] ||
	fail "csv --by bucket header: $(head -1 "$TMP/out")"

sed 's/"version": 1/"version": 9/' "$P/sw-clock.json" >"$TMP/new.json"
for fmt in text markdown json csv folded html; do
	expect_exit 2 "$PERPKT" report -i "$TMP/new.json" --format $fmt
	grep -q "version 9 is newer" "$TMP/err" && grep -q "reads (3)" "$TMP/err" ||
		fail "newer version message: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "stdout not empty for a refused profile ($fmt)"
done

for prof in sw-clock hw-mux zero-rt; do
	for w in 60 72 100; do
		for by in function bucket file cpu role; do
			expect_exit 0 "$PERPKT" report -i "$P/$prof.json" --width $w --by $by --all-conditions
			awk -v w=$w 'length($0) > w { print "line " NR ": " $0; bad = 1 } END { exit bad }' "$TMP/out" ||
				fail "$prof --by $by: text wider than $w"
		done
	done
done
echo ok
