# SPDX-License-Identifier: GPL-2.0-only
# The outputs pasted into README.md and docs/*.md (each after a
# `<!-- regen: COMMAND -->` marker) still have the shape of today's
# output of their command on the example profile it names
# (docs/examples, recorded by docs/regen.py --record from real runs):
# the same labels, sections and names in order, numbers aside. A
# report that changes its text fails here until `docs/regen.py --write`.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
PERPKT=$PERPKT python3 "$SRCDIR/docs/regen.py" --check 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "pasted outputs out of date"; }
grep -q "marked blocks checked" "$TMP/err" || fail "regen: $(cat "$TMP/err")"
# and the check can fail: a block whose words differ is caught
mkdir -p "$TMP/tree/docs" && cp -r "$SRCDIR/docs/examples" "$SRCDIR/docs/regen.py" "$TMP/tree/docs/"
printf '# x\n\n<!-- regen: perpkt report -i arm64.json -->\n\n    mode: software\n' >"$TMP/tree/docs/x.md"
: >"$TMP/tree/README.md"
! PERPKT=$PERPKT python3 "$TMP/tree/docs/regen.py" --check 2>"$TMP/err" ||
	fail "a stale block passed: $(cat "$TMP/err")"
grep -q "no longer has the shape" "$TMP/err" || fail "stale block: $(cat "$TMP/err")"
# a transcript pasted from example profiles without a marker would
# never be checked: refused, the way the guide's report of same.json
# and its diff --by bucket went stale before they were marked
printf '# x\n\n```\n$ perpkt diff same.json cross.json --by bucket\nperpkt diff: old\n```\n' >"$TMP/tree/docs/x.md"
! PERPKT=$PERPKT python3 "$TMP/tree/docs/regen.py" --check 2>"$TMP/err" ||
	fail "an unmarked transcript passed: $(cat "$TMP/err")"
grep -q "without a regen marker" "$TMP/err" || fail "unmarked transcript: $(cat "$TMP/err")"
# (a transcript of a profile that is not an example stays as pasted)
printf '# x\n\n```\n$ perpkt diff good.json same.json\nperpkt diff: old\n```\n' >"$TMP/tree/docs/x.md"
PERPKT=$PERPKT python3 "$TMP/tree/docs/regen.py" --check 2>"$TMP/err"
grep -q "without a regen marker" "$TMP/err" &&
	fail "a transcript of a profile not kept was refused: $(cat "$TMP/err")"
for cmd in "perpkt report -i same.json" "perpkt diff same.json cross.json --by bucket"; do
	grep -qF -- "<!-- regen: $cmd -->" "$SRCDIR/docs/guide.md" ||
		fail "the guide's '$cmd' is not a checked block"
done
echo "ok: $(grep -o '[0-9]* marked blocks' <<<"$(PERPKT=$PERPKT python3 "$SRCDIR/docs/regen.py" --check 2>&1)") in today's shape"
