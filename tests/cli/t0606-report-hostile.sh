# SPDX-License-Identifier: GPL-2.0-only
# Profiles and side files other people send: bounded, linear, and never
# able to hang a report or a diff.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles

# a 20 MB condition wraps in linear time (it was quadratic: 70 s and more)
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["conditions"]["long"] = "word " * 4000000
json.dump(p, open(sys.argv[2], "w"))' "$P/sw-clock.json" "$TMP/long.json"
start=$(date +%s)
expect_exit 0 timeout 60 "$PERPKT" report -i "$TMP/long.json" --all-conditions
[ $(( $(date +%s) - start )) -le 20 ] || fail "a 20 MB condition took $(( $(date +%s) - start )) s"
awk 'length > 72 { exit 1 }' "$TMP/out" || fail "a wrapped line is wider than 72 columns"
[ "$(grep -o word "$TMP/out" | wc -l)" = 4000000 ] || fail "words lost in wrapping"

# diff --alias on a device or a binary file is an error, not a hang
expect_exit 2 timeout 10 "$PERPKT" diff --alias /dev/zero "$P/diff-a.json" "$P/diff-b.json"
grep -q "alias file '/dev/zero'.*NUL" "$TMP/err" || fail "no reason: $(cat "$TMP/err")"
head -c 5000 /dev/zero | tr '\0' 'x' >"$TMP/longline"
expect_exit 2 timeout 10 "$PERPKT" diff --alias "$TMP/longline" "$P/diff-a.json" "$P/diff-b.json"
grep -q "longer than" "$TMP/err" || fail "no reason: $(cat "$TMP/err")"
echo "ok"
