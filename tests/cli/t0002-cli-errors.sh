# SPDX-License-Identifier: GPL-2.0-only
# Bad input gets a clear message and the documented exit code, no crash.
# paranoid: its unprivileged record expects the refusal of paranoid >= 1,
# and t0111 sets 3 for a while
# ctest-lock: paranoid
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$PERPKT" --version
grep -q '^perpkt [0-9]' "$TMP/out" || fail "--version: $(cat "$TMP/out")"
expect_exit 0 "$PERPKT" --help
grep -q record "$TMP/out" || fail "--help lists no record command"
for cmd in record report; do
	expect_exit 0 "$PERPKT" $cmd --help
	grep -q "usage: perpkt $cmd" "$TMP/out" || fail "$cmd --help"
done
expect_exit 64 "$PERPKT"
expect_exit 64 "$PERPKT" frobnicate
grep -q "unknown command 'frobnicate'" "$TMP/err" || fail "unknown command message"
expect_exit 64 "$PERPKT" report --bogus
expect_exit 64 "$PERPKT" report extra-arg
expect_exit 64 "$PERPKT" record -d nonsense
grep -q "invalid --duration 'nonsense'" "$TMP/err" || fail "bad duration message: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --ring-pages 3
# stat parses record's common options with its own (record_getopt)
expect_exit 64 "$PERPKT" stat -d nonsense
grep -q "invalid --duration 'nonsense'" "$TMP/err" || fail "stat: bad duration message: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" stat -q -r 0
grep -q "invalid --repeat '0'" "$TMP/err" || fail "stat: own option after a common one: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" report --format xml

# missing and malformed profiles: exit 2 and the file named
expect_exit 2 "$PERPKT" report -i "$TMP/none.json"
grep -q "cannot read profile '$TMP/none.json'" "$TMP/err" || fail "missing profile message"
echo '{ "format": "perpkt-profile", "version": 1 ' >"$TMP/bad.json"
expect_exit 2 "$PERPKT" report -i "$TMP/bad.json"
grep -q "cannot read profile '$TMP/bad.json'" "$TMP/err" || fail "malformed profile message"
[ ! -s "$TMP/out" ] || fail "stdout not empty on failure"
echo '{ "format": "perpkt-profile", "version": 7 }' >"$TMP/new.json"
expect_exit 2 "$PERPKT" report -i "$TMP/new.json" --format json
grep -q "version 7 is newer" "$TMP/err" || fail "newer version message: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || fail "stdout not empty on failure under --format json"

# an unknown event: libpfm4's words and the name, nothing written
expect_exit 2 "$PERPKT" record -q -e NO_SUCH_EVENT_XYZ -o "$TMP/x.json"
grep -q "cannot encode event 'NO_SUCH_EVENT_XYZ'" "$TMP/err" || fail "unknown event message: $(cat "$TMP/err")"
grep -qi "not found\|event not" "$TMP/err" || fail "no libpfm4 error text: $(cat "$TMP/err")"
[ ! -e "$TMP/x.json" ] || fail "a profile was written for a failed record"

# a CPU that is not online
expect_exit 2 "$PERPKT" record -q --client-cpu 1000 -o "$TMP/x.json"
grep -q "client CPU 1000 is not online: the online CPUs are $(cat /sys/devices/system/cpu/online)" "$TMP/err" ||
	fail "offline CPU message: $(cat "$TMP/err")"

# a usage error: the reason, the usage line and where the options are,
# not the whole help
expect_exit 64 "$PERPKT" record --no-such-option
[ "$(wc -l <"$TMP/err")" -le 4 ] || fail "a usage error printed $(wc -l <"$TMP/err") lines"
grep -q "^see 'perpkt record --help' for its options" "$TMP/err" || fail "no pointer to --help: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" report base.json
grep -q "a profile is read with -i (perpkt report -i base.json)" "$TMP/err" ||
	fail "report FILE without -i: $(cat "$TMP/err")"

# without privilege: the message names the sysctl and the capability
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	user_files
	expect_exit 2 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$UPERPKT" record -q -d 1 -o /tmp/perpkt-never-written.json
	grep -q "kernel.perf_event_paranoid" "$TMP/err" &&
		grep -q "CAP_PERFMON" "$TMP/err" ||
		fail "unprivileged message: $(cat "$TMP/err")"
fi
echo ok privileges
