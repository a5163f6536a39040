#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# record --kernel --exact: deterministic (one vCPU on QEMU's instruction
# clock, -icount, today's default) against the threaded exact mode (the
# default before it: two vCPUs, --guest-cpus 2, the guest's clock the
# host's) and against sampled TCG (record --kernel without --exact) on
# one cached Debian kernel, side by side, interleaved:
#   - round trips per second of host time inside the window: each mode
#     recorded at -d 0.5 and -d 1.5, (RT at 1.5 - RT at 0.5) / (QEMU's
#     wall at 1.5 - at 0.5), so boot and the way out cancel;
#   - the whole `record --kernel --exact -d 0.5` in host seconds, with
#     the kallsyms of an earlier boot kept (lab/kallsyms-cache.h);
#   - boot to /init in host seconds (condition lab.boot_s), per mode;
#   - `make lab`'s turnaround with its kernels cached (tests/lab/lab.sh);
#   - call paths (the default, issue 51) against calls only
#     (--no-exact-paths), deterministic both, the same rate;
#   - the cache model (--cache-model skylake, issue 51) against plain
#     exact mode, deterministic both: the same rate, and boot to /init.
#   tests/bench/bench-exact.sh PERPKT [ROUNDS]
#   BENCH_EXACT_MODES="deterministic cache" (a subset; deterministic
#   first) and BENCH_EXACT_LAB=0 (no make lab) shorten a run.
# Targets (issue 33): rate >= 0.5x the threaded mode's; whole run <= 20 s.
# Issue 51: call paths at >= 0.5x the rate of calls only.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
PERPKT=${1:?usage: bench-exact.sh PERPKT [ROUNDS]}
rounds=${2:-${BENCH_PAIRS:-2}}
src=$(cd "$HERE/../.." && pwd)
img=$(exact_image bench-exact "$PERPKT") || exit $?
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-exact.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# one RT WALL_S TOTAL_S: a run of MODE at DURATION
one() { # MODE DURATION
	local extra=(--exact) t0 t1
	[ "$1" = threaded ] && extra=(--exact --guest-cpus 2)
	[ "$1" = sampled ] && extra=()
	[ "$1" = nopaths ] && extra=(--exact --no-exact-paths)
	[ "$1" = cache ] && extra=(--exact --cache-model skylake)
	t0=$(date +%s.%N)
	"$PERPKT" record -q --kernel "$img" -d "$2" -w 0.2 "${extra[@]}" \
		-o "$tmp/p.json" 2>"$tmp/err" || { cat "$tmp/err" >&2; return 1; }
	t1=$(date +%s.%N)
	jq -r --arg t "$(calc "$t1 - $t0" %.2f)" \
		'(.conditions | if type == "array" then from_entries else . end) as $c |
		 "\(.workload.round_trips) \($c["lab.wall_s"]) \($t) \($c["lab.boot_s"])"' "$tmp/p.json"
}
# warm the kallsyms cache and the page cache first
one deterministic 0.2 >/dev/null || exit 2
: >"$tmp/whole"
modes=${BENCH_EXACT_MODES:-deterministic nopaths cache threaded sampled}
for m in deterministic nopaths cache threaded sampled; do : >"$tmp/rate.$m"; : >"$tmp/boot.$m"; done
for r in $(seq 1 "$rounds"); do
	for m in $modes; do
		read -r rt1 w1 t1 b1 <<<"$(one $m 0.5)" || exit 2
		read -r rt2 w2 t2 b2 <<<"$(one $m 1.5)" || exit 2
		rate=$(window_rate "$rt1" "$w1" "$rt2" "$w2")
		echo "round $r $m: -d 0.5 $rt1 RT in ${w1} s of QEMU (${t1} s in all, /init at ${b1} s), -d 1.5 $rt2 RT in ${w2} s: $rate RT per host second in the window"
		# a round whose two runs give no rate is said, not averaged in
		[ "$rate" = - ] || echo "$rate" >>"$tmp/rate.$m"
		printf '%s\n%s\n' "$b1" "$b2" >>"$tmp/boot.$m"
		[ $m = deterministic ] && echo "$t1" >>"$tmp/whole"
	done
