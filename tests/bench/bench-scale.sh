#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scale: a long record on both CPUs at 10 kHz with callchains. Peak RSS
# of record, the profile's size, lost samples, the time of a text report
# on it, and how RSS and report time grow from a short record to the long
# one: perpkt aggregates while it records, so both should follow the
# distinct addresses and stacks, not the samples. Part of `make bench`;
# alone:
#
#   tests/bench/bench-scale.sh [PERPKT] [LONG_SECS] [SHORT_SECS]
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
PERPKT=${1:-${PERPKT:-build/perpkt}}
LONG=${2:-${BENCH_SCALE_SECS:-60}}
SHORT=${3:-${BENCH_SCALE_SHORT:-10}}
REPORTS=${BENCH_REPORTS:-5}
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

bench_row "scale: peak RSS, ${LONG} s -a -g at 10 kHz" "$(mib "$rss_l") MiB" "<= 64 MiB" \
	"$(verdict "$(calc "$rss_l / 1024 <= 64" %d)")"
bench_row "scale: profile size, lost" \
	"$(calc "$b_l / 1e6" %.1f) MB for $n_l samples, $lost_l lost ($thr_l throttle records)" "0 lost" \
	"$(verdict "$(calc "$lost_l == 0" %d)")"
bench_row "scale: report time on it" "$(calc "$rep_l" %.3f) s" "<= 0.3 s" \
	"$(verdict "$(calc "$rep_l <= 0.3" %d)")"
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
