# SPDX-License-Identifier: GPL-2.0-only
# 'cmake --install' (what 'make install' runs) puts the program, its man
# page and its bash completion under the prefix, where man and
# bash-completion look, and honours DESTDIR for packagers.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
: "${BUILDDIR:?}"

cmake --install "$BUILDDIR" --prefix "$TMP/p" >"$TMP/log" 2>&1 ||
	fail "cmake --install failed: $(tail -5 "$TMP/log")"
[ -x "$TMP/p/bin/perpkt" ] || fail "no bin/perpkt under the prefix"
"$TMP/p/bin/perpkt" --version | grep -q '^perpkt [0-9]' || fail "installed perpkt does not run"
"$TMP/p/bin/perpkt-bisect" --help | grep -q '^usage: perpkt-bisect' || fail "no installed perpkt-bisect"
[ -f "$TMP/p/share/man/man1/perpkt.1" ] || fail "no share/man/man1/perpkt.1"
cmp -s "$TMP/p/share/man/man1/perpkt.1" "$SRCDIR/docs/perpkt.1" || fail "man page differs"
comp="$TMP/p/share/bash-completion/completions/perpkt"
[ -f "$comp" ] || fail "no share/bash-completion/completions/perpkt"
# the installed completion works with the installed program
PATH="$TMP/p/bin:$PATH" bash -c '. "$1"; COMP_WORDS=(perpkt rep); COMP_CWORD=1; _perpkt
	[ "${COMPREPLY[*]}" = "report" ]' _ "$comp" || fail "installed completion does not complete"

DESTDIR="$TMP/d" cmake --install "$BUILDDIR" --prefix /usr >"$TMP/log" 2>&1 ||
	fail "cmake --install with DESTDIR failed"
[ -x "$TMP/d/usr/bin/perpkt" ] && [ -f "$TMP/d/usr/share/man/man1/perpkt.1" ] ||
	fail "DESTDIR not honoured"
# make install is that command, with PREFIX
make -n -C "$SRCDIR" install PREFIX="$TMP/q" BUILD="$BUILDDIR" 2>/dev/null |
	grep -q -- "cmake --install $BUILDDIR --prefix $TMP/q" || fail "make install does not run cmake --install with PREFIX"
echo "ok: $(find "$TMP/p" -type f | wc -l) files installed"
