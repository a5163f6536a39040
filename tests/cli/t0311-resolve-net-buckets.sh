#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The buckets of the paths a loaded host adds to a round trip, on this
# kernel's own /proc/kallsyms: tc's classifiers and actions, packet
# taps (AF_PACKET), conntrack's hashing, the default qdisc staying
# net-core, and a JIT-ed eBPF program loaded here named as bpf, not
# [unknown].
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "not root: /proc/kallsyms shows no addresses"
K=/proc/kallsyms
awk '$3 == "tc_run" { found = 1; exit !($1 ~ /[1-9a-f]/) } END { exit !found }' $K ||
	skip "no tc_run with an address in $K (kernel without tc, or kptr_restrict)"

# function -> bucket, for those this kernel has as symbols (others are
# inlined or not built)
n=0
while read -r fn want; do
	a=$(awk -v f="$fn" '$3 == f && NF == 3 { print $1; exit }' $K)
	[ -n "$a" ] || continue
	expect_exit 0 "$PERPKT" resolve --kallsyms $K --format json "0x$a"
	got=$(jq -r '.results[0].bucket' "$TMP/out")
	[ "$got" = "$want" ] || fail "$fn (0x$a) in bucket '$got', want '$want'"
	n=$((n + 1))
done <<'EOT'
tc_run tc
tcf_classify tc
tcf_action_exec tc
u32_classify tc
tpacket_rcv tap
packet_rcv tap
dev_queue_xmit_nit tap
hash_conntrack_raw netfilter
__siphash_unaligned hash
pfifo_fast_enqueue net-core
sch_direct_xmit net-core
EOT
[ "$n" -ge 5 ] || fail "only $n of the functions are symbols in $K"

# A JIT-ed eBPF program: in kallsyms as bpf_prog_<tag>_<name> [bpf]
[ "$(cat /proc/sys/net/core/bpf_jit_kallsyms 2>/dev/null)" = 1 ] ||
	skip "net.core.bpf_jit_kallsyms is not 1: JIT-ed programs are not in $K"
name=perpkt_t0311_$$
name=${name:0:15}
python3 "$SRCDIR/tests/cli/bpf-prog-load.py" "$name" >"$TMP/bpf" 2>&1 &
BPF=$!
trap 'kill $BPF 2>/dev/null; rm -rf "$TMP"' EXIT
wait_line "$TMP/bpf" '^(loaded|bpf:)' $BPF
grep -q '^loaded' "$TMP/bpf" || skip "cannot load a BPF program: $(cat "$TMP/bpf")"
a=$(awk -v n="$name" '$3 ~ ("^bpf_prog_[0-9a-f]+_" n "$") && $4 == "[bpf]" { print $1 }' $K)
[ -n "$a" ] || fail "loaded program '$name' not in $K"
expect_exit 0 "$PERPKT" resolve --kallsyms $K --format json "$(printf '0x%x' $((0x$a + 1)))"
jq -e --arg n "$name" '.results[0] | .bucket == "bpf" and .module == "bpf" and
	(.function | test("^bpf_prog_[0-9a-f]{16}_" + $n + "$"))' "$TMP/out" >/dev/null ||
	fail "BPF program: $(jq -c '.results[0]' "$TMP/out")"
