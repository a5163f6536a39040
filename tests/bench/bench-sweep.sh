#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# sweep --jobs over exact cells (one vCPU on QEMU's instruction clock):
# an 8-cell sweep (--size, eight values) with --jobs 1 and --jobs 2,
# interleaved, ROUNDS times each; the wall times, their ratio, and
# whether the profiles are the same to the instruction. From the same
# runs, a cell's time and the part of it that is not the window (boot,
# the way out), which docs/sweep.md's figures for N machines use.
#   tests/bench/bench-sweep.sh PERPKT [ROUNDS]
# Target (issue 52): --jobs 2 at most 0.6 of --jobs 1's time, on 2 CPUs.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
PERPKT=${1:?usage: bench-sweep.sh PERPKT [ROUNDS]}
rounds=${2:-${BENCH_PAIRS:-1}}
img=$(exact_image bench-sweep "$PERPKT") || exit $?
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-sweep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sizes=40,64,100,200,300,400,800,1400
d=${BENCH_SWEEP_D:-0.5}

sweep() { # JOBS DIR: the sweep's wall seconds
	local t0 t1
	t0=$(date +%s.%N)
	"$PERPKT" sweep -q -o "$2" -j "$1" -d "$d" -w 0.2 --size "$sizes" -- \
		--kernel "$img" --exact >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; return 1; }
	t1=$(date +%s.%N)
	calc "$t1 - $t0" %.1f
}
counts() { jq -c '[.workload.round_trips, ([.samples[] | [.cpu, .ip, .weight]] | sort)]' "$1"; }
: >"$tmp/ratio"
same=1
for r in $(seq 1 "$rounds"); do
	t1=$(sweep 1 "$tmp/one$r") || exit 2
	t2=$(sweep 2 "$tmp/two$r") || exit 2
	for f in "$tmp/one$r"/*.json; do
		[ "$(counts "$f")" = "$(counts "$tmp/two$r/$(basename "$f")")" ] || same=0
	done
	ratio=$(calc "$t2 / $t1" %.2f)
	echo "round $r: 8 exact cells of -d $d: --jobs 1 $t1 s, --jobs 2 $t2 s ($ratio)"
	echo "$ratio" >>"$tmp/ratio"
	# a cell's host time and what of it is not the window (QEMU's run
	# less the guest's window, from the profiles' conditions)
	jq -r '(.conditions | if type == "array" then from_entries else . end) as $c |
		"\($c["lab.wall_s"]) \(.workload.window_ns / 1e9)"' "$tmp/one$r"/*.json >>"$tmp/cells"
done
med=$(median <"$tmp/ratio")
read -r cell over <<<"$(awk '{ w += $1; o += $1 - $2; n++ } END { printf "%.1f %.1f\n", w / n, o / n }' "$tmp/cells")"
echo "per cell with --jobs 1: ${cell} s of QEMU, ${over} s of it not the window (boot, the way out)"
bench_row "sweep: 8 exact cells, --jobs 2 / --jobs 1 wall time" \
	"${med}x (median of $rounds; a cell ${cell} s, ${over} s of it not the window)" "<= 0.6x" \
	"$(verdict "$(awk -v m="$med" 'BEGIN { print (m <= 0.6) }')")"
bench_row "sweep: --jobs 2 profiles the same as --jobs 1's" \
	"$([ $same = 1 ] && echo "identical, 8 of 8 cells" || echo "DIFFERENT")" "identical" \
	"$(verdict $same)"
