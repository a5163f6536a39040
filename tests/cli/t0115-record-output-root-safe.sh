# SPDX-License-Identifier: GPL-2.0-only
# record -o is safe for root where others write: another user's symlink
# in a sticky, world-writable directory is not followed (whatever
# fs.protected_symlinks says), no file is created through a dangling
# symlink, a replaced file keeps its group and mode (another user's is
# refused: t0121), "-o -"
# writes to the descriptor it was given (appending, or into a pipe),
# and the temporary files of killed runs go whatever their -o was.
# A /run/perpkt of its own (own_rundir): a run killed here leaves notes
# that the test's next run or \`perpkt restore\` must find, and any
# perpkt record that shares the directory undoes a dead run's notes
# first (seen: t0813's restore found them gone at -j 4, when these tests
# shared the host's). The settings the notes are about are the host's:
# it holds the lock \`host\` (no ctest-lock line).
. "$(dirname "$0")/lib.sh"
own_rundir "$@"
need_perf
make_test_user
cleanup() {
	[ -n "${REC:-}" ] && kill -KILL "$REC" 2>/dev/null
	drop_test_user
	rm -rf "$TMP"
}
trap cleanup EXIT

rec() { "$PERPKT" record -q -d 0.2 -w 0.1 "$@"; }
chmod 755 "$TMP"
S=$TMP/sticky            # a /tmp of the test's own
mkdir -m 1777 "$S"
mkdir "$TMP/etc"
echo "message of the day" >"$TMP/etc/motd"

# another user's link to a file of root's: refused, the file untouched
as_test_user ln -s "$TMP/etc/motd" "$S/prof-evil.json" || fail "cannot make the user's link"
expect_exit 2 rec -o "$S/prof-evil.json"
grep -q "refusing to follow '$S/prof-evil.json': a symlink owned by $TEST_USER" "$TMP/err" ||
	fail "no word of the foreign symlink: $(cat "$TMP/err")"
[ "$(cat "$TMP/etc/motd")" = "message of the day" ] || fail "root's -o replaced the link's target"
[ -L "$S/prof-evil.json" ] || fail "the user's link was replaced"
# the same through a directory link of the user's
as_test_user ln -s "$TMP/etc" "$S/dir-evil" || fail "cannot make the user's directory link"
expect_exit 2 rec -o "$S/dir-evil/motd"
[ "$(cat "$TMP/etc/motd")" = "message of the day" ] || fail "root wrote through the user's directory link"

# a dangling link of the user's: nothing is created where it points
as_test_user ln -s "$TMP/etc/cron-evil" "$S/cron.json" || fail "cannot make the dangling link"
expect_exit 2 rec -o "$S/cron.json"
[ ! -e "$TMP/etc/cron-evil" ] || fail "root created '$TMP/etc/cron-evil' through a dangling link"
# nor through root's own dangling link
ln -s "$TMP/etc/new.json" "$TMP/mine.json"
expect_exit 2 rec -o "$TMP/mine.json"
grep -q "is a symlink to '$TMP/etc/new.json', which does not exist" "$TMP/err" ||
	fail "dangling link: $(cat "$TMP/err")"
[ ! -e "$TMP/etc/new.json" ] || fail "a file was created through root's dangling link"
# root's own link in the sticky directory is followed (the link stays)
ln -s "$TMP/etc/motd" "$S/root-link.json"
expect_exit 0 rec -o "$S/root-link.json"
[ -L "$S/root-link.json" ] && jq -e '.format == "perpkt-profile"' "$TMP/etc/motd" >/dev/null ||
	fail "root's own link was not followed"

# replacing the user's file with --force-output keeps its owner, group
# and mode
as_test_user sh -c "umask 077; echo old >'$S/users.json'" || fail "cannot make the user's file"
expect_exit 0 rec --force-output -o "$S/users.json"
[ "$(stat -c '%U %G %a' "$S/users.json")" = "$TEST_USER nogroup 600" ] ||
	fail "the replaced file is now $(stat -c '%U %G %a' "$S/users.json")"
jq -e '.format == "perpkt-profile"' "$S/users.json" >/dev/null || fail "no profile in the user's file"
echo old >"$TMP/grp.json" && chgrp nogroup "$TMP/grp.json" && chmod 640 "$TMP/grp.json"
expect_exit 0 rec -o "$TMP/grp.json"
[ "$(stat -c '%U %G %a' "$TMP/grp.json")" = "root nogroup 640" ] ||
	fail "a replaced file lost its group: $(stat -c '%U %G %a' "$TMP/grp.json")"

# -o - appends where stdout appends, and goes into a pipe
echo "first line of the log" >"$TMP/app.log"
rec -o - >>"$TMP/app.log" || fail "record -o - >> failed"
[ "$(head -1 "$TMP/app.log")" = "first line of the log" ] ||
	fail "-o - >> overwrote the file: $(head -c 80 "$TMP/app.log")"
tail -n +2 "$TMP/app.log" | jq -e '.format == "perpkt-profile"' >/dev/null ||
	fail "no profile after the log's line"
rec -o - | jq -e '.workload.round_trips > 0' >/dev/null || fail "-o - into a pipe"

# a killed run's temporary file goes at the next run, whatever its -o
mkdir "$TMP/d1" "$TMP/d2"
"$PERPKT" record -q -d 30 -w 0 -o "$TMP/d1/a.json" 2>/dev/null &
REC=$!
# until the run has its temporary file and has noted it in the run
# directory (a moment later: a kill between the two leaves a file no
# run knows of)
end=$((SECONDS + 240))
until { ls "$TMP/d1" | grep -q 'tmp' && [ -s "$(run_file output $REC)" ]; } ||
	! alive $REC || [ $SECONDS -ge $end ]; do
	sleep 0.05
done
ls "$TMP/d1" | grep -q 'tmp' || fail "the run made no temporary file"
kill -KILL $REC; wait $REC 2>/dev/null; REC=
echo stale >"$TMP/d2/other.json.perpkt-tmp.AbC123"
expect_exit 0 "$PERPKT" record -d 0.2 -w 0.1 -o "$TMP/d2/b.json"
[ -z "$(ls "$TMP/d1")" ] || fail "the killed run's file is still there: $(ls "$TMP/d1")"
[ "$(ls "$TMP/d2")" = b.json ] || fail "a stale file beside the new -o is still there: $(ls "$TMP/d2")"
grep -q "removed '$TMP/d1/a.json.perpkt-tmp" "$TMP/err" || fail "the removal was not said: $(cat "$TMP/err")"
echo "ok: foreign and dangling links refused, owners kept, -o - appends, stale files removed"
