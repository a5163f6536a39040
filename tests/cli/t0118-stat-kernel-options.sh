#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# stat takes record's kernel options (one parser for both): each bad
# combination is refused before anything boots, with record's words, and
# stat --kernel goes down record's lab path (here to its check of the
# image's configuration, which stops it before QEMU), leaving nothing
# behind. No guest boots.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the configuration check is for an x86_64 guest"
img=$TMP/boot/vmlinuz-9.9.9-test
mkdir -p "$TMP/boot" "$TMP/tmp"

refused() { # refused MESSAGE ARGS...: stat exits 64 saying MESSAGE
	local msg=$1
	shift
	expect_exit 64 "$PERPKT" stat "$@"
	grep -qF -- "$msg" "$TMP/err" || fail "stat $*: $(cat "$TMP/err")"
}
refused "go with --kernel" --vmlinux vmlinux -d 0.2
refused "go with --kernel" --guest-cpus 2 -d 0.2
refused "--exact counts with a QEMU plugin: it goes with --kernel IMAGE" --exact
refused "--exact counts every instruction: -e, -c, -F and -g are for sampling" \
	--kernel "$img" --exact -e cycles
# the guest's CPUs: 2 without --guest-cpus, checked always
refused "--irq-cpu 7: the guest has CPUs 0 to 1 (2 without --guest-cpus)" \
	--kernel "$img" --irq-cpu 7
refused "--irq-cpu 3: the guest has CPUs 0 to 2 (--guest-cpus 3)" \
	--kernel "$img" --guest-cpus 3 --irq-cpu 3
refused "invalid RPS mask '10': it names CPU 4, but the guest (--guest-cpus 4) has CPUs 0-3" \
	--kernel "$img" --guest-cpus 4 --rps-cpus 10
refused "--peer-kernel boots the responder guest of --net nic: give --net nic" \
	--kernel "$img" --peer-kernel "$img"
refused "--peer and --kernel both given" --kernel "$img" --peer 127.0.0.1
refused "invalid --guest-cpus '9'" --kernel "$img" --guest-cpus 9
refused "'--output' is for perpkt record: stat only counts" --kernel "$img" -o x.json
refused "goes with --kernel IMAGE" --net nic -d 0.2
refused "unrecognized option '--window-marks'" --window-marks
# record says the same (the same code)
expect_exit 64 "$PERPKT" record --kernel "$img" --irq-cpu 7 -o "$TMP/x.json"
grep -qF -- "--irq-cpu 7: the guest has CPUs 0 to 1 (2 without --guest-cpus)" "$TMP/err" ||
	fail "record --irq-cpu 7: $(cat "$TMP/err")"

# a well-formed stat --kernel reaches the lab: the image's configuration
# lacks what the guest needs, said before booting; no files left
head -c 1024 /dev/zero >"$img"
printf 'HdrS' | dd of="$img" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
echo "# CONFIG_PERF_EVENTS is not set" >"$TMP/boot/config-9.9.9-test"
TMPDIR=$TMP/tmp expect_exit 2 "$PERPKT" stat --kernel "$img" --net nic --exact -d 0.3
grep -q "kernel configuration '$TMP/boot/config-9.9.9-test' lacks what the guest needs: .*CONFIG_PERF_EVENTS=y" "$TMP/err" ||
	fail "stat --kernel: $(cat "$TMP/err")"
! grep -q booting "$TMP/err" || fail "booted despite the configuration"
[ -z "$(ls -A "$TMP/tmp")" ] || fail "left behind: $(ls -A "$TMP/tmp")"
[ ! -s "$TMP/out" ] || fail "a report without a run: $(head -3 "$TMP/out")"
echo ok
