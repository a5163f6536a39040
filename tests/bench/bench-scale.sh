#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scale: a long record on both CPUs at 10 kHz with callchains. Peak RSS
# of record, the profile's size, lost samples, the time of a text report
# on it, and how RSS and report time grow from a short record to the long
# one: perpkt aggregates while it records, so both should follow the
# distinct addresses and stacks, not the samples. Beside it, in the same
# run, what a user would reach for instead: `perf record -a -g` at the
# same period and event over the same workload for the same window
# (perpkt's ping-pong, sampled by perpkt at 10 Hz only), its peak RSS,
# perf.data's size and lost samples, and `perf report --stdio` on it.
# Part of `make bench`; alone:
#
#   tests/bench/bench-scale.sh [PERPKT] [LONG_SECS] [SHORT_SECS]
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
PERPKT=${1:-${PERPKT:-build/perpkt}}
LONG=${2:-${BENCH_SCALE_SECS:-60}}
SHORT=${3:-${BENCH_SCALE_SHORT:-10}}
REPORTS=${BENCH_REPORTS:-5}
PERF_REPORTS=${BENCH_PERF_REPORTS:-3}
command -v jq >/dev/null || { echo "bench-scale: needs jq" >&2; exit 77; }
command -v python3 >/dev/null || { echo "bench-scale: needs python3" >&2; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-scale.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# record SECS -> "WALL MAXRSS_KIB" in $TMP/SECS.rec; exit 1 (samples lost)
# still leaves a profile, and the lost count is a row of its own
record() {
	local rc=0
	measured "$PERPKT" record -q -a -g -c 100000 -d "$1" -w 1 \
		-o "$TMP/$1.json" >"$TMP/$1.rec" 2>>"$TMP/log" || rc=$?
	if [ "$rc" -gt 1 ] || [ ! -s "$TMP/$1.json" ]; then
		cat "$TMP/log" >&2
		echo "bench-scale: record -d $1 failed ($rc)" >&2
		exit 2
	fi
}
# report SECS -> median wall time of $REPORTS text reports
report() {
	local i
	for i in $(seq "$REPORTS"); do
		measured "$PERPKT" report -i "$TMP/$1.json" 2>>"$TMP/log" | cut -d' ' -f1
	done | median
}
facts() {	# SECS -> "samples lost throttled addresses stacks bytes"
	jq -r '[([.counters.events[].samples] | add),
		 ([.counters.events[] | .lost] | add),
		 ([.counters.events[] | .throttled] | add),
		 (.samples | length), (.stacks | length)] | @tsv' "$TMP/$1.json" |
		tr '\t' ' ' | tr -d '\n'
	echo " $(stat -c %s "$TMP/$1.json")"
}

# perf record over the same workload; "WALL MAXRSS_KIB" in $TMP/perf.rec
# (the largest process of the tree: perf, not the 10 Hz perpkt inside)
perf_record() {
	local rc=0
	measured perf record -q -a -g -e cpu-clock -c 100000 -o "$TMP/perf.data" -- \
		"$PERPKT" record -q -c 100000000 -d "$LONG" -w 1 -o "$TMP/inner.json" \
		>"$TMP/perf.rec" 2>>"$TMP/log" || rc=$?
	if [ "$rc" -gt 1 ] || [ ! -s "$TMP/perf.data" ]; then
		cat "$TMP/log" >&2
		echo "bench-scale: perf record failed ($rc)" >&2
		exit 2
	fi
}
perf_report() {	# -> "median wall s, peak RSS KiB" of $PERF_REPORTS reports
	local i
	for i in $(seq "$PERF_REPORTS"); do
		measured perf report --stdio -i "$TMP/perf.data" 2>>"$TMP/log"
	done >"$TMP/perf.reports"
	echo "$(cut -d' ' -f1 "$TMP/perf.reports" | median) $(cut -d' ' -f2 "$TMP/perf.reports" | sort -n | tail -1)"
}

record "$SHORT"
record "$LONG"
read -r _ rss_s <"$TMP/$SHORT.rec"
read -r _ rss_l <"$TMP/$LONG.rec"
rep_s=$(report "$SHORT")
rep_l=$(report "$LONG")
read -r n_s lost_s thr_s a_s st_s b_s <<<"$(facts "$SHORT")"
read -r n_l lost_l thr_l a_l st_l b_l <<<"$(facts "$LONG")"
mib() { calc "$1 / 1024" %.1f; }

