#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Probe effect: how much does recording lengthen the round trip it
# measures? The same-CPU UDP loopback round trip, unrecorded, under
# `perpkt record` and under `perf record -a -e cpu-clock` at the same
# period: 10 kHz per CPU, and perpkt's default rate. Part of `make
# bench`; alone:
#
#   tests/bench/bench-probe.sh [PERPKT] [PAIRS] [SECONDS]
#
# Every condition runs perpkt's own ping-pong (one workload, one
# histogram); "unrecorded" is perpkt sampling at 10 Hz (one sample per
# few thousand round trips, far below the p50's resolution), and perf
# wraps that same command. The conditions run round by round, the order
# rotated each round, and every figure is the median over the rounds of
# the ratio to the unrecorded run of the same round: drift of this noisy
# VM hits all conditions alike.
#
# The statistic: a sample delays only the round trip it lands in (one
# in 18 at 10 kHz here), so the p50 hardly moves whatever it costs, and
# the mean is owned by this VM's stalls of up to a second. Each run's
# figure is the mean of its round trips below the 99th percentile of
# the unrecorded run of the same round (from the latency histograms,
# bucket midpoints): a cost paid by one round trip in 18 shows, a stall
# does not. A second unrecorded run per round ("unrec2") shows the
# method's own resolution: the same interval for no change at all.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
PERPKT=${1:-${PERPKT:-build/perpkt}}
PAIRS=${2:-${BENCH_PROBE_ROUNDS:-20}}
SECS=${3:-${BENCH_SECS:-1}}
CPU=${BENCH_CPU:-1}
command -v perf >/dev/null || { echo "bench-probe: needs perf: apt-get install linux-perf" >&2; exit 77; }
command -v jq >/dev/null || { echo "bench-probe: needs jq" >&2; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-probe.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

FAST=100000	# ns: 10 kHz per CPU
IDLE=100000000	# ns: 10 Hz, "unrecorded"
rec() {	# OUT [record options...]: perpkt's ping-pong on one CPU
	local out=$1
	shift
	"$PERPKT" record -q -d "$SECS" -w 0.5 --client-cpu "$CPU" --server-cpu "$CPU" \
		-o "$out" "$@" 2>>"$TMP/log"
}
under_perf() {	# PERIOD OUT: the unrecorded run inside perf record -a
	perf record -q -a -e cpu-clock -c "$1" -o "$TMP/perf.data" -- \
		"$PERPKT" record -q -d "$SECS" -w 0.5 --client-cpu "$CPU" \
		--server-cpu "$CPU" -c "$IDLE" -o "$2" >/dev/null 2>>"$TMP/log"
}
p50() { jq '.workload.latency_ns.p50 / 1000' "$1"; }
# tmean FILE CUT_NS: mean round trip (us) of those below CUT_NS
tmean() {
	jq --argjson cut "$2" '[.workload.latency_histogram[] | select(.[1] <= $cut)] |
		((map((.[0] + .[1]) / 2 * .[2]) | add) / (map(.[2]) | add) / 1000)' "$1"
}

# perpkt's default period, as record picks it on this machine
rec "$TMP/def.json" -d 0.2 -w 0.1 || { cat "$TMP/log" >&2; exit 2; }
DEF=$(jq '.counters.events[0].period' "$TMP/def.json")
DEFHZ=$(calc "1e9 / $DEF" %.0f)

CONDS="base base2 pp-fast perf-fast pp-def perf-def"
NC=6
run() {	# CONDITION OUT
	case $1 in
	base|base2) rec "$2" -c "$IDLE" ;;
	pp-fast) rec "$2" -a -c "$FAST" ;;
	perf-fast) under_perf "$FAST" "$2" ;;
	pp-def) rec "$2" ;;
	perf-def) under_perf "$DEF" "$2" ;;
	esac
}

