#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Source lines: report --by line, diff --by line and annotate on a
# profile whose samples lie on every address of the ktree fixture's
# text, each with its own weight. Every file:line row (and its inline
# chain) must hold what eu-addr2line -f -i attributes to that line,
# per round trip; annotate's lines must be the function's own lines,
# each with the weight of its addresses, inlined code below it.
# Addresses on which eu-addr2line and binutils' addr2line disagree
# (t0300: a frame of eu's own) are left out of the profile.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v eu-addr2line >/dev/null || skip "needs eu-addr2line (apt-get install elfutils)"
command -v addr2line >/dev/null || skip "needs addr2line (apt-get install binutils)"
command -v jq >/dev/null || skip "needs jq"
V=$BUILDDIR/tests/fixtures/ktree/vmlinux
[ -f "$V" ] || fail "fixture $V not built"
RT=1000

read -r lo hi < <(nm -n -S "$V" | awk '$3 ~ /^[tT]$/ && $2 != "" { last = $1 " " $2 }
	$4 == "_text" || $3 == "_text" { t = $1 } END { print t, last }')
start=$((16#$lo)); set -- $hi; end=$((16#$1 + 16#$2))
for ((a = start; a < end; a++)); do printf '0x%x\n' $a; done >"$TMP/addrs"
# one line per address: "0xADDR|fn file:line|fn file:line..." innermost first
frames() {
	awk '
	function flush() { if (addr != "") print addr line; line = "" }
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
eu-addr2line -f -i -a -e "$V" <"$TMP/addrs" | frames >"$TMP/eu"
addr2line -f -i -a -e "$V" <"$TMP/addrs" | frames >"$TMP/bu"
# the addresses both tools agree on, with a line in a named function;
# weight: 1000 + (its index mod 7) * 100 ns, a sample each
paste -d ' ' "$TMP/eu" "$TMP/bu" | awk '
	{ n = index($0, " 0x"); e = substr($0, 1, n - 1); b = substr($0, n + 1)
	  if (e == b && e !~ /\?\?/ && e ~ /\|/) print e }' >"$TMP/agree"
n=$(wc -l <"$TMP/agree")
[ "$n" -gt 200 ] || fail "only $n addresses both tools place"
awk -F'|' '{ printf "%s %d\n", $1, 1000 + (NR % 7) * 100 }' "$TMP/agree" >"$TMP/w"
id=$(readelf -n "$V" | awk '/Build ID/ { print $3 }')
jq --rawfile w "$TMP/w" --arg id "$id" --argjson rt $RT '
	[$w | split("\n")[] | select(length > 0) | split(" ") |
	 {count: 1, cpu: 1, event: 0, ip: .[0], role: "client", weight: (.[1] | tonumber)}] as $s |
	.samples = $s | .stacks = [] | .system.build_id = $id |
	.workload.round_trips = $rt | .counters.events[0].samples = ($s | length) |
	.counters.events[0].count = ([$s[].weight] | add)' \
	"$SRCDIR/tests/fixtures/profiles/diff-a.json" >"$TMP/p.json" ||
	fail "cannot build the profile"

# expected rows: "file:line fn < caller:line < ..." -> weight per RT
awk -F'|' -v rt=$RT 'NR == FNR { split($0, y, " "); w[y[1]] = y[2]; next }
	{
		split($2, f, " "); loc = f[2]; sub(/.*\//, "", loc)
		key = loc " " f[1]
		for (i = 3; i <= NF; i++) {
			split($i, g, " "); sub(/.*:/, "", g[2])
			key = key " < " g[1] ":" g[2]
		}
		sum[key] += w[$1] / rt
	}
	END { for (k in sum) printf "%s\t%.6f\n", k, sum[k] }' "$TMP/w" "$TMP/agree" |
	sort >"$TMP/expect"

expect_exit 0 "$PERPKT" report -i "$TMP/p.json" --vmlinux "$V" --by line --limit 0 --format json
python3 "$SRCDIR/tests/schema-validate.py" "$SRCDIR/docs/schema" report "$TMP/out" ||
	fail "report --by line JSON does not match its schema"
jq -r '.lines[] | "\(.name)\t\(.per_rt.primary * 1000000 | round / 1000000)"' "$TMP/out" |
	awk -F'\t' '{ printf "%s\t%.6f\n", $1, $2 }' | sort >"$TMP/got"
diff -u "$TMP/expect" "$TMP/got" >"$TMP/d" ||
	{ head -20 "$TMP/d" >&2; fail "report --by line and eu-addr2line differ"; }
rows=$(wc -l <"$TMP/got")
inl=$(grep -c ' < ' "$TMP/got")
[ "$inl" -gt 3 ] || fail "only $inl rows with an inline chain"
# the JSON fields say the same as the name
jq -e '[.lines[] | select(.inlined != null)][0] as $r |
	($r.name | startswith(($r.file | split("/") | last) + ":" + ($r.line | tostring) + " " + $r.function)) and
	($r.inlined | endswith($r.symbol + ":" + ($r.function_line | tostring)))' "$TMP/out" >/dev/null ||
	fail "line row fields disagree with its name: $(jq -c '[.lines[] | select(.inlined != null)][0]' "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$TMP/p.json" --vmlinux "$V" --by line --limit 0 --width 120
grep -q "line$" "$TMP/out" || fail "text report has no line table"
grep -q "skbuff.h:21 __skb_put < skb_put_csum:35 < udp_sendmsg:15" "$TMP/out" ||
	fail "text report lacks the two-deep chain in udp_sendmsg"

# annotate udp_sendmsg: its own lines, each the sum of its addresses
awk -F'|' -v rt=$RT 'NR == FNR { split($0, y, " "); w[y[1]] = y[2]; next }
	{ split($NF, f, " ") }
	f[1] == "udp_sendmsg" { l = f[2]; sub(/.*:/, "", l); sum[l] += w[$1] / rt }
	END { for (k in sum) printf "%s\t%.6f\n", k, sum[k] }' "$TMP/w" "$TMP/agree" | sort -n >"$TMP/expect"
expect_exit 0 "$PERPKT" annotate -i "$TMP/p.json" --vmlinux "$V" --format json udp_sendmsg
python3 "$SRCDIR/tests/schema-validate.py" "$SRCDIR/docs/schema" annotate "$TMP/out" ||
	fail "annotate JSON does not match its schema"
jq -r '.lines[] | "\(.line)\t\(.per_rt)"' "$TMP/out" | awk -F'\t' '{ printf "%s\t%.6f\n", $1, $2 }' |
	sort -n >"$TMP/got"
diff -u "$TMP/expect" "$TMP/got" || fail "annotate udp_sendmsg and eu-addr2line differ"
jq -e '.function == "udp_sendmsg" and .file == "net/ipv4/udp.c" and
	([.lines[].inlined[]] | length > 0) and
	((([.lines[].per_rt] | add) - .per_rt) | fabs < 1e-6) and
	([.lines[] | (.own_per_rt + ([.inlined[].per_rt] | add // 0) - .per_rt) | fabs] | max < 1e-6)' \
	"$TMP/out" >/dev/null || fail "annotate JSON totals: $(jq -c . "$TMP/out" | head -c 600)"
mkdir -p "$TMP/src/net/ipv4"
seq 1 40 | sed 's/^/source line /' >"$TMP/src/net/ipv4/udp.c"
expect_exit 0 "$PERPKT" annotate -i "$TMP/p.json" --vmlinux "$V" --source "$TMP/src" udp_sendmsg
grep -Eq "^ +15 +[0-9.]+ +[0-9.]+%  source line 15$" "$TMP/out" || fail "annotate --source: $(cat "$TMP/out")"
grep -q "skbuff.h:21 __skb_put < skb_put_csum:35 < udp_sendmsg:15" "$TMP/out" ||
	fail "annotate shows no inlined code under its line"
expect_exit 2 "$PERPKT" annotate -i "$TMP/p.json" --vmlinux "$V" no_such_function
grep -q "no samples of 'no_such_function'" "$TMP/err" || fail "unknown function: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" annotate -i "$TMP/p.json"
# without DWARF, said as such
expect_exit 2 "$PERPKT" report -i "$TMP/p.json" --vmlinux "$BUILDDIR/tests/fixtures/ktree/vmlinux-nodwarf" --by line
grep -q "no DWARF for file:line: give the kernel's vmlinux" "$TMP/err" || fail "no-DWARF message: $(cat "$TMP/err")"

# diff --by line of a profile against itself: every row, every delta 0
expect_exit 0 "$PERPKT" diff --by line --vmlinux "$V" --limit 0 --format json "$TMP/p.json" "$TMP/p.json"
[ "$(jq '.lines | length' "$TMP/out")" = "$rows" ] || fail "diff --by line has $(jq '.lines | length' "$TMP/out") rows, report $rows"
jq -e '[.lines[].delta[1]] | all(. == 0)' "$TMP/out" >/dev/null || fail "diff of a profile with itself moved"
# a --vmlinux of another kernel is named, not used
expect_exit 2 "$PERPKT" diff --by line --vmlinux "$BUILDDIR/tests/fixtures/ktree/vmlinux-other-build" "$TMP/p.json" "$TMP/p.json"
grep -q "no --vmlinux is of the kernel of '$TMP/p.json' (build-id $id)" "$TMP/err" || fail "diff --vmlinux mismatch: $(cat "$TMP/err")"
echo "ok: $n addresses, $rows line rows, $inl with inline chains"
