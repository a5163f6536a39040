#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# BPF programs attached where the workload ran are a condition: an XDP
# program and a tc bpf filter on lo of a namespace this test makes show
# in net.bpf by name and tag, diff names the change on its first lines,
# and a JIT-ed program's address in /proc/kallsyms resolves to bucket
# bpf, not [unknown].
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root for a network namespace and BPF"
for c in ip tc clang jq python3; do
	command -v $c >/dev/null || skip "needs $c"
done
NS=t0132-$$
HELD=
cleanup() {
	[ -z "$HELD" ] || kill $HELD 2>/dev/null
	ip netns del $NS 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
clang -O2 -target bpf -I/usr/include/"$(uname -m)"-linux-gnu \
	-c "$SRCDIR/tests/cli/bpf/pass.c" -o "$TMP/pass.o" 2>"$TMP/cc" ||
	skip "cannot build a BPF object: $(tail -1 "$TMP/cc")"
ip netns add $NS || fail "cannot make namespace $NS"
ip -n $NS link set lo up || fail "lo up in $NS"

rec() {
	expect_exit 0 ip netns exec $NS "$PERPKT" record -q -n 2000 -w 0.1 -o "$TMP/$1.json"
}
cond() { jq -r --arg k "$2" '.conditions[$k]' "$TMP/$1.json"; }

rec a
[ "$(cond a net.bpf)" = none ] || fail "fresh namespace: net.bpf '$(cond a net.bpf)'"

ip -n $NS link set dev lo xdpgeneric obj "$TMP/pass.o" sec xdp 2>"$TMP/err" ||
	skip "cannot attach an XDP program here: $(tail -1 "$TMP/err")"
tc -n $NS qdisc add dev lo clsact || fail "clsact on lo"
tc -n $NS filter add dev lo ingress bpf da obj "$TMP/pass.o" sec tc 2>"$TMP/err" ||
	skip "cannot attach a tc bpf program here: $(tail -1 "$TMP/err")"
rec b
cond b net.bpf | grep -qxE "lo: xdpgeneric perpkt_xdp_pass tag [0-9a-f]{8}, tc ingress bpf perpkt_tc_pass tag [0-9a-f]{8}" ||
	fail "XDP and tc bpf on lo: net.bpf '$(cond b net.bpf)'"
expect_exit 0 "$PERPKT" diff --width 200 "$TMP/a.json" "$TMP/b.json"
sed -n 2,8p "$TMP/out" | grep -qE "^differs: BPF programs: none -> lo: xdpgeneric perpkt_xdp_pass" ||
	fail "diff does not open with the BPF programs: $(head -8 "$TMP/out")"

# tcx (Linux 6.6): a bpf link on lo's ingress, held by this test's python3
: >"$TMP/held"
ip netns exec $NS python3 "$SRCDIR/tests/cli/bpf/tcx-attach.py" perpkt_tcx lo >"$TMP/held" 2>&1 &
HELD=$!
wait_line "$TMP/held" '^(held|bpf)' $HELD
if grep -q '^held' "$TMP/held"; then
	rec c
	kill $HELD; wait $HELD 2>/dev/null; HELD=
	cond c net.bpf | grep -qE "tc ingress bpf perpkt_tc_pass tag [0-9a-f]{8}, tcx ingress perpkt_tcx tag [0-9a-f]{8}$" ||
		fail "tcx: net.bpf '$(cond c net.bpf)'"
else
	echo "tcx not checked: $(cat "$TMP/held")" >&2
fi

# the JIT-ed programs as the kernel names them: bucket bpf
ADDR=$(awk '$3 ~ /^bpf_prog_[0-9a-f]+_perpkt_tc_pass$/ { print $1; exit }' /proc/kallsyms)
[ -n "$ADDR" ] || skip "no bpf_prog_* symbols in /proc/kallsyms (net.core.bpf_jit_kallsyms=0 or no JIT)"
expect_exit 0 "$PERPKT" resolve --format json "0x$ADDR"
jq -e '.results[0].bucket == "bpf" and (.results[0].function | test("^bpf_prog_[0-9a-f]{16}_perpkt_tc_pass$"))' "$TMP/out" >/dev/null ||
	fail "a JIT-ed program does not resolve to bucket bpf: $(cat "$TMP/out")"
exit 0
