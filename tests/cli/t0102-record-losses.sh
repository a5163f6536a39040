# SPDX-License-Identifier: GPL-2.0-only
# At 10 kHz per CPU (ten times the cpu-clock default) the rings lose nothing;
# a reader that stops reading loses samples, and the loss is counted per
# CPU, shown in the report, and turns the exit code to 1. A cpu-clock
# rate the machine cannot take is refused before anything runs.
. "$(dirname "$0")/lib.sh"
need_perf

expect_exit 0 "$PERPKT" record -q -d 2 -w 0.2 -F 10000 -o "$TMP/ok.json"
lost=$(jq '[.counters.events[].lost] | add' "$TMP/ok.json")
[ "$lost" = 0 ] || fail "$lost samples lost at 10 kHz"
samples=$(jq '.counters.events[0].samples' "$TMP/ok.json")
[ "$samples" -gt 1000 ] || fail "only $samples samples"

# Losses any machine gives: a reader that does not read. perpkt is
# stopped (SIGSTOP) while the window is open and a command reads
# /dev/zero (its time in the kernel, which perpkt samples: a spin in
# user space gives kernel samples only when something else runs) under
# cpu-clock at 2 kHz with callchains into one ring page a CPU: the page
# holds a few dozen samples, the 2 s stop brings thousands.
spawn "$TMP/err" "$PERPKT" record -d 3 -w 0 -g -F 2000 --ring-pages 1 --per count:1 \
	-o "$TMP/lossy.json" -- sh -c ": >'$TMP/ready'; exec cat /dev/zero >/dev/null"
pid=$SPAWNED
wait_file "$TMP/ready" $pid   # a command is let go once the window is open
kill -STOP $pid
sleep 2
kill -CONT $pid
code=0
wait $pid || code=$?
[ $code = 1 ] || fail "a reader stopped 2 s: exit $code, expected 1: $(cat "$TMP/err")"
grep -q "samples lost" "$TMP/err" || fail "no loss warning: $(cat "$TMP/err")"
lost=$(jq '.counters.events[0].lost' "$TMP/lossy.json")
[ "$lost" -gt 0 ] || fail "tiny ring lost nothing"
jq -e '([.counters.cpu_times[].lost] | add) == .counters.events[0].lost' "$TMP/lossy.json" >/dev/null ||
	fail "per-CPU losses do not add up: $(jq -c '[.counters.cpu_times[] | {cpu, lost}]' "$TMP/lossy.json")"
expect_exit 0 "$PERPKT" report -i "$TMP/lossy.json" --format json
jq -e '.events[0].lost > 0' "$TMP/out" >/dev/null || fail "report does not carry the losses"
expect_exit 0 "$PERPKT" report -i "$TMP/lossy.json"
grep -qi "lost" "$TMP/out" || fail "text report does not mention the losses"

# 100 kHz of cpu-clock (each sample a timer interrupt) starves the
# workload: refused at once, saying why and what to try
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
if [ "$max" -lt 400000 ]; then
	expect_exit 2 "$PERPKT" record -d 2 -w 0.2 -e cpu-clock -c 10000 -o "$TMP/fast.json"
	grep -q "^perpkt: -c 10000: cpu-clock at 100000 Hz per CPU is more than this machine can sample.*kernel.perf_event_max_sample_rate ($max); use -c [0-9]* or more" "$TMP/err" ||
		fail "-c 10000: $(cat "$TMP/err")"
	[ ! -e "$TMP/fast.json" ] || fail "-c 10000 wrote a profile"
fi
echo "ok: 0 lost at 10 kHz; $lost lost by a stopped reader"
