#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The 2010 RPS thread's table (../shared/threads/2010-rps-cost-per-packet.txt)
# with exact instruction counts: three pairs of guests joined by an
# emulated virtio NIC (record --kernel --net nic --exact), the
# responder's NIC interrupts on one CPU, its RPS mask off, to the
# interrupt's CPU, to another CPU. Per packet on the responder (one
# request in, one reply out: a round trip it answered) the kernel's
# instructions in all and in the network path's buckets, and those of
# enqueue_to_backlog, the
# inter-processor interrupt (its send and its receive) and
# process_backlog; beside them NET_RX softirqs per packet on each CPU and
# the client's latency p50 (emulated time: see the note it prints).
#
#   tests/lab/rps-table.sh [options] [-- RECORD OPTIONS]
#
#   --kernel IMAGE   the kernel both guests boot (default Debian's
#                    6.1.0-57-cloud-amd64, tests/lab/fetch-kernel.sh)
#   --transport T    the ping-pong's transport (default udp)
#   --flows N        N ping-pong pairs at once (default 1; record's
#                    --flows: over the NIC pair it needs a --peer that
#                    takes flows, and is refused before booting until then)
#   --busy CPUS      the responder guest's CPUs kept busy in user space
#                    while serve runs, as the thread kept its target's
#                    (default none; e.g. 0-1, every vCPU of 2)
#   -d SECS, -w SECS each pair's window and warm-up (default 1, 0.3)
#   -r N             N pairs per mask, merged (default 1)
#   --irq-cpu N      the responder's NIC interrupts (default 0)
#   --other-cpu N    the CPU of "RPS to another CPU" (default 1)
#   --out DIR        profiles, reports and the log (default
#                    build/rps-table)
#
# Prints a markdown table on stdout, the time each pair and the whole run
# took and the host's load; exits 2 when a pair cannot be recorded.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
PERPKT=${PERPKT:-$src/build/perpkt}
die() { echo "rps-table: $*" >&2; exit 2; }

kernel= transport=udp dur=1 warm=0.3 reps=1 irq=0 other=1 out=$src/build/rps-table
nflows=1 busy=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--transport) transport=$2; shift 2 ;;
	--flows) nflows=$2; shift 2 ;;
	--busy) busy=$2; shift 2 ;;
	-d) dur=$2; shift 2 ;;
	-w) warm=$2; shift 2 ;;
	-r) reps=$2; shift 2 ;;
	--irq-cpu) irq=$2; shift 2 ;;
	--other-cpu) other=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) die "unknown option '$1' (--help lists them)" ;;
	esac
done
case $nflows in ''|*[!0-9]*|0) die "invalid --flows '$nflows': give a number of flows, 1 or more" ;; esac
load_opts=()
[ "$nflows" = 1 ] || load_opts+=(--flows "$nflows")
[ -z "$busy" ] || load_opts+=(--busy "$busy")
[ "$irq" != "$other" ] || die "--irq-cpu and --other-cpu are both $irq: the third pair needs another CPU"
command -v jq >/dev/null || die "needs jq"
[ -x "$PERPKT" ] || die "no perpkt at '$PERPKT' (make build, or set PERPKT)"
if [ -z "$kernel" ]; then
	rel=6.1.0-57-cloud-amd64
	root=$("$src/tests/lab/fetch-kernel.sh" "$rel") || die "cannot fetch kernel $rel"
	kernel=$root/boot/vmlinuz-$rel
fi
[ -r "$kernel" ] || die "cannot read kernel image '$kernel'"
mkdir -p "$out"
log=$out/log
: >"$log"

# The functions of each column, summed per packet; a name the kernel
# lacks adds nothing. The IPI's send is RPS's kick down to the x86 APIC
# write's callers (the write itself, native_apic_mem_write, also acks
# interrupts and arms the timer: left out); its receive is the
# call-function-single vector down to RPS's callback.
ipi_send='net_rps_send_ipi smp_call_function_single_async generic_exec_single __smp_call_single_queue send_call_function_single_ipi native_send_call_func_single_ipi arch_send_call_function_single_ipi default_send_IPI_single default_send_IPI_single_phys flat_send_IPI_mask _flat_send_IPI_mask __default_send_IPI_dest_field x2apic_send_IPI __x2apic_send_IPI_dest'
ipi_recv='asm_sysvec_call_function_single sysvec_call_function_single __sysvec_call_function_single generic_smp_call_function_single_interrupt flush_smp_call_function_queue __flush_smp_call_function_queue rps_trigger_softirq'

