#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Probe effect: how much does recording lengthen the round trip it
# measures? The same-CPU UDP loopback round trip under `perpkt record`
# and under `perf record -a -e cpu-clock` at the same period: 10 kHz per
# CPU, and perpkt's default rate. Part of `make bench`; alone:
#
#   tests/bench/bench-probe.sh [PERPKT] [WINDOWS] [SECONDS]
#
# The method: one continuous ping-pong per run whose sampling is
# switched on and off every SECONDS (`record -r WINDOWS --between
# SECONDS`: windows with the counters on, gaps with them off, the gaps'
# latency kept beside each window's). perf follows the same windows
# through its control FIFO (`perf record --control fifo:... -D -1`
# around `perpkt record --window-fifo`, perpkt itself at 10 Hz on the
# other CPU), or the
# gaps between them (`--gap-fifo`): then perpkt and perf sample one
# ping-pong by turns and are read against each other directly. A gap's
# round trips are those between the edges (record marks them after the
# other tool's enable is acked and before its disable is sent): with the
# handshakes and /proc snapshots in it, a few unsampled milliseconds
# made perpkt look a point dearer than perf by turns. Each
# window is compared with the mean of the gaps on either side of it, so
# both halves of a pair share whatever speed this VM's host is running
# at then (it switches between two, from run to run and within one),
# and a linear drift cancels. "none" runs the same with nothing
# switched (perpkt at 10 Hz on the other CPU): the method's own
# resolution, and its offset, taken from the by-turns figures.
#
# The statistic: a sample delays only the round trip it lands in (one
# in 7 at 10 kHz here), so the p50 hardly moves whatever it costs, and
# the mean is owned by this VM's stalls. Each piece's figure is the mean
# of its round trips with the stalls set apart (over 10 x its p50: the
# profile's mean_without_stalls): a cost paid by one round trip in 7
# shows, a stall does not. Every figure is the Hodges-Lehmann estimate
# over the pairs of (window / gaps - 1), with its 95% interval
# (Wilcoxon): a pair the host's speed switched inside does not own it.
# The runs repeat in PASSES passes (3 by default), the order rotated:
# each figure is stated with two intervals, the one of all the passes'
# pairs pooled (within runs) and the one of the passes' own estimates
# (Student's t over PASSES values: what moves from run to run, which
# pairs in one run cannot show), and a verdict stands on the wider.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
PERPKT=${1:-${PERPKT:-build/perpkt}}
WINDOWS=${2:-${BENCH_PROBE_WINDOWS:-120}}
SECS=${3:-${BENCH_PROBE_SECS:-0.05}}
PASSES=${BENCH_PROBE_PASSES:-3}
CPU=${BENCH_CPU:-1}
OTHER=$((CPU == 0 ? 1 : 0))
command -v perf >/dev/null || { echo "bench-probe: needs perf: apt-get install linux-perf" >&2; exit 77; }
command -v jq >/dev/null || { echo "bench-probe: needs jq" >&2; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-probe.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkfifo "$TMP/ctl" "$TMP/ack"

FAST=100000	# ns: 10 kHz per CPU
# "unrecorded": perpkt at 10 Hz on the other CPU alone. An event enabled
# on the workload's CPU costs its round trip a little even when it
# hardly fires (about 0.4% here at 10 Hz): nothing of perpkt's is there
IDLE="-c 100000000 -C $OTHER"
rec() {	# OUT [record options...]: perpkt's ping-pong on one CPU, switched
	local out=$1
	shift
	"$PERPKT" record -q -r "$WINDOWS" -d "$SECS" --between "$SECS" -w 0.5 \
		--client-cpu "$CPU" --server-cpu "$CPU" -o "$out" "$@" 2>>"$TMP/log"
}
# under_perf PERIOD PERF_OPTIONS OUT [record options...]: perf record
# around perpkt's, told of the edges by PERPKT_FIFO: --window-fifo (perf
# samples the windows) or --gap-fifo (the gaps)
under_perf() {
	local period=$1 popts=$2 out=$3
	shift 3
	# shellcheck disable=SC2086 # popts: words
	perf record -q --control "fifo:$TMP/ctl,$TMP/ack" -D -1 -a -e cpu-clock \
		-c "$period" $popts -o "$TMP/perf.data" -- \
		"$PERPKT" record -q -r "$WINDOWS" -d "$SECS" --between "$SECS" -w 0.5 \
		--client-cpu "$CPU" --server-cpu "$CPU" -o "$out" "$@" \
		>/dev/null 2>>"$TMP/log"
}
# pairs FILE: one line per window with a gap on each side, "RATIO DELTA_NS
# ROUND_TRIPS": the window's mean without stalls over the gaps' mean
pairs() {
	jq -r '.workload.repeats as $r | range(1; ($r | length) - 1) |
		(($r[.].latency_before_ns.mean_without_stalls +
		  $r[. + 1].latency_before_ns.mean_without_stalls) / 2) as $off |
		"\($r[.].latency_ns.mean_without_stalls / $off) \($r[.].latency_ns.mean_without_stalls - $off) \($r[.].round_trips)"' "$1"
}

# perpkt's default period, as record picks it on this machine
"$PERPKT" record -q -d 0.2 -w 0.1 --client-cpu "$CPU" --server-cpu "$CPU" \
	-o "$TMP/def.json" 2>>"$TMP/log" || { cat "$TMP/log" >&2; exit 2; }
DEF=$(jq '.counters.events[0].period' "$TMP/def.json")
DEFHZ=$(calc "1e9 / $DEF" %.0f)

# fast: the IP alone (perpkt --no-call-graph, perf's default); fastg:
# kernel callchains (perpkt's default for cpu-clock, 16 frames; perf -g
# --kernel-callchains, up to kernel.perf_event_max_stack); def: both
# tools as perpkt records by default, at its rate. pp-*: perpkt samples
# its windows; perf-*: perf does (perpkt at 10 Hz); vs-*: both in one
# ping-pong by turns, perpkt its windows and perf the gaps between, so
# perpkt's cost is read against perf's directly.
CONDS="none pp-fast perf-fast vs-fast pp-fastg perf-fastg vs-fastg pp-def perf-def vs-def"
NC=10
KCC="-g --kernel-callchains"
WIN="--window-fifo $TMP/ctl,$TMP/ack"
GAP="--gap-fifo $TMP/ctl,$TMP/ack"
run() {	# CONDITION OUT
	# shellcheck disable=SC2086 # $IDLE, $WIN, $GAP: words
	case $1 in
	none) rec "$2" $IDLE ;;
	pp-fast) rec "$2" -a -c "$FAST" --no-call-graph ;;
	perf-fast) under_perf "$FAST" "" "$2" $IDLE $WIN ;;
	vs-fast) under_perf "$FAST" "" "$2" -a -c "$FAST" --no-call-graph $GAP ;;
	pp-fastg) rec "$2" -a -c "$FAST" ;;
	perf-fastg) under_perf "$FAST" "$KCC" "$2" $IDLE $WIN ;;
	vs-fastg) under_perf "$FAST" "$KCC" "$2" -a -c "$FAST" $GAP ;;
	pp-def) rec "$2" ;;
	perf-def) under_perf "$DEF" "$KCC" "$2" $IDLE $WIN ;;
	vs-def) under_perf "$DEF" "$KCC" "$2" $GAP ;;
	esac
}

