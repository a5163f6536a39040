# SPDX-License-Identifier: GPL-2.0-only
# Root's profile (kernel addresses, command lines, the host's name) is
# never handed to another user: a file or FIFO another user owns is
# refused before the run, and a file another user makes at the name
# during the run is refused at the end (the profile kept elsewhere), as
# fs.protected_regular and protected_fifos would, unless --force-output;
# a FIFO others may open is refused; a FIFO with no reader ends with a
# word, not a hang; a new profile is 0600. And a user's -o below a
# directory it may only search (0711) is written, as the kernel allows.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
[ -x /usr/bin/python3 ] || skip "needs /usr/bin/python3 (the test user reads a FIFO with it)"
make_test_user
cleanup() {
	local v
	[ -n "${READER:-}" ] && touch "$S/f.stop"  # the reader's own stop
	for v in READER REC; do
		[ -n "${!v:-}" ] && kill -KILL "${!v}" 2>/dev/null
	done
	drop_test_user
	rm -rf "$TMP"
}
trap cleanup EXIT

rec() { "$PERPKT" record -q -d 0.2 -w 0.1 "$@"; }
profile() { jq -e '.format == "perpkt-profile"' "$1" >/dev/null; }
chmod 755 "$TMP"
S=$TMP/sticky            # a /tmp of the test's own
mkdir -m 1777 "$S"

# a file the user made first, mode 666: refused before the run, untouched
as_test_user sh -c "umask 0; echo mine >'$S/x.json'" || fail "cannot make the user's file"
expect_exit 2 rec -o "$S/x.json"
grep -q "refusing to write the profile into '$S/x.json': it is a file owned by $TEST_USER" "$TMP/err" ||
	fail "no word of the user's file: $(cat "$TMP/err")"
grep -q "round trips" "$TMP/err" && fail "the run went on before refusing"
[ "$(cat "$S/x.json")" = mine ] && [ "$(stat -c %U "$S/x.json")" = "$TEST_USER" ] ||
	fail "the user's file changed: $(stat -c '%U %a' "$S/x.json")"
# --force-output: written, the file keeps its owner and mode
expect_exit 0 rec --force-output -o "$S/x.json"
profile "$S/x.json" && [ "$(stat -c '%U %a' "$S/x.json")" = "$TEST_USER 666" ] ||
	fail "--force-output: $(stat -c '%U %a' "$S/x.json")"

# the user's FIFO, the user reading it: refused, the reader gets nothing
as_test_user mkfifo -m 622 "$S/f" || fail "cannot make the user's FIFO"
# (the reader opens it without waiting for a writer, says so, and reads
# until told to stop)
as_test_user /usr/bin/python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
open(sys.argv[2], "w").close()
data = b""
while not os.path.exists(sys.argv[3]):
    try: data += os.read(fd, 65536)
    except BlockingIOError: pass
    time.sleep(0.02)
sys.stdout.buffer.write(data)' "$S/f" "$S/f.ready" "$S/f.stop" >"$TMP/stolen" &
READER=$!
wait_file "$S/f.ready" $READER
expect_exit 2 rec -o "$S/f"
grep -q "refusing to write the profile into '$S/f': it is a FIFO owned by $TEST_USER" "$TMP/err" ||
	fail "no word of the user's FIFO: $(cat "$TMP/err")"
touch "$S/f.stop"
wait $READER; READER=
[ ! -s "$TMP/stolen" ] || fail "the user's reader got $(wc -c <"$TMP/stolen") bytes"

# root's own FIFO that others may open to read: refused
mkfifo -m 644 "$TMP/open.fifo"
expect_exit 2 rec -o "$TMP/open.fifo"
grep -q "it is a FIFO that other users may open to read (mode 644" "$TMP/err" ||
	fail "a FIFO others may read was not refused: $(cat "$TMP/err")"

# root's FIFO, mode 600, that nobody reads: a word and the data kept,
# not a hang (the wait is 30 s)
mkfifo -m 600 "$TMP/lonely.fifo"
TMPDIR=$TMP EXPECT_TIMEOUT=150 expect_exit 2 rec -o "$TMP/lonely.fifo"
grep -q "cannot write '$TMP/lonely.fifo': no reader opened the FIFO within 30 s" "$TMP/err" ||
	fail "no word of the missing reader: $(cat "$TMP/err")"
kept=$(sed -n "s/.* is kept in '\([^']*\)'.*/\1/p" "$TMP/err")
[ -n "$kept" ] && profile "$kept" || fail "the profile was not kept: $(cat "$TMP/err")"

# a new profile is 0600 whatever the umask lets through
(umask 022 && rec -o "$TMP/new.json") || fail "record with umask 022 failed"
[ "$(stat -c %a "$TMP/new.json")" = 600 ] ||
	fail "a new profile is mode $(stat -c %a "$TMP/new.json"), not 600"

# the user makes the file while the run goes on: refused at the end,
# the profile kept in a file of root's (a workload of its own that ends
# when the test says: the name is planted inside the window)
TMPDIR=$TMP "$PERPKT" record -q -w 0 --per count:1 -o "$S/race.json" -- \
	sh -c "until [ -e '$TMP/go' ]; do sleep 0.05; done" 2>"$TMP/race.err" &
REC=$!
end=$((SECONDS + 240))
until ls "$S" | grep -q 'race.json.perpkt-tmp' || ! alive $REC || [ $SECONDS -ge $end ]; do
	sleep 0.05
done
ls "$S" | grep -q 'race.json.perpkt-tmp' || fail "the run made no temporary file: $(cat "$TMP/race.err")"
as_test_user sh -c "umask 0; echo mine >'$S/race.json'" || fail "cannot plant the user's file"
touch "$TMP/go"
rc=0; wait $REC || rc=$?; REC=
[ $rc = 2 ] || fail "record exited $rc when the user planted the file: $(cat "$TMP/race.err")"
grep -q "refusing to write the profile into '$S/race.json': it is a file owned by $TEST_USER" "$TMP/race.err" ||
	fail "no word of the planted file: $(cat "$TMP/race.err")"
[ "$(cat "$S/race.json")" = mine ] || fail "the planted file was written"
kept=$(sed -n "s/.* is kept in '\([^']*\)'.*/\1/p" "$TMP/race.err")
[ -n "$kept" ] && profile "$kept" && [ "$(stat -c '%U %a' "$kept")" = "root 600" ] ||
	fail "the profile was not kept for root alone: $(cat "$TMP/race.err")"

# a user's -o below a directory of root's it may only search (0711)
mkdir -m 711 "$TMP/search-only" && mkdir "$TMP/search-only/u" &&
	chown "$TEST_USER" "$TMP/search-only/u" || fail "cannot make the directories"
jq . "$TMP/new.json" >"$TMP/in.json" && chmod 644 "$TMP/in.json"
expect_exit 0 as_test_user "$UPERPKT" merge -q -o "$TMP/search-only/u/m.json" "$TMP/in.json"
profile "$TMP/search-only/u/m.json" || fail "no merged profile below the 0711 directory"
echo "ok: foreign files and FIFOs refused, before and during the run; lonely FIFO times out; 0600"
