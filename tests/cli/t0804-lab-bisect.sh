#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# tests/lab/bisect.sh end to end: eight revisions of Debian's 6.1 image,
# 0-4 booted with mitigations=off and 5-7 without, recorded with exact
# instruction counts on a Haswell guest CPU, one boot each; the bisect
# must name revision 5 after recording the ends and narrowing (0, 7, 3,
# 5, 4). The condition is the total: on one vCPU the guest runs on
# QEMU's instruction clock, so a revision booted like the good end
# executes the same instructions (0% apart) and the mitigations add
# about +2.6% (measured 2026-12-03); under the old threaded clock one
# kernel's total moved by up to 5% from boot to boot (docs/guide.md,
# "Bisecting kernels"). On QEMU's default CPU (max) mitigations=off
# changes little, hence -cpu Haswell.
. "$(dirname "$0")/lib.sh"
need_x86_guest "the bisect"
# five guest boots of a sanitizer build would not fit the test's time;
# what the bisect runs of perpkt, t0801 and t0803 cover there
[ -z "${ASAN_OPTIONS:-}" ] || skip "five guest boots: run on the plain build (make check-lab)"
command -v jq >/dev/null || skip "needs jq"
[ -r "$BUILDDIR/perpkt-exact.so" ] ||
	skip "the QEMU plugin was not built: no qemu-plugin.h (make deps fetches it; then build again)"
rel=${PERPKT_LAB_KERNEL:-6.1.0-57-cloud-amd64}
root=$("$SRCDIR/tests/lab/fetch-kernel.sh" "$rel" 2>"$TMP/fetch") ||
	{ cat "$TMP/fetch" >&2; skip "cannot fetch kernel $rel"; }
img=$root/boot/vmlinuz-$rel
vml=$root/usr/lib/debug/boot/vmlinux-$rel
[ -r "$vml" ] || vml=-
for i in 0 1 2 3 4 5 6 7; do
	[ $i -lt 5 ] && a=mitigations=off || a=
	echo "r$i $img $vml $a"
done >"$TMP/revs"
PERPKT=$PERPKT EXPECT_TIMEOUT=1500 expect_exit 0 "$SRCDIR/tests/lab/bisect.sh" "$TMP/revs" \
	--fail-if 'total > +1%' --out "$TMP/b" -- \
	--exact --placement same -d 0.3 -w 0.2 --qemu-arg=-cpu --qemu-arg=Haswell
cat "$TMP/out"
# PERPKT_TEST_KEEP=DIR keeps the profiles, diffs and log for reading
[ -z "${PERPKT_TEST_KEEP:-}" ] || { mkdir -p "$PERPKT_TEST_KEEP" && cp -r "$TMP/b" "$PERPKT_TEST_KEEP/"; }
grep -qx "first bad: 5 r5" "$TMP/out" || fail "bisect named: $(grep 'first bad' "$TMP/out")"
# the ends, then 3, 5, 4: five boots, no more
[ "$(ls "$TMP/b"/rev-*.json | wc -l)" = 5 ] || fail "recorded $(ls "$TMP/b"/rev-*.json | wc -l) revisions, expected 5"
for i in 0 3 4 5 7; do
	[ -s "$TMP/b/rev-$i.json" ] || fail "revision $i not recorded"
	jq -r '.conditions["lab.deterministic"]' "$TMP/b/rev-$i.json" | grep -q '^yes: -icount' ||
		fail "revision $i not on the instruction clock: $(jq -r '.conditions["lab.deterministic"]' "$TMP/b/rev-$i.json")"
done
# booted alike, the good revisions executed the same instructions
for i in 3 4; do
	grep -q "^ *[0-9.]* *[0-9.]* *+0.0 *+0.0% .*total$" "$TMP/b/diff-0-$i.txt" ||
		fail "good revision $i is not identical to 0: $(grep 'total$' "$TMP/b/diff-0-$i.txt")"
done
# what each was booted with is in its profile, and the diff says so first
jq -r '.conditions["lab.append"]' "$TMP/b/rev-4.json" | grep -qx mitigations=off || fail "r4 without --append"
[ "$(jq -r '.conditions["lab.append"] // "none"' "$TMP/b/rev-5.json")" = none ] || fail "r5 has an --append"
sed -n 2,4p "$TMP/b/diff-0-5.txt" | tr -s '\n ' ' ' | grep -q "^differs: command line: .*mitigations=off -> " ||
	fail "diff does not open with the command line: $(sed -n 2,4p "$TMP/b/diff-0-5.txt")"
grep -q "fail-if 'total > +1%' holds" "$TMP/b/bisect.log" || fail "log lacks the verdicts"
# a rerun records nothing: the profiles are reused
PERPKT=$PERPKT expect_exit 0 "$SRCDIR/tests/lab/bisect.sh" "$TMP/revs" \
	--fail-if 'total > +1%' --out "$TMP/b" -- --exact
grep -qx "first bad: 5 r5" "$TMP/out" || fail "rerun: $(cat "$TMP/out")"
! grep -q "recording" "$TMP/out" || fail "the rerun recorded again"
# a bad end that does not fail is said, exit 1
expect_exit 1 "$SRCDIR/tests/lab/bisect.sh" "$TMP/revs" --bad 4 \
	--fail-if 'total > +1%' --out "$TMP/b" -- --exact
grep -q "the bad end 4 r4 does not fail" "$TMP/out" || fail "good bad end: $(cat "$TMP/out")"
echo ok
