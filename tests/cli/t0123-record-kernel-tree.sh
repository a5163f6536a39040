#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# record --kernel DIR takes a built kernel tree, and refuses one that is
# not a tree, not configured, not built, without its vmlinux or its
# image, or whose vmlinux and image come from different builds, naming
# what is missing and the make target that makes it, before anything
# boots. A tree that passes goes on to the next check (here a missing
# --guest-perpkt stops it). No QEMU runs; t0809 (make check-lab) boots
# a real tree. Synthetic files: an image is a boot-protocol header with
# its kernel_version string, a vmlinux the kernel banner.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the checks are for an x86_64 guest"
t=$TMP/linux
mkdir -p "$t/arch/x86/boot" "$t/include/config"
# image VERSION: "HdrS" at 0x202, kernel_version (from 0x200) at 0x20e
image() {
	head -c 2048 /dev/zero >"$t/arch/x86/boot/bzImage"
	printf 'HdrS' | dd of="$t/arch/x86/boot/bzImage" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
	printf '\000\001' | dd of="$t/arch/x86/boot/bzImage" bs=1 seek=$((0x20e)) conv=notrunc 2>/dev/null
	printf '%s\000' "$1" | dd of="$t/arch/x86/boot/bzImage" bs=1 seek=$((0x300)) conv=notrunc 2>/dev/null
}
# a vmlinux since 6.1 has a placeholder banner ("# SMP") before the real one
vmlinux() { printf 'padding\000Linux version 6.1.99 (dev@box) (gcc) # SMP \n\000Linux version %s\n\000more' "$1" >"$t/vmlinux"; }
refused() { # refused WHAT REGEX: exit 2, the message, nothing written
	expect_exit 2 "$PERPKT" record --kernel "$t" -d 0.3 -o "$TMP/p.json"
	grep -qE -- "$2" "$TMP/err" || fail "$1: $(cat "$TMP/err")"
	! grep -q "^usage:" "$TMP/err" || fail "$1: a usage error for a tree's state"
	[ ! -e "$TMP/p.json" ] || fail "$1: a profile was written"
}

expect_exit 2 "$PERPKT" record --kernel "$TMP" -d 0.3
grep -q "is a folder but not a kernel tree (no .config, no Kconfig)" "$TMP/err" || fail "not a tree: $(cat "$TMP/err")"
touch "$t/Kconfig"
refused "not configured" "the tree is not configured \(no .config\): configure and build it"
echo "CONFIG_ARM=y" >"$t/.config"
refused "another architecture" "neither x86_64 \(CONFIG_X86_64\) nor arm64"
sed "s/^ *//" >"$t/.config" <<EOF
CONFIG_X86_64=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_PROC_FS=y
CONFIG_SYSFS=y
CONFIG_DEVTMPFS=y
CONFIG_TMPFS=y
CONFIG_PERF_EVENTS=y
CONFIG_KALLSYMS=y
CONFIG_NET=y
CONFIG_INET=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
EOF
refused "not built" "is configured but not built \(no vmlinux, no arch/x86/boot/bzImage\): make bzImage builds both"
image "6.1.99 (dev@box) #2 SMP PREEMPT_DYNAMIC Thu Dec 3 10:00:00 UTC 2026"
refused "no vmlinux" "has arch/x86/boot/bzImage but no vmlinux, which file:line and the build-id check need: make vmlinux"
vmlinux "6.1.99 (dev@box) (gcc (Debian 12.2.0-14) 12.2.0, GNU ld 2.40) #3 SMP PREEMPT_DYNAMIC Thu Dec 3 11:00:00 UTC 2026"
mv "$t/arch/x86/boot/bzImage" "$TMP/bz"
refused "no image" "has a vmlinux but no arch/x86/boot/bzImage to boot: make bzImage"
mv "$TMP/bz" "$t/arch/x86/boot/bzImage"
refused "no release" "has no include/config/kernel.release: make bzImage"
echo 6.1.99 >"$t/include/config/kernel.release"
refused "two builds" "its vmlinux is 6.1.99 #3 SMP PREEMPT_DYNAMIC Thu Dec 3 11:00:00 UTC 2026 but .*bzImage says 6.1.99 \(dev@box\) #2 .*: they are not from one build .*: make bzImage"
# the same build: the tree is taken, and the run goes on to its next check
vmlinux "6.1.99 (dev@box) (gcc (Debian 12.2.0-14) 12.2.0, GNU ld 2.40) #2 SMP PREEMPT_DYNAMIC Thu Dec 3 10:00:00 UTC 2026"
expect_exit 2 "$PERPKT" record --kernel "$t" --guest-perpkt "$TMP/none" -d 0.3 -o "$TMP/p.json"
! grep -qE "tree|make (bzImage|vmlinux)" "$TMP/err" || fail "a built tree refused: $(cat "$TMP/err")"
grep -q "$TMP/none" "$TMP/err" || fail "the built tree did not reach the next check: $(cat "$TMP/err")"
# a release naming the commit built (CONFIG_LOCALVERSION_AUTO) that is
# not the tree's HEAD is said; the tree's HEAD is what lab.commit names
if command -v git >/dev/null; then
	git -C "$t" init -q && git -C "$t" add Kconfig &&
		git -C "$t" -c user.name=t -c user.email=t@t commit -q -m one || fail "git commit"
	echo 6.1.99-gdeadbeef0123 >"$t/include/config/kernel.release"
	vmlinux "6.1.99-gdeadbeef0123 (dev@box) (gcc) #2 SMP PREEMPT_DYNAMIC Thu Dec 3 10:00:00 UTC 2026"
	image "6.1.99-gdeadbeef0123 (dev@box) #2 SMP PREEMPT_DYNAMIC Thu Dec 3 10:00:00 UTC 2026"
	expect_exit 2 "$PERPKT" record --kernel "$t" --guest-perpkt "$TMP/none" -d 0.3
	grep -q "was built at commit deadbeef0123 but the tree is at $(git -C "$t" rev-parse --short=12 HEAD)" "$TMP/err" ||
		fail "a build of another commit not said: $(cat "$TMP/err")"
fi
# --peer-kernel DIR is checked the same way
expect_exit 2 "$PERPKT" record --kernel "$t" --net nic --peer-kernel "$TMP" -d 0.3
grep -q "^perpkt: --peer-kernel '$TMP' is a folder but not a kernel tree" "$TMP/err" || fail "peer tree: $(cat "$TMP/err")"
echo ok
