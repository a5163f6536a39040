#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `make bench`: perpkt against what users would pick instead, on this
# machine, in one run, with one summary table at the end.
#
#   tests/bench/bench.sh [PERPKT]
#   PERPKT_BENCH_VMLINUX=/path/to/vmlinux tests/bench/bench.sh   # another vmlinux
#
# probe     the round trip with sampling switched on and off every 50 ms
#           in one ping-pong (record --between, --window-fifo, --gap-fifo):
#           perpkt's and perf record -a -e cpu-clock's cost, at 10 kHz per
#           CPU (IP only, kernel callchains) and at perpkt's default, and
#           the two by turns in one ping-pong against each other
# floor     perpkt's ping-pong against sockperf ping-pong --full-rtt
# flows     perpkt --flows 2 against two sockperf ping-pong pairs side
#           by side on the same CPUs: transactions/s and p50 as ratios
#           (root: loopback in a namespace of its own)
# resolve   perpkt resolve against addr2line and eu-addr2line on a real
#           vmlinux with DWARF: Debian's 6.1 -dbg, the one `make lab` and
#           the lab tests cache (tests/lab/fetch-kernel.sh; fetched once,
#           283 MB, where apt reaches Debian), or PERPKT_BENCH_VMLINUX;
#           5 rounds of 2,000 addresses; with PERPKT_BENCH_PROFILE (a
#           profile of that kernel) also perpkt report --vmlinux
# scale     a 60 s record -a -g at 10 kHz: RSS, size, losses, report time
# exact     record --kernel --exact, deterministic against threaded: round
#           trips per host second in the window, the whole run's time,
#           and `make lab`'s turnaround (about 4 minutes; skipped without
#           the QEMU plugin)
#
# Timings on a shared VM drift: every ratio is measured side by side,
# interleaved, in paired rounds (BENCH_PAIRS, default 5; the probe's
# window pairs: BENCH_PROBE_WINDOWS, default 200 a run), and a verdict
# reads the 95% interval of the paired difference: "same within noise"
# where it covers the target, MISSED only beyond the noise. Set
# BENCH_ONLY="probe scale" to run some of them. About 20 minutes on 2
# CPUs. Exit status: 0 when
# every target is met or the same within noise, 1 when one is missed
# beyond the noise, 2 when a benchmark failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PERPKT=${1:-${PERPKT:-build/perpkt}}
ONLY=${BENCH_ONLY:-probe floor flows resolve scale exact sweep}
[ -x "$PERPKT" ] || { echo "bench: no perpkt at '$PERPKT': run make build first" >&2; exit 2; }
PERPKT=$(cd "$(dirname "$PERPKT")" && pwd)/$(basename "$PERPKT")
export BENCH_ROWS
BENCH_ROWS=$(mktemp "${TMPDIR:-/tmp}/bench-rows.XXXXXX")
trap 'rm -f "$BENCH_ROWS"' EXIT
. "$HERE/lib.sh"

failed=0
part() {	# NAME SCRIPT ARGS...: run one benchmark, its output as it goes
	local name=$1 rc=0
	shift
	case " $ONLY " in *" $name "*) ;; *) return 0 ;; esac
	echo "== $name ($(date -u +%H:%M:%S))"
	"$@" || rc=$?
	if [ "$rc" = 77 ]; then
		bench_row "$name" "-" "-" "skipped: a tool it needs is missing (above)"
	elif [ "$rc" != 0 ]; then
		bench_row "$name" "-" "-" "FAILED (exit $rc, above)"
		failed=1
	fi
	echo
}

