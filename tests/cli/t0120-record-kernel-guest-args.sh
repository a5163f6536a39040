#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# record --kernel: the guest's `perpkt record` arguments (the initramfs's
# perpkt/args) are the command line less the options only the host acts
# on, however the user spelled them: abbreviated (--kern=IMG, --qemu-t
# 30), with = or as two words. A fake qemu-system-x86_64 keeps the
# initramfs it was given and fails: no guest boots.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the fake QEMU stands in for qemu-system-x86_64"
command -v python3 >/dev/null || skip "python3 reads the initramfs"
mkdir -p "$TMP/bin" "$TMP/boot" "$TMP/tmp"
img=$TMP/boot/vmlinuz-9.9.9-test
head -c 1024 /dev/zero >"$img"
printf 'HdrS' | dd of="$img" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
cat >"$TMP/bin/qemu-system-x86_64" <<'FAKE'
#!/bin/bash
if [ "${1:-}" = --version ]; then
	echo "QEMU emulator version 0.0.1 (perpkt t0120 fake)"
	exit 0
fi
prev=
for a in "$@"; do
	[ "$prev" = -initrd ] && cp "$a" "$FAKE_INITRD"
	prev=$a
done
echo "qemu-system-x86_64: fake: no guest here" >&2
exit 1
FAKE
chmod +x "$TMP/bin/qemu-system-x86_64"
export PATH="$TMP/bin:$PATH" TMPDIR=$TMP/tmp FAKE_INITRD=$TMP/initrd.cpio
export PERPKT_CACHE=$TMP/cache

# guest_args [FILE]: perpkt/args (or FILE) of the initramfs, one
# argument a line
guest_args() {
	python3 - "$FAKE_INITRD" "${1:-perpkt/args}" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
i = 0
while i + 110 <= len(d):
    f = [int(d[i + 6 + 8 * k:i + 14 + 8 * k], 16) for k in range(13)]
    size, namesize = f[6], f[11]
    name = d[i + 110:i + 110 + namesize - 1].decode()
    i = (i + 110 + namesize + 3) & ~3
    if name == sys.argv[2]:
        sys.stdout.write(d[i:i + size].decode())
    i = (i + size + 3) & ~3
PY
}

# run WANT CMD ARGS...: CMD --kernel fails at the fake QEMU; the guest's
# arguments, on one line, must be WANT
run() {
	local want=$1
	shift
	rm -f "$FAKE_INITRD"
	expect_exit 2 "$PERPKT" "$@"
	[ -s "$FAKE_INITRD" ] || fail "'$*': no initramfs reached QEMU: $(cat "$TMP/err")"
	got=$(guest_args | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || fail "'$*': the guest runs 'perpkt record $got', expected '$want'"
}

# the host's options abbreviated, with = and as two words
# -r 1 ends a record's: the guest keeps the host's one window, not
# record's default windows of its own
run "-d 0.2 -w 0.1 --net veth -r 1" \
	record --kern="$img" -d 0.2 --qemu-t 30 --acc=tcg -w 0.1 --out "$TMP/p.json" \
	--net veth --appe quiet
run "-d 0.2 --size 100 -r 1" \
	record --kernel "$img" --accel tcg -d0.2 -o"$TMP/p.json" --si=100 --qemu-arg=-m \
	--qemu-arg 512 --guest-c 2
# stat's own (--format, --confidence) are the host's too; the guest
# counts only (--window-marks)
run "-d 0.2 -r 2 --window-marks" \
	stat --ker "$img" --acc tcg --form json -d 0.2 -r 2 --confid 99
# --net nic: --busy is the responder guest's (the first to boot, the
# one the fake QEMU keeps), in its /init's environment, not an argument
run "-d 0.2 -r 1" record --kernel "$img" --accel tcg --net nic --busy 0-1 -d 0.2 -o "$TMP/p.json"
guest_args perpkt/env | grep -qx 'BUSY=0,1' ||
	fail "--net nic --busy 0-1: the responder guest's environment: $(guest_args perpkt/env | tr '\n' ' ')"
guest_args perpkt/env | grep -q '^BIND=' || fail "not the responder guest's initramfs"
# without --net nic it is the guest's record's own
run "--busy 0-1 -d 0.2 -r 1" record --kernel "$img" --accel tcg --busy 0-1 -d 0.2 -o "$TMP/p.json"
guest_args perpkt/env | grep -qx 'BUSY=' || fail "--busy without --net nic reached /init's environment"
[ ! -e "$TMP/p.json" ] || fail "a profile from a guest that never ran"
echo "ok: abbreviated host options stay on the host"
