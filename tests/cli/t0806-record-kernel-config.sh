#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# record --kernel checks the image's configuration before booting: from
# config-R beside vmlinuz-R, the .config of the tree a bzImage was built
# in, or --config FILE; every option the guest lacks is named in one
# error and nothing boots. --append/--modules/--config go with --kernel.
# No QEMU runs: every case stops before the boot.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the checks are for an x86_64 guest"
# a bzImage header: "HdrS" at 0x202 is all perpkt reads of it
mkimage() { head -c 1024 /dev/zero >"$1"; printf 'HdrS' | dd of="$1" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null; }
all="BLK_DEV_INITRD PROC_FS SYSFS DEVTMPFS TMPFS PERF_EVENTS KALLSYMS NET INET SERIAL_8250 SERIAL_8250_CONSOLE NET_NS"
config() { # config OPTION...: every needed option =y but those named
	local o
	echo "# Linux/x86 test configuration"
	for o in $all; do
		case " $* " in *" $o "*) echo "# CONFIG_$o is not set" ;; *) echo "CONFIG_$o=y" ;; esac
	done
	echo "CONFIG_VETH=m"
}

mkdir -p "$TMP/deb/boot"
mkimage "$TMP/deb/boot/vmlinuz-9.9.9-test"
config DEVTMPFS SERIAL_8250_CONSOLE >"$TMP/deb/boot/config-9.9.9-test"
expect_exit 2 "$PERPKT" record --kernel "$TMP/deb/boot/vmlinuz-9.9.9-test" -d 0.3 -o "$TMP/p.json"
grep -q "kernel configuration '$TMP/deb/boot/config-9.9.9-test' lacks what the guest needs: CONFIG_DEVTMPFS=y (/dev), CONFIG_SERIAL_8250_CONSOLE=y (the console)$" "$TMP/err" ||
	fail "config beside vmlinuz: $(cat "$TMP/err")"
! grep -q booting "$TMP/err" || fail "booted despite the configuration"
[ ! -e "$TMP/p.json" ] || fail "a profile was written"

# a built tree: arch/x86/boot/bzImage and the tree's .config; a module
# where built-in is needed is named as such
mkdir -p "$TMP/linux/arch/x86/boot"
mkimage "$TMP/linux/arch/x86/boot/bzImage"
config PERF_EVENTS | sed 's/^CONFIG_SERIAL_8250=y/CONFIG_SERIAL_8250=m/' >"$TMP/linux/.config"
expect_exit 2 "$PERPKT" record --kernel "$TMP/linux/arch/x86/boot/bzImage" -d 0.3 -o "$TMP/p.json"
grep -q "CONFIG_PERF_EVENTS=y (perf events), CONFIG_SERIAL_8250=y (the serial ports, it is m)" "$TMP/err" ||
	fail "tree .config: $(cat "$TMP/err")"

# --config FILE wins; --net veth needs namespaces and veth (m will do)
config NET_NS | grep -v VETH >"$TMP/given.config"
expect_exit 2 "$PERPKT" record --kernel "$TMP/deb/boot/vmlinuz-9.9.9-test" --config "$TMP/given.config" \
	--net veth -d 0.3 -o "$TMP/p.json"
grep -q "lacks what the guest needs: CONFIG_NET_NS=y (--net veth's namespaces), CONFIG_VETH=y or m (--net veth)$" "$TMP/err" ||
	fail "--config with --net veth: $(cat "$TMP/err")"
expect_exit 2 "$PERPKT" record --kernel "$TMP/deb/boot/vmlinuz-9.9.9-test" --config "$TMP/none" -d 0.3 -o "$TMP/p.json"
grep -q "cannot read kernel configuration '$TMP/none'" "$TMP/err" || fail "missing --config: $(cat "$TMP/err")"
echo "just text" >"$TMP/text"
expect_exit 2 "$PERPKT" record --kernel "$TMP/deb/boot/vmlinuz-9.9.9-test" --config "$TMP/text" -d 0.3 -o "$TMP/p.json"
grep -q "is not a kernel configuration (no CONFIG_ line)" "$TMP/err" || fail "not a config: $(cat "$TMP/err")"

# the options that go with --kernel
for o in "--append mitigations=off" "--modules $TMP" "--config $TMP/given.config"; do
	expect_exit 64 "$PERPKT" record $o -d 0.3 -o "$TMP/p.json"
	grep -q "go with --kernel" "$TMP/err" || fail "'$o' without --kernel: $(head -1 "$TMP/err")"
done
expect_exit 64 "$PERPKT" record --kernel "$TMP/deb/boot/vmlinuz-9.9.9-test" --append "$(printf 'a\nb')" -o "$TMP/p.json"
grep -q "has a newline" "$TMP/err" || fail "--append with a newline: $(head -1 "$TMP/err")"
echo ok
