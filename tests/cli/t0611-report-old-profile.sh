# SPDX-License-Identifier: GPL-2.0-only
# Profile version 1 (warmup_s, no "units": the committed fixtures) still
# reports, and the same profile as version 2 (warmup_ns) reports the
# same text, byte for byte: the golden of t0601 holds for both.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
command -v jq >/dev/null || skip "needs jq"
jq -e '.version == 1 and (.workload.warmup_s | type) == "number" and (has("units") | not)' \
	"$P/sw-clock.json" >/dev/null || fail "sw-clock.json is no longer a version 1 profile"
expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json"
diff -u "$SRCDIR/tests/golden/sw-clock.txt" "$TMP/out" || fail "version 1 report differs"
grep -q "warm-up" "$TMP/out" || fail "the report no longer shows the warm-up"
# (and, as version 2 has them, its window and the count of its event)
jq '.version = 2 | .units = {time: "ns", ratio: "fraction"}
    | .workload.warmup_ns = (.workload.warmup_s * 1e9 | round)
    | del(.workload.warmup_s)
    | .workload.repeats = [{round_trips: .workload.round_trips,
        window_ns: .workload.window_ns, latency_ns: .workload.latency_ns,
        counts: [.counters.events[0].count]}]
    | .counters.counts = [{name: .counters.events[0].name, cpu: 0,
        value: .counters.events[0].count, raw: .counters.events[0].count,
        enabled_ns: 1, running_ns: 1}]' "$P/sw-clock.json" >"$TMP/v2.json"
expect_exit 0 "$PERPKT" report -i "$TMP/v2.json"
diff -u "$SRCDIR/tests/golden/sw-clock.txt" "$TMP/out" || fail "version 2 of the same profile reports differently"
# a version 2 profile without warmup_ns is refused, not read as 0
jq 'del(.workload.warmup_ns)' "$TMP/v2.json" >"$TMP/bad.json"
expect_exit 2 "$PERPKT" report -i "$TMP/bad.json"
echo ok