echo "probe effect: same-CPU UDP loopback (client and responder on CPU $CPU), sampling"
echo "  switched on for $SECS s and off for $SECS s, $WINDOWS windows a run, $PASSES passes;"
echo "  fast = 10 kHz per CPU (g: kernel callchains), default = perpkt's ${DEFHZ} Hz. Per run: the mean over its"
echo "  windows of (window / gaps either side - 1), stalls set apart (median, in %);"
echo "  the gaps' mean p50 in us"
printf '%5s %-10s %8s %8s %10s\n' pass condition pairs "+%" "gaps p50"
for pass in $(seq "$PASSES"); do
	order=""
	for i in $(seq 0 $((NC - 1))); do
		order="$order $(echo $CONDS | cut -d' ' -f$(( (pass - 1 + i) % NC + 1 )))"
	done
	for c in $order; do
		run "$c" "$TMP/$c-$pass.json" || { cat "$TMP/log" >&2; exit 2; }
		pairs "$TMP/$c-$pass.json" >"$TMP/$c-$pass.pairs"
		awk '{ print ($1 - 1) * 100 }' "$TMP/$c-$pass.pairs" >"$TMP/$c-$pass.pct"
		cat "$TMP/$c-$pass.pct" >>"$TMP/$c.pct"
		printf '%5d %-10s %8d %+8.2f %10.2f\n' "$pass" "$c" \
			"$(wc -l <"$TMP/$c-$pass.pairs")" \
			"$(awk '{ print ($1 - 1) * 100 }' "$TMP/$c-$pass.pairs" | median)" \
			"$(jq '[.workload.repeats[1:][].latency_before_ns.p50] | add / length / 1000' "$TMP/$c-$pass.json")"
	done
	# the sampling interrupt's cost per sample on the workload's CPU:
	# the time the windows' round trips gained, over the samples
	# taken there in the windows
	for c in pp-fast pp-fastg; do
		jq --argjson cpu "$CPU" --argjson add "$(awk '{ s += $2 * $3 } END { print s + 0 }' "$TMP/$c-$pass.pairs")" \
			'$add / ([.samples[] | select(.cpu == $cpu) | .count] | add) *
			 (.workload.repeats | length) / ((.workload.repeats | length) - 2)' \
			"$TMP/$c-$pass.json" >>"$TMP/$c.per-sample"
	done
	# perpkt's own CPU time at 10 kHz (its controller: the perpkt role)
	jq '([.samples[] | select(.role == "perpkt") | .weight] | add // 0) /
	    .workload.round_trips' "$TMP/pp-fastg-$pass.json" >>"$TMP/self"
