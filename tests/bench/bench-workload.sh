#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# perpkt's UDP loopback ping-pong against sockperf, and same-CPU against
# cross-CPU. Not part of ctest (timings need a quiet machine); run by
# hand, see docs/workload.md:
#
#   tests/bench/bench-workload.sh [PERPKT] [PAIRS] [SECONDS]
#
# Both tools run on the same CPU(s), interleaved pair by pair so that
# drift of this noisy VM hits both alike; 40-byte messages; loopback
# only. sockperf's p50 is its full round trip (--full-rtt). perpkt
# samples at 10 Hz so its own profiling barely shows.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
PERPKT=${1:-${PERPKT:-build/perpkt}}
PAIRS=${2:-${BENCH_PAIRS:-5}}
SECS=${3:-2}
CLIENT=${CLIENT_CPU:-1}
SERVER=${SERVER_CPU:-1}
CROSS=${CROSS_CPU:-0}
PORT=${PORT:-$(free_port)}
command -v sockperf >/dev/null || { echo "needs sockperf: apt-get install sockperf" >&2; exit 77; }
command -v jq >/dev/null || { echo "needs jq" >&2; exit 77; }
TMP=$(mktemp -d)
SRV=""
trap '[ -n "$SRV" ] && kill $SRV 2>/dev/null; rm -rf "$TMP"' EXIT

perpkt_p50() {	# client server -> p50 in us
	"$PERPKT" record -q -d "$SECS" -w 0.5 -e cpu-clock -c 100000000 \
		--client-cpu "$1" --server-cpu "$2" -o "$TMP/p.json" 2>/dev/null
	jq '.workload.latency_ns.p50 / 1000' "$TMP/p.json"
}

sockperf_p50() {
	taskset -c "$SERVER" sockperf server -i 127.0.0.1 -p "$PORT" >/dev/null 2>&1 &
	SRV=$!
	sleep 0.3
	taskset -c "$CLIENT" sockperf ping-pong -i 127.0.0.1 -p "$PORT" -t "$SECS" \
		-m 40 --full-rtt 2>&1 | sed -n 's/.*percentile 50.000 = *\([0-9.]*\).*/\1/p'
	kill $SRV; wait $SRV 2>/dev/null || true
	SRV=""
}

echo "pair  perpkt-p50-us  sockperf-p50-us  ratio  cross-cpu-p50-us"
for i in $(seq "$PAIRS"); do
	p=$(perpkt_p50 "$CLIENT" "$SERVER")
	s=$(sockperf_p50)
	x=$(perpkt_p50 "$CLIENT" "$CROSS")
	echo "$p $s $x" >>"$TMP/runs"
	calc "$p / $s" %.6f >>"$TMP/ratios"
	awk -v i="$i" -v p="$p" -v s="$s" -v x="$x" \
		'BEGIN { printf "%4d  %13.2f  %15.2f  %5.2f  %16.2f\n", i, p, s, p / s, x }'
done
mp=$(cut -d' ' -f1 "$TMP/runs" | median)
ms=$(cut -d' ' -f2 "$TMP/runs" | median)
mx=$(cut -d' ' -f3 "$TMP/runs" | median)
awk -v p="$mp" -v s="$ms" -v x="$mx" -v c="$CLIENT" -v sv="$SERVER" -v xc="$CROSS" 'BEGIN {
	printf "median p50: perpkt %.2f us, sockperf %.2f us (client cpu %s, server cpu %s)\n", p, s, c, sv
	printf "cross-cpu (server cpu %s) / same-cpu p50 ratio: %.1f\n", xc, x / p
}'
# each pair measured back to back: the mean ratio and its interval;
# "same within noise" where the interval covers the target
read -r r rlo rhi < <(interval <"$TMP/ratios")
bench_row "floor: p50 perpkt / sockperf --full-rtt, same CPU" \
	"$(calc "$r" %.3f) ($(calc "$rlo" %.3f)..$(calc "$rhi" %.3f) over $PAIRS pairs; medians $(calc "$mp" %.2f) vs $(calc "$ms" %.2f) us)" "<= 1.00" \
	"$(at_most "$rlo" "$rhi" 1.00)"
bench_row "floor: p50 cross-CPU / same-CPU (perpkt)" "$(calc "$mx / $mp" %.2f)" "-" "-"