# bench-resolve.sh prints its own figures; these rows are read from them
resolve_rows() {	# PERPKT VMLINUX
	local out rc=0
	out=$("$HERE/bench-resolve.sh" "$1" "$2" "${PERPKT_BENCH_PROFILE:--}" \
		"${BENCH_RESOLVE_N:-2000}" "${BENCH_RESOLVE_ROUNDS:-5}" 2>&1) || rc=$?
	echo "$out"
	[ "$rc" = 0 ] || return "$rc"
	echo "$out" | awk -v rows="$BENCH_ROWS" '
		function row(m, f, t, ok) {
			printf "%s\t%s\t%s\t%s\n", m, f, t, ok ? "met" : "MISSED" >>rows
		}
		# medians over the rounds; agreement over all their addresses
		/ rounds of / { n = $1 " x " $4 }
		/^perpkt resolve:/ { tp = $4 }
		/^addr2line -f -i:/ { tb = $5; x = $(NF - 1); sub(/x$/, "", x) }
		/^report --vmlinux:/ { tr = $4 }
		/^elfutils / {
			inner = $8; all = $14; gsub(/[(%),]/, "", inner); gsub(/[(%),]/, "", all)
		}
		END {
			if (x == "" || inner == "") {
				print "bench: bench-resolve.sh output not understood" >"/dev/stderr"
				exit 1
			}
			row("resolve: " n " addresses, perpkt vs addr2line -i",
			    sprintf("%.1fx faster (%.2f s vs %.2f s)", x, tp, tb), ">= 10x", x + 0 >= 10)
			row("resolve: same innermost frame as eu-addr2line",
			    inner "%", ">= 99.5%", inner + 0 >= 99.5)
			row("resolve: same inline chain as eu-addr2line",
			    all "%", ">= 99%", all + 0 >= 99)
			if (tr != "")
				row("report --vmlinux on PERPKT_BENCH_PROFILE",
				    sprintf("%.2f s", tr), "< 1 s", tr + 0 < 1)
		}'
}

start=$(date +%s)
# the load it ran at: a figure measured beside other work is noise
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
part probe "$HERE/bench-probe.sh" "$PERPKT"
part floor "$HERE/bench-workload.sh" "$PERPKT"
part flows "$HERE/bench-flows.sh" "$PERPKT"
# the vmlinux of the resolve row: given, or the lab's cached -dbg one
bench_vmlinux() {
	local rel=${BENCH_KERNEL:-6.1.0-57-cloud-amd64} root
	if [ -n "${PERPKT_BENCH_VMLINUX:-}" ]; then
		echo "$PERPKT_BENCH_VMLINUX"
		return
	fi
	root=$("$HERE/../lab/fetch-kernel.sh" "$rel" --dbg) || return 1
	echo "$root/usr/lib/debug/boot/vmlinux-$rel"
}
case " $ONLY " in *" resolve "*)
	if VMLINUX=$(bench_vmlinux) && [ -r "$VMLINUX" ]; then
		part resolve resolve_rows "$PERPKT" "$VMLINUX"
	else
		bench_row "resolve: vs addr2line, eu-addr2line" "-" "-" \
			"skipped: no vmlinux with DWARF: fetch-kernel.sh could not get Debian's -dbg package (above), and PERPKT_BENCH_VMLINUX is not set"
	fi
esac
part scale "$HERE/bench-scale.sh" "$PERPKT"
part exact "$HERE/bench-exact.sh" "$PERPKT"
part sweep "$HERE/bench-sweep.sh" "$PERPKT"

echo "== summary: $("$PERPKT" --version 2>/dev/null | head -1), $(uname -r), $(nproc) CPUs, $(( $(date +%s) - start )) s, load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
# a Markdown table: it reads in a terminal and pastes into a bug thread
awk -F'\t' '
	BEGIN { print "| measure | figure | target | verdict |"; print "| --- | --- | --- | --- |" }
	{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }' "$BENCH_ROWS"
if [ "$failed" = 1 ]; then exit 2; fi
if cut -f4 "$BENCH_ROWS" | grep -q '^MISSED'; then
	echo "bench: at least one target missed (MISSED above)"
	exit 1
fi
echo "bench: every target met (or the same within noise, or skipped as stated)"
