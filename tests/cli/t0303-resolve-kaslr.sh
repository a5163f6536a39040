#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# KASLR: runtime addresses relate to the vmlinux through _text. A shifted
# copy (every address + 0x2a00000) resolves like the original, from a
# vmlinux given the runtime _text and from a shifted kallsyms file.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
K=$BUILDDIR/tests/fixtures/ktree
SHIFT=$((0x2a00000))
nm -n "$K/vmlinux" | awk '$2 ~ /[tT]/ { print "0x" $1 }' >"$TMP/addrs"
text=$(nm "$K/vmlinux" | awk '$3 == "_text" { print "0x" $1 }')
while read -r a; do printf '0x%x\n' $((a + SHIFT + 5)); done <"$TMP/addrs" >"$TMP/shifted"
while read -r a; do printf '0x%x\n' $((a + 5)); done <"$TMP/addrs" >"$TMP/plain"

strip_addr() { jq -c '.results[] | del(.addr)' "$1"; }
expect_exit 0 "$PERPKT" resolve --vmlinux "$K/vmlinux" --format json <"$TMP/plain"
strip_addr "$TMP/out" >"$TMP/want"
expect_exit 0 "$PERPKT" resolve --vmlinux "$K/vmlinux" --format json \
	--text-addr "$(printf '0x%x' $((text + SHIFT)))" <"$TMP/shifted"
strip_addr "$TMP/out" >"$TMP/got"
diff -u "$TMP/want" "$TMP/got" || fail "shifted vmlinux lookups differ"
grep -q '"file":"net/ipv4/udp.c"' "$TMP/got" || fail "no file:line after the shift"
jq -e '.results[0].addr != null' "$TMP/out" >/dev/null

# The shifted addresses without --text-addr are in no symbol: exit 1.
expect_exit 1 "$PERPKT" resolve --vmlinux "$K/vmlinux" "$(head -1 "$TMP/shifted")"
grep -q "in no symbol" "$TMP/out" || fail "unshifted lookup of a shifted address"

# kallsyms: a captured file (padding, duplicates, a module) and a copy
# shifted by the same amount give the same names.
# Undefined weak symbols stay at 0, as the kernel lists them.
while read -r a t rest; do
	[ $((16#$a)) = 0 ] && { echo "$a $t $rest"; continue; }
	printf '%016x %s %s\n' $((16#$a + SHIFT)) "$t" "$rest"
done <"$FIXTURES/kallsyms-small.txt" >"$TMP/kallsyms-shifted"
awk '$2 ~ /[tTwW]/ && $1 !~ /^0+$/ { print "0x" $1 }' "$FIXTURES/kallsyms-small.txt" >"$TMP/k"
while read -r a; do printf '0x%x\n' $((a + SHIFT + 1)); done <"$TMP/k" >"$TMP/ks"
while read -r a; do printf '0x%x\n' $((a + 1)); done <"$TMP/k" >"$TMP/kp"
"$PERPKT" resolve --kallsyms "$FIXTURES/kallsyms-small.txt" --format json <"$TMP/kp" >"$TMP/a" || true
"$PERPKT" resolve --kallsyms "$TMP/kallsyms-shifted" --format json <"$TMP/ks" >"$TMP/b" || true
strip_addr "$TMP/a" >"$TMP/want"
strip_addr "$TMP/b" >"$TMP/got"
[ -s "$TMP/want" ] || fail "no kallsyms results"
diff -u "$TMP/want" "$TMP/got" || fail "shifted kallsyms lookups differ"
jq -e '[.results[] | select(.module != null)] | length > 0' "$TMP/b" >/dev/null ||
	fail "no module symbol in the shifted kallsyms results"
echo ok
