#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Inputs that are not what they claim are refused at once with a reason,
# not read until memory runs out (--kallsyms /dev/zero used to stop at
# 1.5 GB), and a vmlinux of another architecture is refused.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
V=$BUILDDIR/tests/fixtures/ktree/vmlinux
[ -f "$V" ] || fail "fixture $V not built"

# Under a 256 MiB address-space limit: an unbounded read would fail with
# "out of memory", not with the reason checked here.
# ASan reserves terabytes of shadow address space, so a sanitizer build
# runs without the limit (its allocator still fails a runaway read).
limit=262144
ldd "$PERPKT" 2>/dev/null | grep -q libasan && limit=unlimited
check() {
	local want=$1; shift
	( ulimit -v $limit; "$PERPKT" resolve "$@" 0xffffffff81000000 ) \
		>"$TMP/out" 2>"$TMP/err"
	[ $? = 2 ] || fail "'$*' did not exit 2"
	grep -qF -- "$want" "$TMP/err" || { cat "$TMP/err" >&2; fail "'$*': no '$want'"; }
}
check "kallsyms file '/dev/zero' is not text (a NUL byte at offset 0)" --kallsyms /dev/zero
check "bucket rules '/dev/zero' is not text" --vmlinux "$V" --buckets /dev/zero
head -c 300000 /dev/zero | tr '\0' a >"$TMP/long"
check "line 1 of kallsyms file '$TMP/long' is over 1024 bytes" --kallsyms "$TMP/long"

# The fixture relabelled as AArch64 (e_machine, 2 bytes at offset 18).
cp "$V" "$TMP/vmlinux-arm64"
printf '\xb7\x00' | dd of="$TMP/vmlinux-arm64" bs=1 seek=18 conv=notrunc status=none
[ "$(uname -m)" = x86_64 ] || skip "the relabelled fixture is wrong only on x86_64"
check "is built for AArch64 (ELF machine 183) but the kernel is x86_64" --vmlinux "$TMP/vmlinux-arm64"
expect_exit 0 "$PERPKT" resolve --vmlinux "$TMP/vmlinux-arm64" --force 0xffffffff81000000
grep -q "accepted (--force)" "$TMP/err" || fail "no warning with --force"
echo ok
