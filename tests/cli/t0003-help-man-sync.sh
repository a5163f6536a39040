# SPDX-License-Identifier: GPL-2.0-only
# The option tables are the one source of option text: --help is printed
# from them, the build makes the man page's COMMANDS and "<COMMAND>
# OPTIONS" sections from --help (docs/man-options.py), and the bash
# completion (docs/completion.py). Checked here: each generator's file
# is the tree's copy and the build's, the page says each command and
# option once, and every option of every command completes.
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

# completion: written by docs/completion.py from the same --help
python3 "$SRCDIR/docs/completion.py" "$PERPKT" "$TMP/completion.bash" ||
	fail "docs/completion.py failed"
diff -u "$SRCDIR/docs/perpkt-completion.bash" "$TMP/completion.bash" >"$TMP/d" ||
	{ cat "$TMP/d" >&2; fail "docs/perpkt-completion.bash is not what the option tables make: python3 docs/completion.py $PERPKT docs/perpkt-completion.bash"; }
[ ! -f "$BUILDDIR/perpkt-completion.bash" ] ||
	cmp -s "$BUILDDIR/perpkt-completion.bash" "$TMP/completion.bash" ||
	fail "the build's perpkt-completion.bash is stale: rebuild"

# every option of every command completes from its first letters, and
# only the options --help lists (not one its text merely mentions)
for c in $cmds; do
	"$PERPKT" "$c" --help | sed -nE 's/^ {2,6}(-[[:alnum:]], )?(--[a-z][a-z0-9-]*).*/\2/p' |
		sort >"$TMP/want"
	bash -c '. "$1"; COMP_WORDS=(perpkt "$2" --); COMP_CWORD=2; _perpkt
		printf "%s\n" "${COMPREPLY[@]}"' _ "$TMP/completion.bash" "$c" |
		sort >"$TMP/got"
	diff -u "$TMP/want" "$TMP/got" >"$TMP/d" ||
		{ cat "$TMP/d" >&2; fail "'perpkt $c --<TAB>' is not the options of 'perpkt $c --help'"; }
	o=$(bash -c '. "$1"; while read -r o; do
			COMP_WORDS=(perpkt "$2" "$o"); COMP_CWORD=2; _perpkt
			printf "%s\n" "${COMPREPLY[@]}" | grep -qx -- "$o" ||
				{ echo "$o"; exit 1; }
		done' _ "$TMP/completion.bash" "$c" <"$TMP/want") ||
		fail "'perpkt $c $o<TAB>' does not complete $o"
done

mkdir "$TMP/files" && cd "$TMP/files" && touch a.json b.txt && mkdir sub
bash -c '
	. "$1"
	COMP_WORDS=(perpkt re); COMP_CWORD=1; _perpkt
	printf "%s\n" "${COMPREPLY[@]}" | grep -qx record || exit 1
	printf "%s\n" "${COMPREPLY[@]}" | grep -qx report || exit 2
	COMP_WORDS=(perpkt record --rep); COMP_CWORD=2; _perpkt
	[ "${COMPREPLY[*]}" = "--repeat" ] || exit 3
	COMP_WORDS=(perpkt report --form); COMP_CWORD=2; _perpkt
	[ "${COMPREPLY[*]}" = "--format" ] || exit 4
	# report mentions record --peer in its help: not an option of its own
	COMP_WORDS=(perpkt report --pee); COMP_CWORD=2; _perpkt
	[ -z "${COMPREPLY[*]}" ] || exit 13
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
	COMP_WORDS=(perpkt table --value bu); COMP_CWORD=3; _perpkt
	[ "${COMPREPLY[*]}" = "busy bucket:" ] || exit 14
	# -i offers profiles (.json) and directories, not every file
	COMP_WORDS=(perpkt report -i ""); COMP_CWORD=3; _perpkt
	[ "$(printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " ")" = "a.json sub " ] || exit 9
	# a file option still completes files, a directory option directories
	COMP_WORDS=(perpkt report --buckets b); COMP_CWORD=3; _perpkt
	[ "${COMPREPLY[*]}" = "b.txt" ] || exit 10
	COMP_WORDS=(perpkt sweep -o ""); COMP_CWORD=3; _perpkt
	[ "${COMPREPLY[*]}" = "sub" ] || exit 15
	# a number is typed: no file names
	COMP_WORDS=(perpkt record -d ""); COMP_CWORD=3; _perpkt
	[ -z "${COMPREPLY[*]}" ] || exit 16
	# after --, a command of one s own, then its files
	COMP_WORDS=(perpkt record -- bas); COMP_CWORD=3; _perpkt
	printf "%s\n" "${COMPREPLY[@]}" | grep -qx bash || exit 17
	COMP_WORDS=(perpkt record -- ls -); COMP_CWORD=4; _perpkt
	[ -z "${COMPREPLY[*]}" ] || exit 18
' _ "$TMP/completion.bash" || fail "bash completion (case $?)"
echo "ok: $(echo $cmds | wc -w) commands"
