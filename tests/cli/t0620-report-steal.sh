#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Steal time (/proc/stat's steal column over the window, on the client's
# and responder's CPUs) per round trip in the decomposition, a warning
# when it is large against the round trip, steal_ns in JSON, and diff
# naming a change of the cpu.steal condition on its first lines. Fixture:
# sw-clock.json (1000 round trips, mean 100 us, 100 ms window) with
# steal planted on cpu 0, taken from its idle time.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "needs jq"
P=$SRCDIR/tests/fixtures/profiles
# plant MS BAND: MS ms of steal on cpu 0, condition cpu.steal BAND
plant() {
	jq --argjson ms "$1" --arg band "$2" '
		.counters.cpu_times[0].other_ns = $ms * 1000000 |
		.counters.cpu_times[0].idle_ns -= $ms * 1000000 |
		.conditions["cpu.steal"] = $band + " of the workload\u0027s CPUs\u0027 time"' \
		"$P/sw-clock.json"
}
plant 20 "5% to 20%" >"$TMP/hi.json"
plant 1 "under 1%" >"$TMP/lo.json"
jq -e '.counters.cpu_times[0].idle_ns >= 0' "$TMP/hi.json" >/dev/null ||
	fail "fixture has too little idle time to plant steal in"

# 20 ms over 1000 round trips: 20 us each, 20% of the 100 us round trip
expect_exit 0 "$PERPKT" report --width 300 -i "$TMP/hi.json"
grep -qE '^!   steal \(/proc/stat: the hypervisor ran others\) +20\.00 us' "$TMP/out" ||
	fail "large steal not flagged in the short report: $(grep -i steal "$TMP/out")"
grep -q "steal: the hypervisor ran something else for 20.00 us per round trip on the workload's CPUs, 20% of the round trip" "$TMP/out" ||
	fail "no steal warning: $(head -12 "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$TMP/hi.json" --format json
jq -e '.decomposition.steal_ns == 20000 and
	any(.warnings[]; test("^steal: "))' "$TMP/out" >/dev/null ||
	fail "JSON: $(jq -c '[.decomposition.steal_ns, .warnings]' "$TMP/out")"

# 1 us a round trip (1%): shown with --full, no warning
expect_exit 0 "$PERPKT" report --width 300 -i "$TMP/lo.json"
grep -qi steal "$TMP/out" && fail "small steal in the short report: $(grep -i steal "$TMP/out")"
expect_exit 0 "$PERPKT" report --width 300 -i "$TMP/lo.json" --full
grep -qE '^    steal \(/proc/stat: the hypervisor ran others\) +1\.00 us' "$TMP/out" ||
	fail "steal not in the full decomposition: $(grep -i steal "$TMP/out")"

# diff names the change in steal before any number
expect_exit 0 "$PERPKT" diff --width 200 "$TMP/lo.json" "$TMP/hi.json"
sed -n 2,6p "$TMP/out" | grep -qx "differs: steal: under 1% of the workload's CPUs' time -> 5% to 20% of the workload's CPUs' time" ||
	fail "diff does not open with steal: $(head -6 "$TMP/out")"
