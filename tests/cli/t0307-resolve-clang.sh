#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The ktree fixture built by clang, DWARF 5 (strx, addrx, rnglistx) and
# DWARF 4: perpkt resolve gives the frames llvm-symbolizer --inlining
# gives (inlined functions innermost first, then the function, each with
# function and file:line) at every byte of text, with inline chains of
# two frames at least. eu-addr2line 0.188 answers ??:0 on parts of
# clang's DWARF 5, so it is counted but not required.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v llvm-symbolizer >/dev/null || skip "needs llvm-symbolizer (apt-get install llvm)"
command -v eu-addr2line >/dev/null || skip "needs eu-addr2line (apt-get install elfutils)"
command -v jq >/dev/null || skip "needs jq"
command -v clang >/dev/null || skip "needs clang (apt-get install clang)"

# One line per address: "0xADDR|func file:line|..." (innermost first).
perpkt_frames() {
	jq -r '.results[] | [.addr] + ([.inlines[], {function, file, line}] |
		map("\(.function) \(.file // "??"):\(.line // 0)")) | join("|")' "$1"
}
# llvm-symbolizer -a and eu-addr2line -a: "0xADDR", then name and
# location lines per frame (llvm-symbolizer ends each address with a
# blank line); columns and the build root dropped.
tool_frames() {
	awk '
	function flush() { if (addr != "") print addr line; line = "" }
	/^$/ { next }
	/^0x[0-9a-f]+$/ { flush(); addr = $0; f = 1; next }
	f { fn = $1; f = 0; next }
	{
		loc = $1; sub(/^\/build\/linux-fixture\//, "", loc)
		if (loc ~ /:[0-9]+:[0-9]+$/) sub(/:[0-9]+$/, "", loc)
		sub(/:\?$/, ":0", loc)
		line = line "|" fn " " loc; f = 1
	}
	END { flush() }'
}
# Agreement of two frame files, line by line; a frame named "??" by the
# tool agrees on its location alone (perpkt names it from the symbols).
agree() {
	paste -d '\n' "$1" "$2" | awk -v what="$3" '
	function same(p, t,   np, nt, i, P, T, a, b) {
		np = split(p, P, "|"); nt = split(t, T, "|")
		if (np != nt) return 0
		for (i = 1; i <= np; i++) {
			if (P[i] == T[i]) continue
			split(P[i], a, " "); split(T[i], b, " ")
			if (b[1] != "??" || a[2] != b[2]) return 0
		}
		return 1
	}
	NR % 2 == 1 { p = $0; next }
	{ n++; if (same(p, $0)) ok++; else if (bad++ < 3) print what " differs: " p "\n    " $0 > "/dev/stderr" }
	END { printf "%d %d\n", ok, n }'
}

for name in vmlinux-clang vmlinux-clang-dwarf4; do
	V=$BUILDDIR/tests/fixtures/ktree/$name
	[ -f "$V" ] || fail "fixture $V not built"
	read -r lo hi < <(nm -n -S "$V" | awk '$3 ~ /^[tT]$/ && $2 != "" { last = $1 " " $2 }
		$3 == "_text" { t = $1 } END { print t, last }')
	start=$((16#$lo)); set -- $hi; end=$((16#$1 + 16#$2))
	for ((a = start; a < end; a++)); do printf '0x%x\n' $a; done >"$TMP/addrs"
	n=$(wc -l <"$TMP/addrs")
	[ "$n" -gt 300 ] || fail "only $n addresses in $name's text"
	expect_exit 0 "$PERPKT" resolve --vmlinux "$V" --format json <"$TMP/addrs"
	perpkt_frames "$TMP/out" >"$TMP/perpkt"
	llvm-symbolizer --obj="$V" --inlining -a --functions=linkage <"$TMP/addrs" |
		tool_frames >"$TMP/llvm"
	eu-addr2line -f -i -a -e "$V" <"$TMP/addrs" | tool_frames >"$TMP/eu"
	[ "$(wc -l <"$TMP/llvm")" = "$n" ] || fail "llvm-symbolizer gave $(wc -l <"$TMP/llvm") results for $n addresses"
	read -r lok _ < <(agree "$TMP/perpkt" "$TMP/llvm" "$name llvm-symbolizer")
	read -r eok _ < <(agree "$TMP/perpkt" "$TMP/eu" "$name eu-addr2line")
	deep=$(jq '[.results[] | select((.inlines | length) >= 2)] | length' "$TMP/out")
	echo "$name: $lok/$n agree with llvm-symbolizer, $eok/$n with eu-addr2line, $deep with two or more inlined frames"
	[ "$lok" = "$n" ] || fail "$name: perpkt resolve and llvm-symbolizer --inlining differ"
	[ "$deep" -gt 0 ] || fail "$name: no address with a two-deep inline chain"
	jq -e '.dwarf' "$TMP/out" >/dev/null || fail "$name: no DWARF read"
done
