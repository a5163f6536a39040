#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Does perpkt diff cry wolf? Records PAIRS pairs of the same thing, one
# right after the other, diffs each and counts the pairs with any mark
# (the latency, a percentile, a row, busy). With --plant N the second
# profile of each pair runs with N policy-routing rules that every route
# lookup walks (lookup local moved behind them) in a namespace of this
# script's own, the first without: a known cost that must be marked.
#
#   tests/bench/aa-pairs.sh [-n PAIRS] [--hogs N] [--plant N]
#                           [--perpkt PATH] [--keep DIR] [-- RECORD OPTIONS]
#
# Prints one line a pair and a summary line:
#   aa: 1 of 20 pairs marked (latency 0, rows 1), load 0.4 -> 0.9
# Exit 0; the caller judges the counts (docs/diff.md, "How far the marks
# can be trusted", has the figures measured with it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
PERPKT=${PERPKT:-$here/../../build/perpkt}
pairs=20 hogs=0 plant=0 keep=
opts=()
while [ $# -gt 0 ]; do
	case $1 in
	-n) pairs=$2; shift 2 ;;
	--hogs) hogs=$2; shift 2 ;;
	--plant) plant=$2; shift 2 ;;
	--perpkt) PERPKT=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	--) shift; opts=("$@"); break ;;
	*) echo "usage: $0 [-n PAIRS] [--hogs N] [--plant N] [--perpkt PATH] [--keep DIR] [-- RECORD OPTIONS]" >&2
	   exit 64 ;;
	esac
done
[ -x "$PERPKT" ] || { echo "aa: no perpkt at '$PERPKT'" >&2; exit 2; }
dir=${keep:-$(mktemp -d /tmp/perpkt-aa.XXXXXX)}
mkdir -p "$dir"
ns=perpkt-aa-$$
hog_pids=()
cleanup() {
	local p
	for p in "${hog_pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ "$plant" = 0 ] || ip netns del "$ns" 2>/dev/null
	[ -n "$keep" ] || rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for ((h = 0; h < hogs; h++)); do
	( while :; do :; done ) &
	hog_pids+=($!)
done

# in_ns: the command in the plant's namespace, or here
in_ns() {
	if [ "$plant" = 0 ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}
rules() {  # rules on|off: N rules every lookup walks, or none
	local i
	ip -n "$ns" rule flush 2>/dev/null
	# flush keeps pref 0's lookup local: move it too
	while ip -n "$ns" rule del pref 0 2>/dev/null; do :; done
	ip -n "$ns" rule add pref 32766 lookup main
	ip -n "$ns" rule add pref 32767 lookup default
	if [ "$1" = off ]; then
		ip -n "$ns" rule add pref 0 lookup local
		return
	fi
	{
		for ((i = 1; i <= plant; i++)); do
			echo "rule add pref $i from 198.18.$((i / 250)).$((i % 250 + 1)) lookup 100"
		done
		echo "rule add pref $((plant + 1)) lookup local"
	} | ip -n "$ns" -batch -
}
if [ "$plant" != 0 ]; then
	ip netns add "$ns" || exit 2
	ip -n "$ns" link set lo up
fi

load() { cut -d' ' -f1 /proc/loadavg; }
load0=$(load)
marked=0 lat=0 rows=0 failed=0
for ((i = 1; i <= pairs; i++)); do
	a=$dir/a$i.json b=$dir/b$i.json
	[ "$plant" = 0 ] || rules off
	in_ns "$PERPKT" record -q "${opts[@]}" -o "$a" 2>"$dir/err" || { failed=$((failed + 1)); continue; }
	[ "$plant" = 0 ] || rules on
	in_ns "$PERPKT" record -q "${opts[@]}" -o "$b" 2>"$dir/err" || { failed=$((failed + 1)); continue; }
	"$PERPKT" diff --format json --limit 0 "$a" "$b" >"$dir/d$i.json" 2>/dev/null
	"$PERPKT" diff "$a" "$b" >"$dir/d$i.txt" 2>/dev/null
	read -r l r names < <(jq -r '
		def m: .mark[1] // "";
		[(.latency | m), (.latency_percentiles[] | m)] as $lat |
		[(.functions[], .buckets[], .busy, .total) | select(m != "")] as $rows |
		"\([$lat[] | select(. != "")] | length) \($rows | length) \([$rows[] | .name + m] | join(","))"
		' "$dir/d$i.json")
	lat_line=$(grep -m1 '^latency' "$dir/d$i.txt")
	printf 'pair %2d: latency marks %s, rows marked %s %s | %s\n' "$i" "$l" "$r" "$names" "$lat_line"
	[ "$l" -gt 0 ] && lat=$((lat + 1))
	[ "$r" -gt 0 ] && rows=$((rows + 1))
	[ "$l" -gt 0 ] || [ "$r" -gt 0 ] && marked=$((marked + 1))
done
echo "aa: $marked of $pairs pairs marked (latency $lat, rows $rows; $failed failed), load $load0 -> $(load), hogs $hogs, plant $plant"
