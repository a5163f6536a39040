# SPDX-License-Identifier: GPL-2.0-only
# One set of rows: every table of report, in every format, is the
# workload's by default, as the headline is, with the other tasks on the
# same CPUs one [other tasks] row outside the total; --all-tasks gives
# every task's rows again (the tables of before, byte for byte).
# The profile is the sw-clock fixture with another job's heavy KVM
# function (as seen on this VM: emulator_get_segment in the top 15).
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "needs jq"
F=$SRCDIR/tests/fixtures/profiles/sw-clock.json
P=$TMP/p.json
jq '.kallsyms += [{addr: "0xffffffff81007000", module: null,
		   name: "emulator_get_segment", size: 256, type: "T"}]
    | .samples += [{count: 2500, cpu: 1, event: 0, ip: "0xffffffff81007010",
		    role: "other", weight: 25000000}]
    | .counters.events[0].samples += 2500
    | .counters.events[0].count += 25000000' "$F" >"$P" ||
	fail "cannot make the profile"

near() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b - 0.051 && a < b + 0.051) }'; }

# the headline's figures, from JSON (the same summary as the text's)
expect_exit 0 "$PERPKT" report -i "$P" --format json
cp "$TMP/out" "$TMP/r.json"
wbusy=$(jq '.workload_busy.per_rt.primary' "$TMP/r.json")
others=$(jq '.other_tasks_per_rt' "$TMP/r.json")
jq -e '.rows_of == "workload"' "$TMP/r.json" >/dev/null || fail "json rows_of: $(jq .rows_of "$TMP/r.json")"
near "$(jq '.busy.per_rt.primary' "$TMP/r.json")" "$wbusy" ||
	fail "json busy $(jq .busy.per_rt.primary "$TMP/r.json") is not the headline's $wbusy"
near "$(jq '[.buckets[] | select(.name != "idle") | .per_rt.primary] | add' "$TMP/r.json")" "$wbusy" ||
	fail "json buckets do not add up to the headline's busy $wbusy"
near "$(jq '.other_tasks.per_rt.primary' "$TMP/r.json")" "$others" ||
	fail "json other_tasks row $(jq -c .other_tasks "$TMP/r.json") is not $others"
jq -e '[.functions[], .buckets[], .cpus[], .roles[] | select(.name == "emulator_get_segment" or .name == "other" and .per_rt.primary > 0)] | length == 0' \
	"$TMP/r.json" >/dev/null || fail "json tables hold the other tasks' rows"
# (the other tasks: the fixture's 1.4 us and the KVM function's 25 us)
near "$others" 26400 || fail "other tasks $others ns/RT, want 26400"

# text: the headline's busy kernel and top bucket share are the table's
expect_exit 0 "$PERPKT" report -i "$P"
tr '\n' ' ' <"$TMP/out" | tr -s ' ' >"$TMP/flat"
hb=$(grep -o 'busy kernel [0-9.]* +- [0-9.]* us/RT' "$TMP/flat" | awk '{ print $3 * 1000 }')
tb=$(grep -o '[0-9.]* ns busy (without' "$TMP/flat" | awk '{ print $1 }')
[ -n "$hb" ] && near "$tb" "$hb" || fail "text: headline busy $hb ns, table $tb ns"
near "$hb" "$wbusy" || fail "text headline $hb is not json's $wbusy"
share=$(grep -o 'top bucket udp ([0-9]*% of busy)' "$TMP/flat" | grep -o '[0-9]*%' | tr -d %)
udp=$(awk '$NF == "udp" && NF == 6 { print $4 }' "$TMP/out")
[ -n "$share" ] && [ "$(awk -v u="$udp" -v b="$tb" 'BEGIN { printf "%.0f", 100 * u / b }')" = "$share" ] ||
	fail "text: headline's udp share $share%, the bucket table's $udp of $tb"
