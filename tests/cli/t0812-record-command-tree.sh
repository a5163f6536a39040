# SPDX-License-Identifier: GPL-2.0-only
# record -- CMD keeps the command's whole process tree: a background
# child that outlives its parent (sh -c 'spin & exec sleep 1') is still
# the workload, its CPU time is counted, and when the window closes it
# is ended (SIGTERM, then SIGKILL) and reaped, said on stderr, so
# nothing is left running.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

PIDFILE="$TMP/orphan.pid"
expect_exit 0 "$PERPKT" record --per count:10 -d 5 -o "$TMP/p.json" -- \
	sh -c 'sh -c "while :; do :; done" & echo $! >"$1"; exec sleep 1' sh "$PIDFILE"
[ -s "$PIDFILE" ] || fail "the command did not start its child"
orphan=$(cat "$PIDFILE")
grep -q "the command left 1 process running: ended with SIGTERM" "$TMP/err" ||
	fail "no word of the process left behind: $(cat "$TMP/err")"
if kill -0 "$orphan" 2>/dev/null; then
	kill -9 "$orphan"
	fail "the orphan $orphan still runs after record returned"
fi
# a zombie would still be in /proc: reaped means gone
[ ! -e "/proc/$orphan" ] || fail "the orphan $orphan was not reaped"
# the spinning orphan ran about a second, all of it the workload's: on
# a CPU or waiting for one (on a loaded machine it had 294 ms of CPU and
# waited 740 ms); sh and sleep alone would have neither
jq -e '[.workload.tasks[] | select(.role == "workload")] |
	([.[].cpu_ns] | add) > 50000000 and ([.[] | .cpu_ns + .wait_ns] | add) > 600000000' "$TMP/p.json" >/dev/null ||
	fail "the orphan's CPU time is not the workload's: $(jq -c .workload.tasks "$TMP/p.json")"


# a unit that counts nothing says where it was counted (as root in a
# namespace of the test's own: the host's loopback carries the
# datagrams of other tests running beside this one)
inns=()
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
	trap 'ip netns del "$NS" 2>/dev/null; rm -rf "$TMP"' EXIT
	test_namespace z
	inns=(ip netns exec "$NS")
fi
expect_exit 1 "${inns[@]}" "$PERPKT" record --per udp-datagrams -d 0.5 -w 0 -o "$TMP/z.json" -- sleep 1
grep -q "no udp-datagrams were counted in the window" "$TMP/err" &&
grep -q "perpkt's network namespace net:" "$TMP/err" ||
	fail "a unit counting 0 does not say why: $(cat "$TMP/err")"
echo "ok"
