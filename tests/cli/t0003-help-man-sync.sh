# SPDX-License-Identifier: GPL-2.0-only
# The option tables are the one source of option text: --help is printed
# from them, the build makes the man page's COMMANDS and "<COMMAND>
# OPTIONS" sections from --help (docs/man-options.py), and the bash
# completion offers what --help lists. Checked here: the generator's
# page is the tree's docs/perpkt.1 and the build's, and says each
# command and option once.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
MAN="$SRCDIR/docs/perpkt.1"

cmds=$("$PERPKT" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ -n "$cmds" ] || fail "perpkt --help lists no commands"
python3 "$SRCDIR/docs/man-options.py" "$PERPKT" "$MAN" "$TMP/perpkt.1" ||
	fail "docs/man-options.py failed"
diff -u "$MAN" "$TMP/perpkt.1" >"$TMP/d" ||
	{ cat "$TMP/d" >&2; fail "docs/perpkt.1 is not what the option tables make: python3 docs/man-options.py $PERPKT docs/perpkt.1"; }
[ ! -f "$BUILDDIR/perpkt.1" ] || cmp -s "$BUILDDIR/perpkt.1" "$TMP/perpkt.1" ||
	fail "the build's perpkt.1 is stale: rebuild"
for c in $cmds; do
	grep -q "^\.B $c\$" "$MAN" || fail "man page COMMANDS lacks '$c'"
	up=$(echo "$c" | tr a-z A-Z)
	grep -q "^\.SH $up OPTIONS\$" "$MAN" || fail "man page has no '$up OPTIONS' section"
	"$PERPKT" "$c" --help | grep -E '^ {2,6}(-[[:alnum:]], )?--' >"$TMP/lines"
	[ -s "$TMP/lines" ] || fail "'perpkt $c --help' lists no options"
	twice=$(sed -E 's/^ +(-[[:alnum:]], )?(--[a-z0-9-]+).*/\2/' "$TMP/lines" | sort | uniq -d)
	[ -z "$twice" ] || fail "'perpkt $c --help' describes $twice twice"
done

# completion: commands and options come from --help at completion time
mkdir "$TMP/bin" "$TMP/files" && ln -s "$PERPKT" "$TMP/bin/perpkt"
PATH="$TMP/bin:$PATH" bash -c '
	. "$1/docs/perpkt-completion.bash"
	COMP_WORDS=(perpkt re); COMP_CWORD=1; _perpkt
	printf "%s\n" "${COMPREPLY[@]}" | grep -qx record || exit 1
	printf "%s\n" "${COMPREPLY[@]}" | grep -qx report || exit 2
	COMP_WORDS=(perpkt record --rep); COMP_CWORD=2; _perpkt
	[ "${COMPREPLY[*]}" = "--repeat" ] || exit 3
	COMP_WORDS=(perpkt report --form); COMP_CWORD=2; _perpkt
	[ "${COMPREPLY[*]}" = "--format" ] || exit 4
	# option values from the help text, not file names
	COMP_WORDS=(perpkt report --format ""); COMP_CWORD=3; _perpkt
	[ "${COMPREPLY[*]}" = "text markdown json csv folded html svg" ] || exit 5
	COMP_WORDS=(perpkt stat --format j); COMP_CWORD=3; _perpkt
	[ "${COMPREPLY[*]}" = "json" ] || exit 11
	COMP_WORDS=(perpkt diff --format f); COMP_CWORD=3; _perpkt
	[ "${COMPREPLY[*]}" = "folded" ] || exit 12
	COMP_WORDS=(perpkt report --by b); COMP_CWORD=3; _perpkt
	[ "${COMPREPLY[*]}" = "bucket" ] || exit 6
	COMP_WORDS=(perpkt record --net ""); COMP_CWORD=3; _perpkt
	[ "${COMPREPLY[*]}" = "loopback veth" ] || exit 7
	COMP_WORDS=(perpkt sweep --format ""); COMP_CWORD=3; _perpkt
	[ "${COMPREPLY[*]}" = "text markdown csv json" ] || exit 8
	# -i offers profiles (.json) and directories, not every file
	cd "$2" && touch a.json b.txt && mkdir sub
	COMP_WORDS=(perpkt report -i ""); COMP_CWORD=3; _perpkt
	[ "$(printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " ")" = "a.json sub " ] || exit 9
	# a file option still completes files
	COMP_WORDS=(perpkt report --buckets b); COMP_CWORD=3; _perpkt
	[ "${COMPREPLY[*]}" = "b.txt" ] || exit 10
' _ "$SRCDIR" "$TMP/files" || fail "bash completion (case $?)"
echo "ok: $(echo $cmds | wc -w) commands"
