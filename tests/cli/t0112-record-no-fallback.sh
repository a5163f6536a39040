# SPDX-License-Identifier: GPL-2.0-only
# --no-fallback refuses only the cycles-to-cpu-clock fallback, naming the
# event it could not measure; a secondary event that is missing is still
# recorded as not available, and the message says why in words that fit
# this machine (no PMU at all here).
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

if "$PERPKT" record -q -d 0.2 -w 0 -e cycles --no-fallback -o "$TMP/hw.json" 2>/dev/null; then
	skip "this machine has a hardware PMU: nothing falls back"
fi
expect_exit 2 "$PERPKT" record -q -d 0.2 -w 0 -e cycles --no-fallback -o "$TMP/x.json"
grep -q "'cycles' cannot be measured here (no hardware PMU: .*), and --no-fallback refuses the cpu-clock fallback" "$TMP/err" ||
	fail "no-fallback message: $(cat "$TMP/err")"
[ ! -e "$TMP/x.json" ] || fail "a profile was written by a refused record"

# with cpu-clock asked for, only the
# missing secondary event is at stake, and --no-fallback does not abort
expect_exit 0 "$PERPKT" record -d 0.3 -w 0.1 -e cpu-clock,instructions --no-fallback -o "$TMP/sec.json"
grep -q "'instructions' is not available here (no hardware PMU: " "$TMP/err" ||
	fail "secondary event warning: $(cat "$TMP/err")"
jq -e '[.counters.missing_events[].name] == ["instructions"] and
	[.counters.events[].name] == ["cpu-clock"]' "$TMP/sec.json" >/dev/null ||
	fail "events: $(jq -c '[.counters.events[].name, .counters.missing_events]' "$TMP/sec.json")"

# without --no-fallback: cycles falls back and says which event it replaced
expect_exit 0 "$PERPKT" record -d 0.3 -w 0.1 -o "$TMP/def.json"
grep -q "'cycles' cannot be measured here (no hardware PMU: .*): using cpu-clock" "$TMP/err" ||
	fail "fallback warning: $(cat "$TMP/err")"
jq -e '.counters.mode == "software-clock" and .counters.clock == null' "$TMP/def.json" >/dev/null ||
	fail "fallback profile: $(jq -c '.counters | {mode, clock}' "$TMP/def.json")"
# the topology line says only what /proc/cpuinfo knows
jq -e '.conditions["cpu.topology"] | test("-1") | not' "$TMP/def.json" >/dev/null ||
	fail "topology: $(jq -r '.conditions["cpu.topology"]' "$TMP/def.json")"
echo ok