echo "probe effect: same-CPU UDP loopback (client and responder on CPU $CPU), $SECS s windows,"
echo "  $PAIRS rounds; fast = 10 kHz per CPU, default = perpkt's ${DEFHZ} Hz; mean below the"
echo "  unrecorded run's p99 in us (p50 of the unrecorded run last)"
printf '%5s %9s %9s %9s %9s %9s %9s %9s\n' round unrec unrec2 pp-fast perf-fast pp-def perf-def p50
for r in $(seq "$PAIRS"); do
	# rotate the order: each condition runs first in some round
	order=""
	for i in $(seq 0 $((NC - 1))); do
		order="$order $(echo $CONDS | cut -d' ' -f$(( (r - 1 + i) % NC + 1 )))"
	done
	for c in $order; do
		run "$c" "$TMP/$c.json" || { cat "$TMP/log" >&2; exit 2; }
	done
	cut=$(jq '.workload.latency_ns.p99' "$TMP/base.json")
	for c in $CONDS; do
		tmean "$TMP/$c.json" "$cut" >"$TMP/$c.p50"
	done
	# the sampling interrupt's cost per sample on the workload's CPU:
	# the time it added per round trip, times the round trips, over
	# the samples taken there
	jq --argjson d "$(calc "$(cat "$TMP/pp-fast.p50") - $(cat "$TMP/base.p50")" %.6f)" \
		--argjson cpu "$CPU" '$d * 1000 * .workload.round_trips /
		([.samples[] | select(.cpu == $cpu) | .count] | add)' "$TMP/pp-fast.json" >>"$TMP/per-sample"
	# perpkt's own CPU time at 10 kHz (its controller: the perpkt role)
	jq '([.samples[] | select(.role == "perpkt") | .weight] | add // 0) /
	    .workload.round_trips' "$TMP/pp-fast.json" >>"$TMP/self"
	line=""
	for c in $CONDS; do
		v=$(cat "$TMP/$c.p50")
		echo "$v" >>"$TMP/$c.all"
		[ "$c" = base ] || calc "$v / $(cat "$TMP/base.p50")" %.6f >>"$TMP/$c.ratio"
		line="$line $(calc "$v" %9.3f)"
	done
	line="$line $(calc "$(p50 "$TMP/base.json")" %9.3f)"
	# the pair of this round: perpkt's inflation minus perf's, in points
	for rate in fast def; do
		calc "($(tail -1 "$TMP/pp-$rate.ratio") - $(tail -1 "$TMP/perf-$rate.ratio")) * 100" %.4f \
			>>"$TMP/diff-$rate"
	done
	tail -1 "$TMP/pp-def.ratio" | awk '{ printf "%.4f\n", ($1 - 1) * 100 }' >>"$TMP/infl-def"
	tail -1 "$TMP/base2.ratio" | awk '{ printf "%.4f\n", ($1 - 1) * 100 }' >>"$TMP/infl-none"
	printf '%5d%s\n' "$r" "$line"
done
infl() { calc "($(median <"$TMP/$1.ratio") - 1) * 100" "%+.2f"; }
range() {
	sort -g "$TMP/$1.ratio" | sed -n '1p;$p' | tr '\n' ' ' |
		awk '{ printf "%+.1f..%+.1f%%", ($1 - 1) * 100, ($2 - 1) * 100 }'
}
printf 'median %s\n' "$(for c in $CONDS; do calc "$(median <"$TMP/$c.all")" %9.3f; done | tr '\n' ' ')"
echo "median inflation over the unrecorded run of the same round (range over rounds):"
for c in base2 pp-fast perf-fast pp-def perf-def; do
	echo "  $c: $(infl "$c")% ($(range "$c"))"
done

# the verdicts read the paired rounds: the interval of the mean
# difference (95%, t), "same within noise" where it covers the target
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f..%+.1f", a, b }'; }
read -r dm dlo dhi < <(interval <"$TMP/diff-fast")
pf=$(infl pp-fast); ff=$(infl perf-fast); pd=$(infl pp-def)
read -r nm nlo nhi < <(interval <"$TMP/infl-none")
bench_row "probe: the method's resolution (unrecorded vs unrecorded)" \
	"$(calc "$nm" %+.2f)% (95%: $(pct "$nlo" "$nhi")%, $(calc "$nhi - $nlo" %.1f) points wide over $PAIRS rounds)" \
	"<= 2 points wide" "$(verdict "$(calc "$nhi - $nlo <= 2" %d)")"
bench_row "probe: +% at 10 kHz/CPU, perpkt vs perf" \
	"${pf}% vs ${ff}%; perpkt - perf $(calc "$dm" %+.2f) points (95%: $(pct "$dlo" "$dhi"), $(calc "$dhi - $dlo" %.1f) wide, over $PAIRS paired rounds; unrecorded $(calc "$(median <"$TMP/base.all")" %.2f) us)" \
	"perpkt <= perf" "$(at_most "$dlo" "$dhi" 0)"
read -r im ilo ihi < <(interval <"$TMP/infl-def")
read -r em elo ehi < <(interval <"$TMP/diff-def")
bench_row "probe: +% at perpkt's default ${DEFHZ} Hz" \
	"$(calc "$im" %+.2f)% (95%: $(pct "$ilo" "$ihi")%); perf at ${DEFHZ} Hz: $(infl perf-def)% (perpkt - perf $(pct "$elo" "$ehi") points)" "<= 1%" \
	"$(at_most "$ilo" "$ihi" 1)"
bench_row "probe: perpkt's own CPU at 10 kHz (perpkt role)" \
	"$(calc "$(median <"$TMP/self")" %.1f) ns/RT" "-" "-"
bench_row "probe: the sampling interrupt's cost per sample (10 kHz)" \
	"$(calc "$(median <"$TMP/per-sample")" %.0f) ns (median over rounds)" "-" "-"
