#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Opt-in: perpkt resolve on a real vmlinux with DWARF against
# eu-addr2line -f -i, through tests/bench/bench-resolve.sh on 2,000
# random function addresses. Skipped unless PERPKT_TEST_VMLINUX names
# one (e.g. Debian's linux-image-*-dbg: usr/lib/debug/boot/vmlinux-*).
# Wants the issue's figures: the same innermost function and file:line
# on >= 99.5% of addresses, the same whole inline chain on >= 99%.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
[ -n "${PERPKT_TEST_VMLINUX:-}" ] || skip "set PERPKT_TEST_VMLINUX to a vmlinux with DWARF to run it"
[ -r "$PERPKT_TEST_VMLINUX" ] || fail "PERPKT_TEST_VMLINUX='$PERPKT_TEST_VMLINUX' is not readable"
for t in addr2line eu-addr2line python3 nm; do
	command -v $t >/dev/null || skip "needs $t"
done
bash "$SRCDIR/tests/bench/bench-resolve.sh" "$PERPKT" "$PERPKT_TEST_VMLINUX" - \
	"${PERPKT_TEST_N:-2000}" 1 >"$TMP/bench" || fail "bench-resolve.sh failed"
cat "$TMP/bench"
# "elfutils  same innermost ... N/M (P%), same whole inline chain N/M (P%)"
read -r inner chain < <(awk '$1 == "elfutils" {
	gsub(/[(%),]/, " "); n = split($0, f, " ")
	for (i = 1; i <= n; i++) if (f[i] ~ /\//) v[++k] = f[i + 1]
	print v[1], v[2] }' "$TMP/bench")
[ -n "$inner" ] || fail "no agreement line from bench-resolve.sh"
awk -v a="$inner" -v b="$chain" 'BEGIN { exit !(a >= 99.5 && b >= 99) }' ||
	fail "agreement with eu-addr2line below target: innermost $inner% (>= 99.5), chain $chain% (>= 99)"
echo "ok: innermost $inner%, chain $chain%"