# sum FILE NAMES: instructions per packet of those functions
sum() {
	jq -r --arg names "$2" '($names | split(" ")) as $n |
		[.functions[] | select(.name as $f | $n | index($f)) | .per_rt.instructions] | add // 0' "$1"
}
# buckets FILE NAMES: instructions per packet of those buckets
buckets() {
	jq -r --arg names "$2" '($names | split(" ")) as $n |
		[.buckets[] | select(.name as $b | $n | index($b)) | .per_rt.instructions] | add // 0' "$1"
}
# the network path's buckets: steadier than the total, which carries the
# guest's clock (timer interrupts, clocksource reads) and its locks
net_buckets='driver net-core ip udp tcp icmp socket'
# net_rx PROFILE CPU: the responder's NET_RX softirqs per packet there
net_rx() {
	jq -r --argjson c "$2" '([.remote.counters.irqs[] | select(.kind == "softirq" and .name == "NET_RX" and .cpu == $c) | .count] | add // 0) / .remote.workload.round_trips' "$1"
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
rows=()
for mask in 0 $((1 << irq)) $((1 << other)); do
	case $mask in
	0) what="0 (off)" ;;
	$((1 << irq))) what="$mask (CPU $irq, the interrupt's)" ;;
	*) what="$mask (CPU $other, another)" ;;
	esac
	mask_hex=$(printf %x "$mask")
	p=$out/rps$mask_hex.json
	echo "rps-table: RPS mask $mask_hex: recording" >&2
	s0=$(date +%s)
	"$PERPKT" record --kernel "$kernel" --net nic --exact --transport "$transport" \
		-d "$dur" -w "$warm" -r "$reps" --irq-cpu "$irq" --rps-cpus "$mask_hex" \
		${load_opts[@]+"${load_opts[@]}"} "$@" -o "$p" >>"$log" 2>&1 ||
		die "the pair with RPS mask $mask_hex failed: $(grep '^perpkt: ' "$log" | tail -2 | tr '\n' ' ')(see '$log')"
	took=$(( $(date +%s) - s0 ))
	# every task's rows: RPS moves the backlog into softirqs on
	# another CPU, in whichever task they interrupt
	"$PERPKT" report -i "$p" --side remote --format json --all-tasks >"$out/rps$mask_hex-remote.json" 2>>"$log" ||
		die "report --side remote of '$p' failed: see '$log'"
	"$PERPKT" report -i "$p" --format json --all-tasks >"$out/rps$mask_hex-local.json" 2>>"$log" ||
		die "report of '$p' failed: see '$log'"
	r=$out/rps$mask_hex-remote.json
	rows+=("$(printf '| %s | %.0f | %.0f | %.1f | %.1f | %.1f | %.1f | %.2f / %.2f | %s | %.0f us | %s s |' \
		"$what" "$(jq -r '.total.per_rt.instructions' "$r")" "$(buckets "$r" "$net_buckets")" \
		"$(sum "$r" enqueue_to_backlog)" "$(sum "$r" "$ipi_send")" \
		"$(sum "$r" "$ipi_recv")" "$(sum "$r" process_backlog)" \
		"$(net_rx "$p" "$irq")" "$(net_rx "$p" "$other")" \
		"$(jq -r .remote.workload.round_trips "$p")" \
		"$(jq -r '.latency_ns.p50 / 1000' "$out/rps$mask_hex-local.json")" "$took")")
done
t=$(( $(date +%s) - t0 ))
load1=$(cut -d' ' -f1-3 /proc/loadavg)

echo "| responder RPS mask | kernel insns/packet | network path | enqueue_to_backlog | IPI send | IPI receive | process_backlog | NET_RX/packet CPU $irq / CPU $other | packets | client p50 | took |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "$(basename "$kernel"), $transport, $nflows flow(s), busy responder CPUs: ${busy:-none}, $reps pair(s) of ${dur} s windows per mask, NIC interrupts on CPU $irq; $t s in all; host load $load0 before, $load1 after."
echo "Instructions per packet are exact (QEMU plugin, the responder guest's every vCPU in serve's window); the p50 is emulated time (TCG with the plugin, a loaded host): it moves by tens of percent between runs."
echo "Network path: the buckets $net_buckets (the total also carries the guest's clock: timer interrupts, clocksource reads, their locks)."
echo "IPI send: $ipi_send."
echo "IPI receive: $ipi_recv."