grep -q 'emulator_get_segment' "$TMP/out" && fail "text: the other tasks' function is in the table"
[ "$(grep -c ' \[other tasks\]$' "$TMP/out")" = 2 ] ||
	fail "text: not one [other tasks] row in each table: $(grep -c 'other tasks' "$TMP/out")"
grep ' \[other tasks\]$' "$TMP/out" | awk '{ print $3 }' | while read -r v; do
	near "$v" "$others" || fail "text: [other tasks] row $v, want $others"
done
for by in cpu role file; do
	expect_exit 0 "$PERPKT" report -i "$P" --by $by --format csv
	near "$(awk -F, 'NR > 1 && $1 != "[other tasks]" { s += $5 } END { print s }' "$TMP/out")" \
		"$(jq '.total.per_rt.primary' "$TMP/r.json")" || fail "csv --by $by does not add up to the workload's total"
	grep -q '^\[other tasks\],' "$TMP/out" || fail "csv --by $by has no [other tasks] row"
done

# markdown and csv: the busy figure and the rows are the headline's
expect_exit 0 "$PERPKT" report -i "$P" --format markdown
near "$(grep -o '[0-9.]* busy (without' "$TMP/out" | awk '{ print $1 }')" "$wbusy" ||
	fail "markdown busy is not the headline's: $(grep 'busy (without' "$TMP/out")"
grep -q 'emulator_get_segment' "$TMP/out" && fail "markdown: the other tasks' function is in a table"
grep -q '^| \[other tasks\] ' "$TMP/out" || fail "markdown: no [other tasks] row"
expect_exit 0 "$PERPKT" report -i "$P" --format csv
near "$(awk -F, 'NR > 1 && $1 != "[other tasks]" && $2 != "idle" { s += $8 } END { print s }' "$TMP/out")" "$wbusy" ||
	fail "csv rows without idle do not add up to the headline's busy $wbusy"
expect_exit 0 "$PERPKT" report -i "$P" --format html
grep -q 'emulator_get_segment' "$TMP/out" && fail "html: the other tasks' function is in a table"
grep -q '<tr><td>\[other tasks\]</td>' "$TMP/out" || fail "html: no [other tasks] row"

# --all-tasks: every task's rows, no [other tasks] row; the fixture's
# text is what it was before the default changed
expect_exit 0 "$PERPKT" report -i "$P" --all-tasks --format json
jq -e '.rows_of == "all tasks" and .other_tasks == null' "$TMP/out" >/dev/null ||
	fail "--all-tasks json: $(jq -c '[.rows_of, .other_tasks]' "$TMP/out")"
near "$(jq '.busy.per_rt.primary' "$TMP/out")" "$(awk -v a="$wbusy" -v b="$others" 'BEGIN { print a + b }')" ||
	fail "--all-tasks busy is not the workload's and the other tasks'"
jq -e '[.functions[] | select(.bucket != "idle")][0].name == "emulator_get_segment"' "$TMP/out" >/dev/null ||
	fail "--all-tasks: the other tasks' function is not the top busy row"
for fmt in text markdown csv html; do
	expect_exit 0 "$PERPKT" report -i "$P" --all-tasks --format $fmt
	grep -q 'emulator_get_segment' "$TMP/out" || fail "--all-tasks $fmt: no other task's function"
	grep -q '\[other tasks\]' "$TMP/out" && fail "--all-tasks $fmt: an [other tasks] row"
done
expect_exit 0 "$PERPKT" report -i "$F" --all-tasks
diff -u "$SRCDIR/tests/golden/sw-clock-all-tasks.txt" "$TMP/out" ||
	fail "--all-tasks differs from the tables of every task"
# a filter chooses the rows itself: no [other tasks] row
expect_exit 0 "$PERPKT" report -i "$P" --role other --format csv
grep -q '^emulator_get_segment,' "$TMP/out" || fail "--role other lost the other tasks' rows"
grep -q '\[other tasks\]' "$TMP/out" && fail "--role other: an [other tasks] row"
echo "ok: workload busy $wbusy ns/RT, other tasks $others"
