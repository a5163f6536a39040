# SPDX-License-Identifier: GPL-2.0-only
# record --repeat N: N windows in one run, each kept apart (round trips,
# window, latency, event totals, CPU time, samples), adding up to the
# profile's totals; and the latency histogram holds every round trip.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

expect_exit 0 "$PERPKT" record -q -r 3 -d 0.5 -w 0.2 -o "$TMP/r.json"
P="$TMP/r.json"
jq -e '.workload.repeats | length == 3' "$P" >/dev/null || fail "not 3 repeats"
jq -e '([.workload.repeats[].round_trips] | add) == .workload.round_trips' "$P" >/dev/null ||
	fail "repeat round trips do not add up"
jq -e '([.workload.repeats[].window_ns] | add) == .workload.window_ns' "$P" >/dev/null ||
	fail "repeat windows do not add up"
jq -e '.workload.repeats | all(.round_trips > 100 and .window_ns > 4e8 and .window_ns < 1e9
	and .latency_ns.p50 > 0 and .client_cpu_ns > 0)' "$P" >/dev/null ||
	fail "a repeat looks wrong: $(jq -c '[.workload.repeats[] | {round_trips, window_ns}]' "$P")"
# exact event totals: per-window differences of the group counts
jq -e '([.workload.repeats[].counts[0]] | add) == .counters.events[0].count' "$P" >/dev/null ||
	fail "repeat counts do not add up to the event count"
# every window has its own samples, and together they are all of them
for r in 0 1 2; do
	n=$(jq --argjson r $r '[.samples[] | select((.repeat // 0) == $r) | .count] | add // 0' "$P")
	[ "$n" -gt 100 ] || fail "window $r has only $n samples"
done
jq -e '([.samples[] | select(.event == 0) | .count] | add) == .counters.events[0].samples' "$P" >/dev/null ||
	fail "samples by window do not add up"
# the histogram has every round trip, and the p50 lies in it
jq -e '([.workload.latency_histogram[][2]] | add) == .workload.round_trips' "$P" >/dev/null ||
	fail "histogram count != round trips"
jq -e '.workload.latency_ns.p50 as $p | [.workload.latency_histogram[] | select(.[0] <= $p and $p <= .[1])] | length >= 1' "$P" >/dev/null ||
	fail "p50 outside the histogram"
# the report shows a spread across the windows
expect_exit 0 "$PERPKT" report -i "$P" --format json
jq -e '.total | tostring | test("spread|sd")' "$TMP/out" >/dev/null ||
	jq -e '[.. | objects | select(has("spread"))] | map(.spread) | map(select(. != null)) | length > 0' "$TMP/out" >/dev/null ||
	fail "report shows no spread across repeats"
expect_exit 64 "$PERPKT" record -q -r 0 -o "$TMP/x.json"
echo ok
