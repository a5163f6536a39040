#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Probe effect: how much does recording lengthen the round trip it
# measures? p50 of the same-CPU UDP loopback round trip, unrecorded,
# under `perpkt record` and under `perf record -a -e cpu-clock` at the
# same period: 10 kHz per CPU, and perpkt's default rate. Part of
# `make bench`; alone:
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
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
PERPKT=${1:-${PERPKT:-build/perpkt}}
PAIRS=${2:-${BENCH_PAIRS:-5}}
SECS=${3:-${BENCH_SECS:-3}}
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

# perpkt's default period, as record picks it on this machine
rec "$TMP/def.json" -d 0.2 -w 0.1 || { cat "$TMP/log" >&2; exit 2; }
DEF=$(jq '.counters.events[0].period' "$TMP/def.json")
DEFHZ=$(calc "1e9 / $DEF" %.0f)

CONDS="base pp-fast perf-fast pp-def perf-def"
run() {	# CONDITION OUT
	case $1 in
	base) rec "$2" -c "$IDLE" ;;
	pp-fast) rec "$2" -a -c "$FAST" ;;
	perf-fast) under_perf "$FAST" "$2" ;;
	pp-def) rec "$2" ;;
	perf-def) under_perf "$DEF" "$2" ;;
	esac
}

echo "probe effect: same-CPU UDP loopback (client and responder on CPU $CPU), $SECS s windows,"
echo "  $PAIRS rounds; fast = 10 kHz per CPU, default = perpkt's ${DEFHZ} Hz; p50 in us"
printf '%5s %9s %9s %9s %9s %9s\n' round unrec pp-fast perf-fast pp-def perf-def
for r in $(seq "$PAIRS"); do
	# rotate the order: each condition runs first in some round
	order=""
	for i in $(seq 0 4); do
		order="$order $(echo $CONDS | cut -d' ' -f$(( (r - 1 + i) % 5 + 1 )))"
	done
	for c in $order; do
		run "$c" "$TMP/$c.json" || { cat "$TMP/log" >&2; exit 2; }
		p50 "$TMP/$c.json" >"$TMP/$c.p50"
	done
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
	# the pair of this round: perpkt's inflation minus perf's, in points
	for rate in fast def; do
		calc "($(tail -1 "$TMP/pp-$rate.ratio") - $(tail -1 "$TMP/perf-$rate.ratio")) * 100" %.4f \
			>>"$TMP/diff-$rate"
	done
	tail -1 "$TMP/pp-def.ratio" | awk '{ printf "%.4f\n", ($1 - 1) * 100 }' >>"$TMP/infl-def"
	printf '%5d%s\n' "$r" "$line"
done
infl() { calc "($(median <"$TMP/$1.ratio") - 1) * 100" "%+.2f"; }
range() {
	sort -g "$TMP/$1.ratio" | sed -n '1p;$p' | tr '\n' ' ' |
		awk '{ printf "%+.1f..%+.1f%%", ($1 - 1) * 100, ($2 - 1) * 100 }'
}
printf 'median %s\n' "$(for c in $CONDS; do calc "$(median <"$TMP/$c.all")" %9.3f; done | tr '\n' ' ')"
echo "median p50 inflation over the unrecorded run of the same round (range over rounds):"
for c in pp-fast perf-fast pp-def perf-def; do
	echo "  $c: $(infl "$c")% ($(range "$c"))"
done

# the verdicts read the paired rounds: the interval of the mean
# difference (95%, t), "same within noise" where it covers the target
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f..%+.1f", a, b }'; }
read -r dm dlo dhi < <(interval <"$TMP/diff-fast")
pf=$(infl pp-fast); ff=$(infl perf-fast); pd=$(infl pp-def)
bench_row "probe: p50 +% at 10 kHz/CPU, perpkt vs perf" \
	"${pf}% vs ${ff}%; perpkt - perf $(calc "$dm" %+.2f) points (95%: $(pct "$dlo" "$dhi") over $PAIRS paired rounds; unrecorded $(calc "$(median <"$TMP/base.all")" %.2f) us)" \
	"perpkt <= perf" "$(at_most "$dlo" "$dhi" 0)"
read -r im ilo ihi < <(interval <"$TMP/infl-def")
read -r em elo ehi < <(interval <"$TMP/diff-def")
bench_row "probe: p50 +% at perpkt's default ${DEFHZ} Hz" \
	"$(calc "$im" %+.2f)% (95%: $(pct "$ilo" "$ihi")%); perf at ${DEFHZ} Hz: $(infl perf-def)% (perpkt - perf $(pct "$elo" "$ehi") points)" "<= 1%" \
	"$(at_most "$ilo" "$ihi" 1)"
bench_row "probe: perpkt's own CPU at 10 kHz (perpkt role)" \
	"$(calc "$(median <"$TMP/self")" %.1f) ns/RT" "-" "-"
