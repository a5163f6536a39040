#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad vmlinux inputs give a clear error, or a labelled degradation (no
# DWARF), never a crash: not ELF, truncated, stripped, no DWARF, corrupt
# DWARF, a directory, a missing file.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
K=$BUILDDIR/tests/fixtures/ktree
[ -f "$K/vmlinux" ] || fail "fixture $K/vmlinux not built"
A=0x$(nm "$K/vmlinux" | awk '$3 == "udp_sendmsg" { print $1 }')
[ "$A" != 0x ] || fail "no udp_sendmsg in the fixture"

# want CODE PATTERN FILE: exit code and a message on stderr
want() {
	expect_exit "$1" "$PERPKT" resolve --vmlinux "$3" "$A"
	grep -q -- "$2" "$TMP/err" || { cat "$TMP/err" >&2; fail "no '$2' for $3"; }
}
want 2 "is not an ELF file" "$SRCDIR/tests/fixtures/ktree/init/main.c"
want 2 "is truncated" "$K/vmlinux-truncated"
want 2 "is stripped (no symbol table)" "$K/vmlinux-stripped"
want 2 "cannot open vmlinux '$TMP/none'" "$TMP/none"
want 2 "is not a regular file" "$TMP"
: >"$TMP/empty"
want 2 "not an ELF file" "$TMP/empty"

# No DWARF: symbols still resolve, and a warning says what is missing.
expect_exit 0 "$PERPKT" resolve --vmlinux "$K/vmlinux-nodwarf" --format json "$A"
grep -q "has no DWARF: file:line and inline chains are unavailable" "$TMP/err" ||
	fail "no warning about the missing DWARF"
jq -e '.dwarf == false and .results[0].function == "udp_sendmsg" and
	.results[0].file == null and .results[0].bucket == "udp" and
	.results[0].rule == "udp func udp*"' "$TMP/out" >/dev/null ||
	fail "no-DWARF result wrong: $(cat "$TMP/out")"

# Corrupt DWARF: garbage over .debug_info, .debug_line and .debug_abbrev.
# Any outcome but a crash (exit >= 128) or a hang is acceptable.
for sec in .debug_info .debug_line .debug_abbrev; do
	cp "$K/vmlinux" "$TMP/corrupt"
	read -r off size < <(readelf -S -W "$TMP/corrupt" | awk -v s="$sec" '
		{ for (i = 1; i <= NF; i++) if ($i == s) print $(i + 3), $(i + 4) }')
	[ -n "$off" ] || fail "no $sec in the fixture"
	for seed in 1 2 3; do
		cp "$K/vmlinux" "$TMP/corrupt"
		head -c $((16#$size)) /dev/urandom >"$TMP/junk"
		dd if="$TMP/junk" of="$TMP/corrupt" bs=1 seek=$((16#$off)) conv=notrunc status=none
		got=0
		timeout 20 "$PERPKT" resolve --vmlinux "$TMP/corrupt" \
			$(nm -n "$K/vmlinux" | awk '$2 ~ /[tT]/ { print "0x" $1 }') \
			>/dev/null 2>"$TMP/err" || got=$?
		[ "$got" -lt 3 ] || { cat "$TMP/err" >&2; fail "corrupt $sec (seed $seed): exit $got"; }
	done
done
echo ok