done

pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f..%+.2f", a, b }'; }
# passes COND [MINUS]: each pass's Hodges-Lehmann estimate of COND (less
# MINUS's of the same pass), one a line
passes() {
	local p e m
	for p in $(seq "$PASSES"); do
		read -r e _ _ < <(hodges_lehmann "$TMP/$1-$p.pct")
		m=0
		[ -z "${2:-}" ] || read -r m _ _ < <(hodges_lehmann "$TMP/$2-$p.pct")
		calc "$e - $m"
	done
}
# across COND [MINUS]: "LO HI", the 95% interval of the passes' estimates
across() { passes "$@" | interval | cut -d' ' -f2-; }
# both LO HI ALO AHI: the two intervals as the row says them
both() {
	echo "95% within runs $(pct "$1" "$2"), across $PASSES passes $(pct "$3" "$4")"
}
n=$(wc -l <"$TMP/none.pct")
read -r nm nlo nhi < <(hodges_lehmann "$TMP/none.pct")
read -r alo ahi < <(across none)
read -r wlo whi < <(wider "$nlo" "$nhi" "$alo" "$ahi")
bench_row "probe: the method's resolution (nothing switched)" \
	"$(calc "$nm" %+.2f)% ($(both "$nlo" "$nhi" "$alo" "$ahi")%; $(calc "$whi - $wlo" %.2f) points wide, $n window pairs)" \
	"<= 2 points wide" "$(verdict "$(calc "$whi - $wlo <= 2" %d)")"
# versus RATE WHAT: perpkt's and perf's own figures, then perpkt's
# round trip against perf's in the one ping-pong they shared, less the
# method's own offset (none: what a window differs from its gaps with
# nothing switched); within runs the two intervals' half-widths added
# in quadrature, across passes each pass's difference less its own
# offset; the verdict on the wider
versus() {
	local pm plo phi fm flo fhi dm dlo dhi alo ahi wlo whi
	read -r pm plo phi < <(hodges_lehmann "$TMP/pp-$1.pct")
	read -r fm flo fhi < <(hodges_lehmann "$TMP/perf-$1.pct")
	read -r dm dlo dhi < <(hodges_lehmann "$TMP/vs-$1.pct" |
		awk -v m="$nm" -v lo="$nlo" -v hi="$nhi" '{
			h = sqrt((($3 - $2) / 2) ^ 2 + ((hi - lo) / 2) ^ 2)
			print $1 - m, $1 - m - h, $1 - m + h }')
	read -r alo ahi < <(across "vs-$1" none)
	read -r wlo whi < <(wider "$dlo" "$dhi" "$alo" "$ahi")
	bench_row "probe: +% at $2, perpkt vs perf" \
		"$(calc "$pm" %+.2f)% vs $(calc "$fm" %+.2f)%; in one ping-pong by turns perpkt's round trip is $(calc "$dm" %+.2f)% on perf's ($(both "$dlo" "$dhi" "$alo" "$ahi"))" \
		"perpkt <= perf" "$(at_most "$wlo" "$whi" 0)"
}
versus fast "10 kHz/CPU, IP only"
versus fastg "10 kHz/CPU, kernel callchains (perf -g)"
read -r im ilo ihi < <(hodges_lehmann "$TMP/pp-def.pct")
read -r alo ahi < <(across pp-def)
read -r wlo whi < <(wider "$ilo" "$ihi" "$alo" "$ahi")
bench_row "probe: +% at perpkt's default ${DEFHZ} Hz" \
	"$(calc "$im" %+.2f)% ($(both "$ilo" "$ihi" "$alo" "$ahi")%)" "<= 1%" \
	"$(at_most "$wlo" "$whi" 1)"
versus def "perpkt's default ${DEFHZ} Hz (perf -g)"
bench_row "probe: perpkt's own CPU at 10 kHz (perpkt role)" \
	"$(calc "$(median <"$TMP/self")" %.1f) ns/RT" "-" "-"
bench_row "probe: the sampling interrupt's cost per sample (10 kHz)" \
	"$(calc "$(median <"$TMP/pp-fast.per-sample")" %.0f) ns IP only, $(calc "$(median <"$TMP/pp-fastg.per-sample")" %.0f) ns with callchains (median over passes)" "-" "-"
