# SPDX-License-Identifier: GPL-2.0-only
# record -o: a device node, FIFO or symlink is written through (never
# replaced by a regular file), the umask is honoured, a bad path fails
# before the measurement, and a write that fails at the end keeps the data.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root (mknod, mount)"

rec() { "$PERPKT" record -q -d 0.2 -w 0.1 "$@"; }

# a character device stays one (c 1 3 is /dev/null)
mknod "$TMP/null" c 1 3
expect_exit 0 rec -o "$TMP/null"
[ -c "$TMP/null" ] || fail "-o onto a character device replaced it: $(ls -l "$TMP/null")"
ls "$TMP" | grep -q tmp && fail "temporary file left beside a device: $(ls "$TMP")"

# a FIFO is written through: the reader gets the whole profile (one only
# root may read: others' FIFOs, t0121)
mkfifo -m 600 "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/from-fifo.json" &
reader=$!
expect_exit 0 rec -o "$TMP/fifo"
wait $reader
[ -p "$TMP/fifo" ] || fail "-o onto a FIFO replaced it"
jq -e '.format == "perpkt-profile"' "$TMP/from-fifo.json" >/dev/null ||
	fail "the FIFO's reader did not get a profile"

# a symlink is followed: the link stays, its target gets the profile;
# no file is created through a link whose target does not exist yet
# (another user's links: t0115)
mkdir "$TMP/real"
ln -s real/target.json "$TMP/link.json"
expect_exit 2 rec -o "$TMP/link.json"
[ ! -e "$TMP/real/target.json" ] || fail "a file was created through a dangling symlink"
echo old >"$TMP/real/target.json"
expect_exit 0 rec -o "$TMP/link.json"
[ -L "$TMP/link.json" ] || fail "-o onto a symlink replaced the link"
jq -e '.format == "perpkt-profile"' "$TMP/real/target.json" >/dev/null ||
	fail "the symlink's target has no profile"

# a new profile is the owner's alone, less what the umask takes; a
# replaced file keeps its own mode
(umask 077 && rec -o "$TMP/mode.json") || fail "record with umask 077 failed"
[ "$(stat -c %a "$TMP/mode.json")" = 600 ] ||
	fail "umask 077 gave mode $(stat -c %a "$TMP/mode.json"), expected 600"
rm "$TMP/mode.json"
(umask 277 && rec -o "$TMP/mode.json") || fail "record with umask 277 failed"
[ "$(stat -c %a "$TMP/mode.json")" = 400 ] ||
	fail "umask 277 gave mode $(stat -c %a "$TMP/mode.json"), expected 400"
chmod 640 "$TMP/mode.json"
(umask 077 && rec -o "$TMP/mode.json") || fail "second record failed"
[ "$(stat -c %a "$TMP/mode.json")" = 640 ] ||
	fail "a replaced file lost its mode: $(stat -c %a "$TMP/mode.json")"

# a bad path fails before the run: -d 30 would take 30 s otherwise
ro=$TMP/ro full=$TMP/full
mkdir "$ro" "$full"
mount -t tmpfs -o size=1m tmpfs "$ro"
echo keep >"$ro/old.json"
mount -o remount,ro "$ro"
mount -t tmpfs -o size=256k tmpfs "$full"
trap 'umount "$ro" "$full" 2>/dev/null; rm -rf "$TMP"' EXIT
echo keep >"$full/old.json"
dd if=/dev/zero of="$full/fill" bs=4k 2>/dev/null || true
for bad in "/nonexistent-dir/x.json" "" "$TMP" "$ro/old.json" "$full/old.json"; do
	start=$SECONDS
	expect_exit 2 "$PERPKT" record -q -d 60 -w 0 -o "$bad"
	# before the 60 s run, however busy the machine
	[ $((SECONDS - start)) -le 30 ] || fail "-o '$bad' was refused only after the run"
	[ -s "$TMP/err" ] || fail "-o '$bad': no error message"
	grep -q "round trips" "$TMP/err" && fail "-o '$bad': the workload ran"
done
[ "$(cat "$ro/old.json")" = keep ] && [ "$(cat "$full/old.json")" = keep ] ||
	fail "a refused -o changed the existing file"
ls "$full" | grep -q tmp && fail "temporary file left on the full filesystem"

# a write that fails at the end keeps the data and names where
mkfifo -m 600 "$TMP/short"
# a 4 KiB pipe, read 10 bytes and left: the writer gets EPIPE mid-profile
# (opened and sized before the writer starts, while the pipe is empty:
# the reader says so in a file)
python3 -c 'import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 4096)
open(sys.argv[2], "w").close()
data = b""
while not data:
    time.sleep(0.01)
    try: data = os.read(fd, 10)
    except BlockingIOError: pass' "$TMP/short" "$TMP/short.ready" &
reader=$!
wait_file "$TMP/short.ready" $reader
TMPDIR=$TMP expect_exit 2 rec -o "$TMP/short"
wait $reader
kept=$(sed -n "s/.* is kept in '\([^']*\)'.*/\1/p" "$TMP/err")
[ -n "$kept" ] || fail "a failed write did not say where the data went: $(cat "$TMP/err")"
jq -e '.format == "perpkt-profile" and .workload.round_trips > 0' "$kept" >/dev/null ||
	fail "the kept file '$kept' is not the profile"

# a temporary file a killed run left beside the output is removed
echo stale >"$TMP/k.json.tmp.AbC123"
expect_exit 0 rec -o "$TMP/k.json"
[ -e "$TMP/k.json.tmp.AbC123" ] && fail "stale temporary file was not removed"
echo "ok: devices, FIFOs, symlinks, umask, early and late failures"
