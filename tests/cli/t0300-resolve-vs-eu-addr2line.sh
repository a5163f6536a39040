#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# perpkt resolve agrees with eu-addr2line -f -i on every byte of the text
# of the ktree fixture vmlinux, built by gcc with DWARF 5 and DWARF 4
# (clang's builds: t0307): same frames (inlined functions innermost
# first, then the function), each with the same function and file:line.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v eu-addr2line >/dev/null || skip "needs eu-addr2line (apt-get install elfutils)"
command -v jq >/dev/null || skip "needs jq"
check_one() {
V=$BUILDDIR/tests/fixtures/ktree/$1
[ -f "$V" ] || fail "fixture $V not built"

# Every address from _text to the end of the last function.
read -r lo hi < <(nm -n -S "$V" | awk '$3 ~ /^[tT]$/ && $2 != "" { last = $1 " " $2 }
	$4 == "_text" || $3 == "_text" { t = $1 } END { print t, last }')
start=$((16#$lo)); set -- $hi; end=$((16#$1 + 16#$2))
for ((a = start; a < end; a++)); do printf '0x%x\n' $a; done >"$TMP/addrs"
n=$(wc -l <"$TMP/addrs")
[ "$n" -gt 300 ] || fail "only $n addresses in the fixture text"

expect_exit 0 "$PERPKT" resolve --vmlinux "$V" --format json <"$TMP/addrs"
jq -r '.results[] | [.addr] + ([.inlines[], {function, file, line}] |
	map("\(.function) \(.file // "??"):\(.line // 0)")) | join("|")' \
	"$TMP/out" >"$TMP/perpkt"
# "0xADDR", then a name line and a location line per frame, to one line
# per address as above; "??:?" (eu) and "??:0" (binutils) mean the same.
frames() {
	awk '
	function flush() { if (addr != "") print addr line; line = "" }
	/^0x[0-9a-f]+$/ { flush(); addr = $0; f = 1; next }
	f { fn = $1; f = 0; next }
	{
		loc = $1; sub(/^\/build\/linux-fixture\//, "", loc)
		if (loc ~ /:[0-9]+:[0-9]+$/) sub(/:[0-9]+$/, "", loc)  # column
		sub(/:\?$/, ":0", loc)
		line = line "|" fn " " loc; f = 1
	}
	END { flush() }'
}
eu-addr2line -f -i -a -e "$V" <"$TMP/addrs" | frames >"$TMP/eu"
addr2line -f -i -a -e "$V" <"$TMP/addrs" | frames >"$TMP/binutils"
[ "$(wc -l <"$TMP/eu")" = "$n" ] || fail "eu-addr2line gave $(wc -l <"$TMP/eu") results for $n addresses"
# eu-addr2line 0.188 adds a frame repeating the function where the line
# table points into an inlined helper but no inlined_subroutine DIE
# covers the address (gcc -O2 interleaves code); binutils addr2line
# does not. Such an address must then agree with binutils.
# A tool naming a frame "??" (assembly, padding: no DWARF subprogram)
# agrees on the location alone: perpkt names it from the symbol table.
paste -d '\n' "$TMP/perpkt" "$TMP/eu" "$TMP/binutils" | awk -v n="$n" '
	function agree(p, t,   np, nt, i, P, T, a, b) {
		np = split(p, P, "|"); nt = split(t, T, "|")
		if (np != nt) return 0
		for (i = 1; i <= np; i++) {
			if (P[i] == T[i]) continue
			split(P[i], a, " "); split(T[i], b, " ")
			if (b[1] != "??" || a[2] != b[2]) return 0
		}
		return 1
	}
	NR % 3 == 1 { p = $0; next }
	NR % 3 == 2 { e = $0; next }
	{
		total++
		if (agree(p, e)) same++
		else if (agree(p, $0)) { tie++; if (tie <= 3) print "eu-addr2line differs, addr2line agrees: " e }
		else if (bad++ < 5) print "differs: " p "\n   eu: " e "\n   binutils: " $0
	}
	END {
		printf "%d/%d agree with eu-addr2line, %d more with addr2line, %d with neither\n",
			same, total, tie, bad
		exit !(total == n && !bad && same >= 0.95 * total)
	}' || fail "perpkt resolve and eu-addr2line -f -i differ"
# And the fixture must exercise inline chains, two deep at least.
deep=$(jq '[.results[] | select((.inlines | length) >= 2)] | length' "$TMP/out")
[ "$deep" -gt 0 ] || fail "no address with a two-deep inline chain"
jq -e '[.results[] | select(.inlines | length > 0)] | length > 20' "$TMP/out" >/dev/null ||
	fail "too few addresses with inlined frames"
echo "ok: $n addresses, $deep with two or more inlined frames"
}
check_one vmlinux
check_one vmlinux-dwarf4
