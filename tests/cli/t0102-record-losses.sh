# SPDX-License-Identifier: GPL-2.0-only
# At 10 kHz per CPU (ten times the cpu-clock default) the rings lose nothing;
# a deliberately tiny ring at 100 kHz loses samples, and the loss is
# counted per CPU, shown in the report, and turns the exit code to 1.
. "$(dirname "$0")/lib.sh"
need_perf

expect_exit 0 "$PERPKT" record -q -d 2 -w 0.2 -F 10000 -o "$TMP/ok.json"
lost=$(jq '[.counters.events[].lost] | add' "$TMP/ok.json")
[ "$lost" = 0 ] || fail "$lost samples lost at 10 kHz"
samples=$(jq '.counters.events[0].samples' "$TMP/ok.json")
[ "$samples" -gt 1000 ] || fail "only $samples samples"

clock=$(jq -r '.counters.events[0].name' "$TMP/ok.json")
period=10000
[ "$clock" = cpu-clock ] || period=100003
expect_exit 1 "$PERPKT" record -d 2 -w 0.2 --ring-pages 1 -c $period -o "$TMP/lossy.json"
grep -q "samples lost" "$TMP/err" || fail "no loss warning: $(cat "$TMP/err")"
lost=$(jq '.counters.events[0].lost' "$TMP/lossy.json")
[ "$lost" -gt 0 ] || fail "tiny ring lost nothing"
jq -e '([.counters.cpu_times[].lost] | add) == .counters.events[0].lost' "$TMP/lossy.json" >/dev/null ||
	fail "per-CPU losses do not add up: $(jq -c '[.counters.cpu_times[] | {cpu, lost}]' "$TMP/lossy.json")"
expect_exit 0 "$PERPKT" report -i "$TMP/lossy.json" --format json
jq -e '.events[0].lost > 0' "$TMP/out" >/dev/null || fail "report does not carry the losses"
expect_exit 0 "$PERPKT" report -i "$TMP/lossy.json"
grep -qi "lost" "$TMP/out" || fail "text report does not mention the losses"
echo "ok: 0 lost at 10 kHz; $lost lost with a 1-page ring"
