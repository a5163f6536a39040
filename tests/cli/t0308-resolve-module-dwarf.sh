#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A module address resolves with the module's own DWARF: the fixture
# module pktmod.ko (tests/fixtures/kmod) placed, as a profile records it,
# at runtime section bases; every byte of its .text and .init.text must
# give the frames eu-addr2line -f -i -j SECTION gives at that offset of
# the .ko, and the profile must say where its sections were.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v eu-addr2line >/dev/null || skip "needs eu-addr2line (apt-get install elfutils)"
command -v jq >/dev/null || skip "needs jq"
V=$BUILDDIR/tests/fixtures/ktree/vmlinux
KO=$BUILDDIR/tests/fixtures/kmod/pktmod.ko
[ -f "$V" ] && [ -f "$KO" ] || fail "fixtures not built"
TEXT=0xffffffffc0a5e000
INIT=0xffffffffc0a70000

# A profile of the ktree "kernel" with pktmod loaded: its two functions
# as kallsyms entries, its sections as record saves them.
jq --arg t $TEXT --arg i $INIT '.system.build_id = null |
	.kallsyms += [{addr: $t, size: 0, type: "T", name: "pktmod_xmit", module: "pktmod"},
		      {addr: $i, size: 0, type: "t", name: "pktmod_init", module: "pktmod"}] |
	.modules = [{name: "pktmod", sections: {".text": $t, ".init.text": $i}}]' \
	"$FIXTURES/profiles/sw-clock.json" >"$TMP/p.json"

frames() {
	awk '
	function flush() { if (addr != "") print addr line; line = "" }
	/^0x[0-9a-f]+$/ { flush(); addr = $0; f = 1; next }
	f { fn = $1; f = 0; next }
	{
		loc = $1; sub(/^\/build\/pktmod\//, "", loc)
		if (loc ~ /:[0-9]+:[0-9]+$/) sub(/:[0-9]+$/, "", loc)
		sub(/:\?$/, ":0", loc)
		line = line "|" fn " " loc; f = 1
	}
	END { flush() }'
}
total=0
for sec in .text .init.text; do
	base=$TEXT; [ $sec = .init.text ] && base=$INIT
	# "[ N] NAME TYPE ADDR OFF SIZE ...": the "[ N]" may be one field or two.
	size=$(readelf -S -W "$KO" | sed 's/^ *\[ *[0-9]*\] *//' |
		awk -v s=$sec '$1 == s { print "0x" $5 }')
	size=$((size))
	[ "$size" -gt 8 ] || fail "no $sec in $KO"
	: >"$TMP/off"; : >"$TMP/addrs"
	for ((o = 0; o < size; o++)); do
		printf '0x%x\n' $o >>"$TMP/off"
		printf '0x%x\n' $((base + o)) >>"$TMP/addrs"
	done
	expect_exit 0 "$PERPKT" resolve -i "$TMP/p.json" --vmlinux "$V" \
		--modules "$(dirname "$KO")" --format json <"$TMP/addrs"
	grep -q warning "$TMP/err" && { cat "$TMP/err" >&2; fail "warnings for $sec"; }
	jq -r --argjson b $((base)) '.results[] | [.addr] + ([.inlines[], {function, file, line}] |
		map("\(.function) \(.file // "??"):\(.line // 0)")) | join("|")' "$TMP/out" |
		cut -d'|' -f2- >"$TMP/perpkt"
	jq -e '[.results[] | .module == "pktmod"] | all' "$TMP/out" >/dev/null ||
		fail "$sec: not all in module pktmod"
	eu-addr2line -f -i -a -j $sec -e "$KO" <"$TMP/off" | frames | cut -d'|' -f2- >"$TMP/eu"
	if ! diff -u "$TMP/eu" "$TMP/perpkt" >"$TMP/diff"; then
		head -20 "$TMP/diff" >&2
		fail "$sec: perpkt resolve and eu-addr2line -j $sec differ"
	fi
	grep -q "pktmod_clamp pktmod.h:" "$TMP/perpkt" || [ $sec = .init.text ] ||
		fail "$sec: no inlined pktmod_clamp frame"
	total=$((total + size))
done
echo "ok: $total module addresses as eu-addr2line -j places them"
