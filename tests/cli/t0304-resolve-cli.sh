#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# perpkt resolve: text and JSON output, addresses from stdin, custom
# bucket rules (path rules match the compilation unit, not the header
# an inlined helper came from), usage errors.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
K=$BUILDDIR/tests/fixtures/ktree
V=$K/vmlinux
addr() { printf '0x%s' "$(nm "$V" | awk -v f="$1" '$3 == f { print $1 }')"; }
S=$(addr udp_sendmsg)
X=$(addr veth_xmit)

# An address inside two inlined helpers of udp_sendmsg.
deep=$("$PERPKT" resolve --vmlinux "$V" --format json $(for o in $(seq 0 80); do
	printf '0x%x ' $((S + o)); done) | jq -r '[.results[] |
	select(.inlines | length == 2)][0].addr')
[ "$deep" != null ] || fail "no two-deep inline chain in udp_sendmsg"
expect_exit 0 "$PERPKT" resolve --vmlinux "$V" "$deep"
off=$((deep - S))
line=$(sed -n 1p "$TMP/out")
[ "$line" = "$(printf '0x%016x udp_sendmsg+0x%x net/ipv4/udp.c:15' $deep $off)" ] ||
	fail "first line: $line"
sed -n 2,4p "$TMP/out" >"$TMP/rest"
cat >"$TMP/want" <<'EOT'
    inlined __skb_put include/linux/skbuff.h:21
    inlined skb_put_csum include/linux/skbuff.h:35
    bucket udp (udp path net/ipv4/udp)
EOT
diff -u "$TMP/want" "$TMP/rest" || fail "text output"

# JSON, addresses from stdin (blank lines skipped, 0x optional).
printf '%s\n\n%s\n' "$deep" "${X#0x}" | "$PERPKT" resolve --vmlinux "$V" --format json >"$TMP/j" ||
	fail "stdin resolve failed"
jq -e --arg d "$deep" '.dwarf == true and (.results | length) == 2 and
	.results[0].addr == $d and .results[0].function == "udp_sendmsg" and
	.results[0].unit == "net/ipv4/udp.c" and
	.results[0].inlines[0] == {"function": "__skb_put",
		"file": "include/linux/skbuff.h", "line": 21} and
	.results[1].function == "veth_xmit" and .results[1].bucket == "driver" and
	.results[1].rule == "driver path drivers/net/"' "$TMP/j" >/dev/null ||
	fail "JSON output: $(cat "$TMP/j")"

# Custom rules: a path rule for include/linux/ must not catch udp_sendmsg
# (its unit is net/ipv4/udp.c); func rules still apply.
cat >"$TMP/rules" <<'EOT'
headers path include/linux/
mine path net/ipv4/udp.c
drv func veth_*
EOT
expect_exit 0 "$PERPKT" resolve --vmlinux "$V" --buckets "$TMP/rules" --format json "$deep" "$X"
jq -e '.results[0].bucket == "mine" and .results[0].rule == "mine path net/ipv4/udp.c" and
	.results[1].bucket == "drv"' "$TMP/out" >/dev/null || fail "custom rules: $(cat "$TMP/out")"
echo "bad line here" >"$TMP/badrules"
expect_exit 2 "$PERPKT" resolve --vmlinux "$V" --buckets "$TMP/badrules" "$X"
grep -q "bad bucket rule at '$TMP/badrules:1'" "$TMP/err" || fail "bad rules message"

# An address in no symbol: listed, exit 1.
expect_exit 1 "$PERPKT" resolve --vmlinux "$V" 0x10
grep -q "^0x0000000000000010 ?? (in no symbol)" "$TMP/out" || fail "unknown address"

# Usage errors: 64 with the usage text.
expect_exit 64 "$PERPKT" resolve --bogus 0x1
grep -q "usage: perpkt resolve" "$TMP/err" || fail "no usage on a bad option"
expect_exit 64 "$PERPKT" resolve --vmlinux "$V" zzz
grep -q "invalid address 'zzz'" "$TMP/err" || fail "bad address message"
expect_exit 64 "$PERPKT" resolve --vmlinux "$V" --kallsyms "$FIXTURES/kallsyms-small.txt" 0x1
expect_exit 64 "$PERPKT" resolve --format xml 0x1
echo nothex | expect_exit 2 "$PERPKT" resolve --vmlinux "$V"
grep -q "invalid address 'nothex' on line 1 of standard input" "$TMP/err" || fail "stdin error"
expect_exit 0 "$PERPKT" resolve --help
grep -q -- "--vmlinux FILE" "$TMP/out" || fail "help"
"$PERPKT" --help | grep -q "resolve" || fail "resolve not in the command list"

# CSV, one line per address, the same facts as the text
expect_exit 1 "$PERPKT" resolve --vmlinux "$V" --format csv "$S" 0x1
[ "$(sed -n 1p "$TMP/out")" = "addr,function,offset,module,file,line,bucket,rule,inlines" ] ||
	fail "csv header: $(sed -n 1p "$TMP/out")"
sed -n 2p "$TMP/out" | grep -qE "^$S,udp_sendmsg,0,,net/ipv4/udp.c,[0-9]+,udp," ||
	fail "csv of udp_sendmsg: $(sed -n 2p "$TMP/out")"
[ "$(sed -n 3p "$TMP/out")" = "0x1,,,,,,unknown,(no symbol)," ] ||
	fail "csv of an address in no symbol: $(sed -n 3p "$TMP/out")"
echo ok