done
det=$(median <"$tmp/rate.deterministic" 2>/dev/null) thr=$(median <"$tmp/rate.threaded" 2>/dev/null)
smp=$(median <"$tmp/rate.sampled" 2>/dev/null) whole=$(median <"$tmp/whole")
if [ -n "$det" ] && [ -n "$thr" ] && [ -n "$smp" ]; then
	ratio=$(calc "$det / $thr" %.2f)
	bench_row "exact: deterministic / threaded, RT per host second in the window" \
		"${ratio}x ($det vs $thr RT/s, medians of $(wc -l <"$tmp/rate.deterministic") and $(wc -l <"$tmp/rate.threaded") rounds)" ">= 0.5x" "$(verdict "$(calc "($ratio >= 0.5)" %d)")"
else
	bench_row "exact: deterministic / threaded, RT per host second in the window" \
		"-" ">= 0.5x" "skipped: no round gave a rate (the longer run counted no more, or the mode was not run; rounds above)"
fi
nop=$(median <"$tmp/rate.nopaths" 2>/dev/null)
if [ -n "$nop" ] && [ -n "$det" ]; then
	ratio=$(calc "$det / $nop" %.2f)
	bench_row "exact: call paths / calls only (--no-exact-paths), RT per host second in the window" \
		"${ratio}x ($det vs $nop RT/s, medians of $(wc -l <"$tmp/rate.deterministic") and $(wc -l <"$tmp/rate.nopaths") rounds, load $(cut -d' ' -f1 /proc/loadavg))" ">= 0.5x" "$(verdict "$(calc "($ratio >= 0.5)" %d)")"
else
	bench_row "exact: call paths / calls only (--no-exact-paths), RT per host second in the window" \
		"-" ">= 0.5x" "skipped: no round gave a rate"
fi
cac=$(median <"$tmp/rate.cache" 2>/dev/null)
if [ -n "$cac" ] && [ -n "$det" ]; then
	bench_row "exact: cache model (--cache-model skylake) / plain exact, RT per host second in the window" \
		"$(calc "$cac / $det" %.2f)x ($cac vs $det RT/s, medians of $(wc -l <"$tmp/rate.cache") and $(wc -l <"$tmp/rate.deterministic") rounds; boot to /init $(median <"$tmp/boot.cache") vs $(median <"$tmp/boot.deterministic") s; load $(cut -d' ' -f1 /proc/loadavg))" "-" "-"
else
	bench_row "exact: cache model (--cache-model skylake) / plain exact, RT per host second in the window" \
		"-" "-" "skipped: no round gave a rate"
fi
have_smp=${smp:+1}
det=${det:-1} smp=${smp:-1}
bench_row "exact: record --kernel --exact -d 0.5, whole, kallsyms kept" \
	"$whole s (median of $rounds)" "<= 20 s" "$(verdict "$(calc "($whole <= 20)" %d)")"
if [ -n "$have_smp" ]; then
	bench_row "exact: deterministic exact / sampled TCG, RT per host second" \
		"$(calc "$det / $smp" %.2f)x ($det vs $smp RT/s)" "-" "-"
fi
bench_row "lab: boot to /init, deterministic / threaded / sampled" \
	"$(median <"$tmp/boot.deterministic") / $(median <"$tmp/boot.threaded") / $(median <"$tmp/boot.sampled") s (medians)" "-" "-"

# make lab's turnaround, its kernels cached: two kernels, two exact
# boots each, then the diff and each kernel's file:line (tests/lab/lab.sh
# says how long each half took), against one whole exact record above
if [ "${BENCH_EXACT_LAB:-1}" = 0 ]; then
	bench_row "lab: make lab turnaround" "-" "-" "skipped: BENCH_EXACT_LAB=0"
elif LAB_OUT="$tmp/lab" PERPKT="$PERPKT" "$src/tests/lab/lab.sh" >"$tmp/lab.out" 2>"$tmp/lab.err"; then
	read -r rec cmp < <(sed -n 's/.* in \([0-9]*\) s, compared in \([0-9]*\) s;.*/\1 \2/p' "$tmp/lab.out")
	bench_row "lab: make lab turnaround, kernels cached (2 kernels x 2 exact boots, diff, DWARF lines)" \
		"$((rec + cmp)) s: recording $rec s, comparing $cmp s; $(calc "($rec + $cmp) / $whole" %.1f)x one whole exact record" "-" "-"
else
	tail -3 "$tmp/lab.err" >&2
	bench_row "lab: make lab turnaround" "-" "-" "skipped: tests/lab/lab.sh failed (above)"
fi