echo "scale: record -a -g -c 100000 (10 kHz per CPU, both CPUs), ${SHORT} s and ${LONG} s windows"
printf '%-28s %12s %12s %7s\n' "" "${SHORT} s" "${LONG} s" growth
row() { printf '%-28s %12s %12s %6sx\n' "$1" "$2" "$3" "$(calc "$5 / $4" %.2f)"; }
row "samples" "$n_s" "$n_l" "$n_s" "$n_l"
row "distinct addresses" "$a_s" "$a_l" "$a_s" "$a_l"
row "distinct stacks" "$st_s" "$st_l" "$st_s" "$st_l"
row "peak RSS of record (MiB)" "$(mib "$rss_s")" "$(mib "$rss_l")" "$rss_s" "$rss_l"
row "profile size (MB)" "$(calc "$b_s / 1e6" %.2f)" "$(calc "$b_l / 1e6" %.2f)" "$b_s" "$b_l"
row "report time (s, median)" "$(calc "$rep_s" %.3f)" "$(calc "$rep_l" %.3f)" "$rep_s" "$rep_l"
# lost: records the ring had no room for; throttled: PERF_RECORD_THROTTLE,
# the kernel holding back its sample interrupts (on an idle NO_HZ CPU
# mostly: idle time goes unsampled, and reports say so)
echo "lost: $lost_s and $lost_l; throttle records: $thr_s and $thr_l"

bench_row "scale: peak RSS, ${LONG} s -a -g at 10 kHz" "$(mib "$rss_l") MiB" "<= 32 MiB" \
	"$(verdict "$(calc "$rss_l / 1024 <= 32" %d)")"
bench_row "scale: profile size, lost" \
	"$(calc "$b_l / 1e6" %.1f) MB for $n_l samples, $lost_l lost ($thr_l throttle records)" "0 lost" \
	"$(verdict "$(calc "$lost_l == 0" %d)")"
bench_row "scale: report time on it" "$(calc "$rep_l" %.3f) s" "<= 0.15 s" \
	"$(verdict "$(calc "$rep_l <= 0.15" %d)")"
# "follows the stacks, not the samples": each grows by no more than the
# distinct stacks do (the larger of addresses and stacks), and clearly
# less than the samples
g_n=$(calc "$n_l / $n_s" %.2f)
g_k=$(calc "($st_l / $st_s > $a_l / $a_s ? $st_l / $st_s : $a_l / $a_s)" %.2f)
g_r=$(calc "$rss_l / $rss_s" %.2f)
g_t=$(calc "$rep_l / $rep_s" %.2f)
bench_row "scale: growth ${SHORT} s -> ${LONG} s: RSS, report" \
	"x$g_r, x$g_t (samples x$g_n, stacks x$(calc "$st_l / $st_s" %.2f))" \
	"<= stacks' growth" \
	"$(verdict "$(calc "$g_r <= $g_k * 1.05 && $g_t <= $g_k * 1.05" %d)")"

command -v perf >/dev/null || {
	bench_row "scale: beside perf record -a -g" "-" "-" "skipped: no perf (apt-get install linux-perf)"
	exit 0
}
perf_record
read -r _ prss <"$TMP/perf.rec"
pbytes=$(stat -c %s "$TMP/perf.data")
plost=$(perf report -i "$TMP/perf.data" --stats 2>/dev/null |
	awk '/LOST events:/ { n += $3 } END { print n + 0 }')
psamp=$(perf report -i "$TMP/perf.data" --stats 2>/dev/null |
	awk '/SAMPLE events:/ { print $3; exit }')
read -r prep prep_rss <<<"$(perf_report)"
read -r _ rep_rss <<<"$(measured "$PERPKT" report -i "$TMP/$LONG.json" 2>>"$TMP/log")"
echo "perf record -a -g -e cpu-clock -c 100000, same workload, ${LONG} s: $psamp samples, $plost lost,"
echo "  peak RSS $(mib "$prss") MiB, perf.data $(calc "$pbytes / 1e6" %.1f) MB; perf report --stdio" \
	"$(calc "$prep" %.2f) s, $(mib "$prep_rss") MiB"
bench_row "scale: record peak RSS, perpkt / perf record" \
	"$(calc "$rss_l / $prss" %.2f) ($(mib "$rss_l") vs $(mib "$prss") MiB)" "<= 1" \
	"$(verdict "$(calc "$rss_l <= $prss" %d)")"
bench_row "scale: output size, profile / perf.data" \
	"$(calc "$b_l / $pbytes" %.2f) ($(calc "$b_l / 1e6" %.1f) vs $(calc "$pbytes / 1e6" %.1f) MB)" "<= 1" \
	"$(verdict "$(calc "$b_l <= $pbytes" %d)")"
bench_row "scale: lost samples, perpkt vs perf" "$lost_l of $n_l vs $plost of $psamp" \
	"perpkt <= perf" "$(verdict "$(calc "$lost_l <= $plost" %d)")"
bench_row "scale: report, perf report --stdio / perpkt report" \
	"$(calc "$prep / $rep_l" %.1f)x faster ($(calc "$rep_l" %.3f) vs $(calc "$prep" %.2f) s)" ">= 5x" \
	"$(verdict "$(calc "($prep / $rep_l >= 5)" %d)")"
bench_row "scale: report peak RSS, perpkt / perf report" \
	"$(calc "$rep_rss / $prep_rss" %.2f) ($(mib "$rep_rss") vs $(mib "$prep_rss") MiB)" "<= 1" \
	"$(verdict "$(calc "$rep_rss <= $prep_rss" %d)")"
