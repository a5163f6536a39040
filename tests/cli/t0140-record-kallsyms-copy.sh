#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# record names kernel addresses from perpkt's copy of this boot's
# /proc/kallsyms (src/system/host-kallsyms.h) when every one is in the
# kernel's text or init text, and reads /proc/kallsyms itself otherwise:
# the copy is made once (mode 0600 in a folder 0700, a stale one of
# another boot dropped); its symbols are /proc/kallsyms's, to the
# address, type and name; a copy changed on disk is what names the
# addresses (so the copy is what record read), unless
# PERPKT_KALLSYMS_CACHE=0 or an address outside its ranges sends record
# to /proc/kallsyms; kernel.text_size is _etext - _stext either way.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
command -v jq >/dev/null || skip "needs jq"
export PERPKT_CACHE=$TMP/cache
dir=$PERPKT_CACHE/host-kallsyms
# the profile's kallsyms entries as "ADDR TYPE NAME", sorted
entries() { jq -r '.kallsyms[] | "\(.addr[2:]) \(.type) \(.name)"' "$1" | sort; }
rec() { # OUT [ENV...]: record -v, with callchains (so syscall entries are in it)
	local out=$1; shift
	expect_exit 0 env "$@" "$PERPKT" record -v -g -d 0.2 -w 0.1 -o "$out"
}

rec "$TMP/a.json"
copy=$(ls "$dir"/*.txt 2>/dev/null)
[ -n "$copy" ] && [ -s "$copy" ] || fail "no copy made: $(ls -la "$dir")"
[ "$(stat -c %a "$copy")" = 600 ] && [ "$(stat -c %a "$dir")" = 700 ] ||
	fail "modes: $(stat -c '%a %n' "$dir" "$copy")"
# made again (its ranges gone): another boot's copy is dropped
touch "$dir/stale-boot-0-0-0000000000000000.txt" && rm "${copy%.txt}.rng"
rec "$TMP/a.json"
[ ! -e "$dir/stale-boot-0-0-0000000000000000.txt" ] || fail "the stale copy was kept: $(ls "$dir")"
[ -s "$copy" ] && [ -s "${copy%.txt}.rng" ] || fail "not made again: $(ls "$dir")"
read -r lo hi ilo ihi <"${copy%.txt}.rng" || fail "no ranges beside $copy"
# its _stext and _etext are this boot's
[ "$lo $hi" = "$(awk '$3 == "_stext" { s = $1 } $3 == "_etext" { e = $1 } END { print s, e }' /proc/kallsyms)" ] ||
	fail "ranges $lo $hi, /proc/kallsyms says otherwise"
jq -r '.conditions["kernel.text_size"]' "$TMP/a.json" |
	grep -qx "$(( 0x$hi - 0x$lo )) bytes (_etext - _stext)" ||
	fail "kernel.text_size: $(jq -r '.conditions["kernel.text_size"]' "$TMP/a.json")"
# every kernel address named in the profile in the ranges: named from the copy
outside=$(jq -r '[.samples[].ip] + [.stack_nodes[]? | .[1]] | .[] | select(startswith("0xffff"))' "$TMP/a.json" |
	awk -v a="$lo" -v b="$hi" -v c="$ilo" -v d="$ihi" '{ x = substr($1, 3) }
		!((x >= a && x < b) || (x >= c && x < d)) && x < "fffffffffffff001" { n++ } END { print n + 0 }')
if [ "$outside" = 0 ]; then
	grep -q "kernel symbols from perpkt's copy" "$TMP/err" || fail "the copy was not used: $(grep kernel "$TMP/err")"
else
	echo "note: $outside kernel addresses outside the kernel's text here: the copy is not used" >&2
	! grep -q "kernel symbols from perpkt's copy" "$TMP/err" || fail "the copy used for addresses outside it"
fi
# what the profile names is /proc/kallsyms's, address, type and name
[ -n "$(entries "$TMP/a.json")" ] || fail "no kallsyms entries in the profile"
missing=$(comm -23 <(entries "$TMP/a.json") <(awk '{ print $1, $2, $3 }' /proc/kallsyms | sort) | head -3)
[ -z "$missing" ] || fail "entries not in /proc/kallsyms: $missing"
[ "$outside" = 0 ] || { echo "ok (copy made; not used here)"; exit 0; }

# the copy is what names them: a name changed in it shows, unless the
# copy is off or the ranges leave the addresses out
# (the syscall entry is in every system call's callchain)
fn=$(jq -r '[.kallsyms[].name] as $n | ([$n[] | select(. == "entry_SYSCALL_64_after_hwframe" or
	. == "do_syscall_64" or . == "el0_svc")] + $n)[0]' "$TMP/a.json")
[ -n "$fn" ] && [ "$fn" != null ] || fail "no text entry to rename"
sed -i "s/ $fn\$/ perpkt_renamed_$fn/" "$copy"
grep -q " perpkt_renamed_$fn\$" "$copy" || fail "cannot rename $fn in $copy"
rec "$TMP/b.json"
if jq -e --arg f "$fn" '[.kallsyms[].name] | index($f) != null' "$TMP/b.json" >/dev/null; then
	fail "$fn named from /proc/kallsyms, not from the copy"
fi
jq -e --arg f "perpkt_renamed_$fn" '[.kallsyms[].name] | index($f) != null' "$TMP/b.json" >/dev/null ||
	echo "note: $fn not sampled again: the rename is not seen" >&2
rec "$TMP/c.json" PERPKT_KALLSYMS_CACHE=0
! grep -q "kernel symbols from perpkt's copy" "$TMP/err" || fail "PERPKT_KALLSYMS_CACHE=0 used the copy"
! jq -e '[.kallsyms[].name | select(startswith("perpkt_renamed_"))] | length > 0' "$TMP/c.json" >/dev/null ||
	fail "PERPKT_KALLSYMS_CACHE=0 named from the copy"
# ranges that hold no address: /proc/kallsyms itself
echo "1 2 0 0" >"${copy%.txt}.rng"
rec "$TMP/d.json"
! grep -q "kernel symbols from perpkt's copy" "$TMP/err" || fail "addresses outside the ranges named from the copy"
! jq -e '[.kallsyms[].name | select(startswith("perpkt_renamed_"))] | length > 0' "$TMP/d.json" >/dev/null ||
	fail "addresses outside the ranges named from the copy"
echo ok
