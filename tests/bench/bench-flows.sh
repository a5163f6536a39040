#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# perpkt --flows 2 against two sockperf ping-pong pairs side by side on
# the same CPUs (pair A: client on CPU 0, server on 1; pair B the other
# way round, as perpkt's flows 0 and 1), loopback in a network namespace
# of the benchmark's own; transactions per second and p50, each as a
# ratio perpkt / sockperf, interleaved round by round in one run:
#
#   tests/bench/bench-flows.sh [PERPKT] [ROUNDS] [SECONDS]
#
# sockperf's transactions are its clients' replies in their valid
# duration (after its warm-up), added up; its p50 is the mean of the two
# clients' (--full-rtt), perpkt's that of its flows' merged histogram.
# perpkt samples at 10 Hz so its own profiling barely shows.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
PERPKT=${1:-${PERPKT:-build/perpkt}}
ROUNDS=${2:-${BENCH_PAIRS:-3}}
SECS=${3:-2}
command -v sockperf >/dev/null || { echo "needs sockperf: apt-get install sockperf" >&2; exit 77; }
command -v jq >/dev/null || { echo "needs jq" >&2; exit 77; }
[ "$(id -u)" = 0 ] || { echo "bench-flows: needs root for a network namespace" >&2; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "bench-flows: needs 2 CPUs" >&2; exit 77; }
NS=perpkt-bench-$$-f
TMP=$(mktemp -d)
PIDS=""
stop() {
	local p
	for p in $PIDS; do kill $p 2>/dev/null; done
	for p in $PIDS; do wait $p 2>/dev/null; done
	# nothing of ours may outlive the run: a server still in the
	# namespace is named and killed
	if [ -n "$(ip netns pids $NS 2>/dev/null)" ]; then
		echo "bench-flows: left running in $NS, killed: $(ip netns pids $NS | tr '\n' ' ')" >&2
		ip netns pids $NS | xargs -r kill -9 2>/dev/null
	fi
	ip netns del $NS 2>/dev/null
	rm -rf "$TMP"
}
trap stop EXIT
ip netns add $NS && ip -n $NS link set lo up
in_ns() { ip netns exec $NS "$@"; }

perpkt_run() {	# -> "transactions/s p50-us"
	in_ns "$PERPKT" record -q -d "$SECS" -w 0.5 -e cpu-clock -c 100000000 \
		--flows 2 --client-cpu 0,1 --server-cpu 1,0 -o "$TMP/p.json" 2>"$TMP/err" ||
		{ cat "$TMP/err" >&2; return 1; }
	jq -r '"\(.workload.round_trips / .workload.window_ns * 1e9) \(.workload.latency_ns.p50 / 1000)"' "$TMP/p.json"
}

# sockperf_pair PORT SERVER-CPU CLIENT-CPU OUT: a server, then a client
# in the background writing OUT; the server's pid into PIDS
sockperf_server() {
	# not through in_ns: a function in the background is a subshell,
	# and killing it left sockperf running (issue 54); ip netns exec
	# execs in place, so $! is the server itself
	ip netns exec $NS taskset -c "$2" sockperf server -i 127.0.0.1 -p "$1" >/dev/null 2>&1 &
	PIDS="$PIDS $!"
	until in_ns ss -Hlun "sport = :$1" | grep -q .; do sleep 0.05; done
}
sockperf_server 11111 1
sockperf_server 11112 0
sockperf_run() {	# -> "transactions/s p50-us"
	: >"$TMP/a"; : >"$TMP/b"
	in_ns taskset -c 0 sockperf ping-pong -i 127.0.0.1 -p 11111 -t "$SECS" -m 40 --full-rtt >"$TMP/a" 2>&1 &
	local a=$!
	in_ns taskset -c 1 sockperf ping-pong -i 127.0.0.1 -p 11112 -t "$SECS" -m 40 --full-rtt >"$TMP/b" 2>&1 &
	local b=$!
	wait $a $b
	cat "$TMP/a" "$TMP/b" | awk '
		/\[Valid Duration\]/ { split($0, f, /[=; ]+/)
			for (i = 1; i in f; i++) {
				if (f[i] == "RunTime") t = f[i + 1]
				if (f[i] == "ReceivedMessages") r = f[i + 1]
			}
			tps += r / t }
		/percentile 50.000 =/ { p += $NF; n++ }
		END { if (!n || !tps) exit 1; printf "%f %f\n", tps, p / n }'
}

echo "round  perpkt-tps  sockperf-tps  ratio  perpkt-p50-us  sockperf-p50-us  ratio"
for i in $(seq "$ROUNDS"); do
	read -r pt pp <<<"$(perpkt_run)"
	read -r st sp <<<"$(sockperf_run)"
	calc "$pt / $st" %.6f >>"$TMP/tps"
	calc "$pp / $sp" %.6f >>"$TMP/p50"
	awk -v i="$i" -v pt="$pt" -v st="$st" -v pp="$pp" -v sp="$sp" 'BEGIN {
		printf "%5d  %10.0f  %12.0f  %5.2f  %13.2f  %15.2f  %5.2f\n", i, pt, st, pt / st, pp, sp, pp / sp }'
done
read -r t tlo thi < <(interval <"$TMP/tps")
read -r p plo phi < <(interval <"$TMP/p50")
bench_row "flows: transactions/s, perpkt --flows 2 / two sockperf pairs" \
	"$(calc "$t" %.3f) ($(calc "$tlo" %.3f)..$(calc "$thi" %.3f) over $ROUNDS rounds)" "-" "-"
bench_row "flows: p50, perpkt --flows 2 / two sockperf pairs" \
	"$(calc "$p" %.3f) ($(calc "$plo" %.3f)..$(calc "$phi" %.3f) over $ROUNDS rounds)" "<= 1.00" \
	"$(at_most "$plo" "$phi" 1.00)"
