# SPDX-License-Identifier: GPL-2.0-only
# record writes its profile to NAME.perpkt-tmp.XXXXXX beside -o and
# notes that file in the run directory (/run/perpkt/output.ID) first,
# so a run killed at any point leaves nothing a later run cannot find:
# one killed (strace delivers SIGKILL at the flock right after the
# file is made) leaves the file, and the next record, whose -o is in
# another directory, removes it and says so.
# A /run/perpkt of its own (own_rundir): a run killed here leaves notes
# that the test's next run or \`perpkt restore\` must find, and any
# perpkt record that shares the directory undoes a dead run's notes
# first (seen: t0813's restore found them gone at -j 4, when these tests
# shared the host's). The settings the notes are about are the host's:
# it holds the lock \`host\` (no ctest-lock line).
. "$(dirname "$0")/lib.sh"
own_rundir "$@"
need_perf
command -v strace >/dev/null || skip "needs strace (apt-get install strace)"
mkdir "$TMP/a" "$TMP/b"
# the first flock of a record is the one on its temporary file
strace -f -o /dev/null -e trace=flock -e inject=flock:signal=SIGKILL:when=1 \
	"$PERPKT" record -q -d 0.1 -w 0 -o "$TMP/a/p.json" 2>"$TMP/killed.err" &&
	fail "record was not killed: $(cat "$TMP/killed.err")"
left=$(ls "$TMP/a" | grep '^p\.json\.perpkt-tmp\.') ||
	skip "strace killed record before it made its temporary file (flock order changed?): $(ls "$TMP/a")"
[ ! -e "$TMP/a/p.json" ] || fail "a killed record wrote its profile"
expect_exit 0 "$PERPKT" record -d 0.1 -w 0 -o "$TMP/b/q.json"
grep -q "removed '$TMP/a/$left', left by a run that was killed" "$TMP/err" ||
	fail "the next run did not remove $left: $(ls "$TMP/a"); it said: $(cat "$TMP/err")"
[ ! -e "$TMP/a/$left" ] || fail "$left is still there"
echo "ok: $left, left by a killed record, removed by the next"
