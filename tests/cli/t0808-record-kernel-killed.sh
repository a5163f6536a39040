#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# A SIGKILLed record --kernel leaves nothing running: its QEMU dies with
# it (a parent-death signal), and the guest's folder, noted in the run
# directory before it was made, is removed by `perpkt restore`, which
# says so. The kernel is t0801's (tests/lab/fetch-kernel.sh, cached).
. "$(dirname "$0")/lib.sh"
need_x86_guest "the killed-guest test"
[ "$(id -u)" = 0 ] || skip "needs root: the run directory is /run/perpkt"
rel=${PERPKT_LAB_KERNEL:-6.1.0-57-cloud-amd64}
root=$("$SRCDIR/tests/lab/fetch-kernel.sh" "$rel" 2>"$TMP/fetch") ||
	{ cat "$TMP/fetch" >&2; skip "cannot fetch kernel $rel"; }
img=$root/boot/vmlinuz-$rel
cleanup() {
	[ -n "${REC:-}" ] && kill -KILL "$REC" 2>/dev/null
	[ -n "${QEMU:-}" ] && kill -KILL "$QEMU" 2>/dev/null
	[ -n "${DIR:-}" ] && rm -rf "$DIR"
	rm -rf "$TMP"
}
trap cleanup EXIT

"$PERPKT" record -q --kernel "$img" -d 300 -w 0.2 -o "$TMP/k.json" 2>"$TMP/rec.err" &
REC=$!
# until QEMU runs (its -initrd names the folder), then the folder's note
end=$((SECONDS + 240)) QEMU= DIR=
until [ -n "$QEMU" ]; do
	alive $REC || fail "record ended: $(cat "$TMP/rec.err")"
	[ $SECONDS -lt $end ] || fail "no QEMU within 240 s"
	sleep 0.05
	for p in $(cat /proc/$REC/task/$REC/children 2>/dev/null); do
		grep -q '^qemu-system' /proc/$p/comm 2>/dev/null && QEMU=$p
	done
done
DIR=$(tr '\0' '\n' </proc/$QEMU/cmdline | sed -n 's|/initrd.cpio$||p')
[ -d "$DIR" ] && [[ $DIR == */perpkt-lab.* ]] || fail "QEMU's folder is '$DIR'"
grep -qxF "$DIR" /run/perpkt/lab-*.$REC-* 2>/dev/null ||
	fail "'$DIR' is not noted in /run/perpkt: $(ls /run/perpkt)"
kill -KILL $REC; wait $REC 2>/dev/null; killed=$REC REC=
end=$((SECONDS + 30))
while alive $QEMU && [ $SECONDS -lt $end ]; do sleep 0.05; done
! alive $QEMU || fail "QEMU $QEMU outlived the killed record"
QEMU_WAS=$QEMU QEMU=
[ -d "$DIR" ] || fail "the folder went without restore?"
expect_exit 0 "$PERPKT" restore
grep -q "removed '$DIR', the guest's files of perpkt pid [0-9]*, which was killed" "$TMP/err" ||
	fail "restore did not say it removed the folder: $(cat "$TMP/err")"
[ ! -e "$DIR" ] || fail "restore left '$DIR'"
DIR_WAS=$DIR DIR=
ls /run/perpkt | grep -q "^lab-.*\.$killed-" && fail "a note is left: $(ls /run/perpkt)"
echo "ok: QEMU $QEMU_WAS died with record; restore removed '$DIR_WAS'"
