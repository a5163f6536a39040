# SPDX-License-Identifier: GPL-2.0-only
# A profile whose fields disagree is refused on load, naming the field:
# units missing or unknown, the latency histogram emptied or not adding
# up to the timed round trips, a percentile that is not the histogram's,
# samples, windows or counts emptied. --force reads it, with a warning
# at the top of the report (and of diff's); the profile as recorded
# reads cleanly.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

expect_exit 0 "$PERPKT" record -q -d 0.3 -w 0.1 -o "$TMP/good.json"
expect_exit 0 "$PERPKT" report -i "$TMP/good.json"
[ -s "$TMP/err" ] && fail "the recorded profile is not clean: $(cat "$TMP/err")"

# corrupt EXPR FIELD: the profile with jq EXPR applied is refused, and
# the message names FIELD; --force reads it and says so at the top
n=0
corrupt() {
	n=$((n + 1))
	jq "$1" "$TMP/good.json" >"$TMP/bad$n.json" || fail "jq '$1'"
	expect_exit 2 "$PERPKT" report -i "$TMP/bad$n.json"
	grep -q "is inconsistent: .*$2" "$TMP/err" || fail "'$1': field $2 not named: $(cat "$TMP/err")"
	grep -q "read it anyway with --force" "$TMP/err" || fail "'$1': no remedy: $(cat "$TMP/err")"
	[ -s "$TMP/out" ] && fail "'$1': a report was printed"
	expect_exit 0 "$PERPKT" report -i "$TMP/bad$n.json" --force
	# the headline (two or three lines), then the warnings, then a blank
	sed -n '1,/^$/p' "$TMP/out" | grep -q "^warning: inconsistent profile, read with --force" ||
		fail "'$1' --force: no warning at the top: $(head -4 "$TMP/out")"
}
corrupt '.units = []' 'units is an array'
corrupt '.units = 5' 'units is not an object'
corrupt '.units = {}' 'units.time is missing'
corrupt 'del(.units)' 'units is missing'
corrupt '.units.time = "us"' "units.time is 'us'"
corrupt '.units.bogus = "x"' 'units.bogus is not a unit'
corrupt '.workload.latency_histogram = []' 'workload.latency_histogram is empty'
corrupt '.workload.latency_histogram[0][2] += 1' 'workload.latency_histogram holds'
corrupt '.workload.latency_ns.count += 1' 'workload.latency_histogram holds'
corrupt '.workload.latency_ns.p50 += 5000' 'workload.latency_ns.p50 is'
corrupt '.workload.latency_ns.p99 = 1' 'workload.latency_ns.p99 is'
corrupt '.samples = []' 'samples lists 0 samples'
corrupt '.workload.repeats = []' 'workload.repeats is empty'
corrupt '.workload.repeats[0].round_trips += 7' 'workload.repeats add up'
corrupt '.counters.counts = []' 'counters.counts has no count'

# the headline of a report read anyway: the same figures, under the warning
expect_exit 0 "$PERPKT" report -i "$TMP/bad7.json" --force --format json
jq -e '.warnings[0] | test("latency_histogram is empty")' "$TMP/out" >/dev/null ||
	fail "json --force: $(jq -c .warnings "$TMP/out")"
# diff and table take --force too
expect_exit 2 "$PERPKT" diff "$TMP/good.json" "$TMP/bad7.json"
expect_exit 0 "$PERPKT" diff "$TMP/good.json" "$TMP/bad7.json" --force
grep -q "is inconsistent, read with" "$TMP/out" || fail "diff --force said nothing: $(head -5 "$TMP/out")"
expect_exit 2 "$PERPKT" table "$TMP/good.json" "$TMP/bad7.json"
expect_exit 0 "$PERPKT" table "$TMP/good.json" "$TMP/bad7.json" --force
grep -q "is inconsistent" "$TMP/err" || fail "table --force said nothing"
echo "ok: $n corruptions refused by name, read with --force under a warning"
