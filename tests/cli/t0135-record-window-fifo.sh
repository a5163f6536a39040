#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# record --between keeps the traffic with the counters off between
# windows and its latency beside each window's (latency_before_ns);
# --window-fifo and --gap-fifo tell another tool each edge in perf
# record --control's protocol: a listener of this test's sees the
# commands in order (and acks them as perf does, a NUL after each), and
# a real perf started disabled samples just the windows.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
for c in jq python3; do
	command -v $c >/dev/null || skip "needs $c"
done
cd "$TMP" || fail "cd $TMP"

# --between: every window after the first has its gap's round trips,
# about as many as a window of the same length holds
expect_exit 0 "$PERPKT" record -q -r 3 -d 0.2 --between 0.2 -w 0.1 -o between.json
jq -e '.workload.repeats | length == 3' between.json >/dev/null ||
	fail "3 windows expected: $(jq -c '.workload.repeats | length' between.json)"
jq -e '[.workload.repeats[1:][] | .latency_before_ns.count > .round_trips / 4] | all' \
	between.json >/dev/null ||
	fail "a gap of --between 0.2 with few round trips: $(jq -c '[.workload.repeats[] | [.round_trips, .latency_before_ns.count]]' between.json)"
# the first window's gap is the warm-up: the unsampled latency
jq -e '.workload.repeats[0].latency_before_ns.count == .workload.latency_unsampled_ns.count' \
	between.json >/dev/null || fail "window 1's gap is not the warm-up"
expect_exit 0 "$PERPKT" report -i between.json

# what cannot be
expect_exit 64 "$PERPKT" record -q -d 0.1 --between 0.2 -o x.json
grep -q -- "--between is the gap between windows: give -r N" err || fail "--between without -r: $(cat err)"
: >plain
expect_exit 2 "$PERPKT" record -q -d 0.1 --window-fifo plain -o x.json
grep -q "'plain' is not a FIFO" err || fail "a plain file taken: $(cat err)"
mkfifo ctl ack
expect_exit 2 "$PERPKT" record -q -d 0.1 --window-fifo ctl,ack -o x.json
grep -q "nobody reads ctl" err || fail "no reader: $(cat err)"
expect_exit 64 "$PERPKT" record -q -r 2 -d 0.1 --gap-fifo ctl -o x.json
grep -q -- "--gap-fifo samples the gaps between windows" err || fail "--gap-fifo without --between: $(cat err)"
expect_exit 64 "$PERPKT" record -q -d 0.1 --fifo-timeout 2 -o x.json
grep -q "give one of them" err || fail "--fifo-timeout alone: $(cat err)"
[ ! -e x.json ] || fail "a refused run left a profile"

# listen LOG [DELAY]: log each command and ack it as perf does ("ack\n"
# and a NUL), DELAY seconds after it came
listen() {
	python3 -c '
import os, sys, time
delay = float(sys.argv[1])
ctl = os.open("ctl", os.O_RDWR)
ack = os.open("ack", os.O_RDWR)
print("listening", flush=True)
buf = b""
while True:
    d = os.read(ctl, 64)
    if not d:
        break
    buf += d
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        print(line.decode(), flush=True)
        time.sleep(delay)
        os.write(ack, b"ack\n\0")
' "${2:-0}" >"$1" &
	LISTENER=$!
	wait_line "$1" '^listening' $LISTENER
}
LISTENER=
trap '[ -z "$LISTENER" ] || kill $LISTENER 2>/dev/null; rm -rf "$TMP"' EXIT
listen win.log
expect_exit 0 "$PERPKT" record -q -r 3 -d 0.1 --window-fifo ctl,ack -o w.json
[ "$(grep -v listening win.log | tr '\n' ' ')" = "enable disable enable disable enable disable " ] ||
	fail "--window-fifo said: $(tr '\n' ' ' <win.log)"
expect_exit 0 "$PERPKT" record -q -r 3 -d 0.1 --between 0.1 --gap-fifo ctl,ack -o g.json
[ "$(grep -v listening win.log | tail -n +7 | tr '\n' ' ')" = "enable disable enable disable " ] ||
	fail "--gap-fifo said: $(tail -n +8 win.log | tr '\n' ' ')"
# --gap-fifo's tool samples from its enable's ack to its disable: the
# gap's latency is that span, not the edges' handshakes. Its round
# trips tile the time they cover, so their count times their mean is
# the gap's length: about --between's 0.2 s, where a slow tool's 0.6 s
# on each side would make it 1.4 s or more (and the window look dearer
# than the gap by what the handshakes leave unsampled). A count against
# the window's was not enough: under load one window made 3774 round
# trips and its gap 9829 in the same 0.2 s.
kill $LISTENER
wait $LISTENER 2>/dev/null
listen slow.log 0.6
expect_exit 0 "$PERPKT" record -q -r 3 -d 0.2 --between 0.2 -w 0.1 --gap-fifo ctl,ack -o slow.json
# A gap in which no round trip ended has no latency (under two CPU hogs
# and another suite, one of the two had none, 2026-12-06): it holds no
# handshake either; at least one gap must have been measured.
gaps='[.workload.repeats[1:][] | .latency_before_ns | select(. != null) | .count * .mean / 1e9]'
jq -e "$gaps"' | length > 0 and all(. > 0.1 and . < 0.8)' slow.json >/dev/null ||
	fail "the gaps hold the edges' handshakes (each measured gap's length in s): $(jq -c "$gaps" slow.json), round trips $(jq -c '[.workload.repeats[].round_trips]' slow.json)"
# a listener that stops answering: named, not waited for forever
kill $LISTENER
wait $LISTENER 2>/dev/null
python3 -c 'import os, time; os.open("ctl", os.O_RDWR); os.open("ack", os.O_RDWR); print("deaf", flush=True); time.sleep(60)' >deaf.log &
LISTENER=$!
wait_line deaf.log '^deaf' $LISTENER
# (--fifo-timeout: the default 10 s of ping-pong was half this test's CPU)
t0=$SECONDS
expect_exit 2 "$PERPKT" record -q -d 0.1 --window-fifo ctl,ack --fifo-timeout 1 -o x.json
grep -q "no ack to 'enable' within 1 s (--fifo-timeout)" err || fail "a deaf listener: $(cat err)"
[ $((SECONDS - t0)) -lt 9 ] || fail "--fifo-timeout 1 waited $((SECONDS - t0)) s"
kill $LISTENER
wait $LISTENER 2>/dev/null

# a real perf, disabled until perpkt's first window: its samples fall
# in three bursts, one per window, apart by about the 0.4 s gaps
command -v perf >/dev/null || skip "no perf for the last part (apt-get install linux-perf)"
expect_exit 0 perf record -q --control fifo:ctl,ack -D -1 -a -e cpu-clock -c 1000000 \
	-o perf.data -- "$PERPKT" record -q -r 3 -d 0.2 --between 0.4 -w 0.4 \
	--window-fifo ctl,ack -o p.json
perf script -i perf.data -F time 2>/dev/null | tr -d ':' |
	awk '{ t = $1 + 0; if (NR > 1 && t - p > 0.25) n++; p = t } END { print n + 1, NR }' >bursts
read -r bursts samples <bursts
[ "$samples" -gt 100 ] || fail "perf sampled $samples times in three 0.2 s windows"
[ "$bursts" = 3 ] || fail "perf's samples fall in $bursts bursts, not the 3 windows"
exit 0
