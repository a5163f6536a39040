# SPDX-License-Identifier: GPL-2.0-only
# record -- CMD puts the command's tree in a cgroup of its own: a daemon
# that left the command's process group (setsid) is ended with the run
# and named; and when record is SIGKILLed, `perpkt restore` kills what
# its command left running, daemon and children alike, and says so.
# A /run/perpkt of its own (own_rundir): a run killed here leaves notes
# that the test's next run or \`perpkt restore\` must find, and any
# perpkt record that shares the directory undoes a dead run's notes
# first (seen: t0813's restore found them gone at -j 4, when these tests
# shared the host's). The settings the notes are about are the host's:
# it holds the lock \`host\` (no ctest-lock line).
. "$(dirname "$0")/lib.sh"
own_rundir "$@"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root to make a cgroup"
grep -q ' - cgroup2 ' /proc/self/mountinfo || skip "no cgroup2 mounted"
cleanup() {
	local f
	[ -n "${REC:-}" ] && kill -KILL "$REC" 2>/dev/null
	for f in "$TMP"/*.pid; do
		[ -s "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
# a command that starts a daemon (setsid: a session and group of its
# own) and a child, writes their pids, then waits for $TMP/go
cmd() {
	echo "setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo \$! >'$TMP/$1-daemon.pid'
	sleep 1000 & echo \$! >'$TMP/$1-child.pid'
	until [ -e '$TMP/$1-go' ]; do sleep 0.05; done"
}

# a run that ends: the daemon ends with it, named (not -q: a warning)
"$PERPKT" record -w 0 --per count:1 -o "$TMP/a.json" -- sh -c "$(cmd a)" 2>"$TMP/a.err" &
REC=$!
wait_file "$TMP/a-child.pid" $REC
daemon=$(cat "$TMP/a-daemon.pid")
alive "$daemon" || fail "the daemon did not start"
touch "$TMP/a-go"
rc=0; wait $REC || rc=$?; REC=
[ $rc = 0 ] || fail "record exited $rc: $(cat "$TMP/a.err")"
! alive "$daemon" || fail "the setsid daemon $daemon outlived the run"
grep -q "left 1 process outside its process group (setsid, a daemon): 'sleep' (pid $daemon)" "$TMP/a.err" ||
	fail "the daemon was not named: $(cat "$TMP/a.err")"
jq -e --arg d "'sleep' (pid $daemon)" '.conditions["workload.escaped"] == $d' "$TMP/a.json" >/dev/null ||
	fail "the profile does not name the daemon: $(jq -c '.conditions["workload.escaped"]' "$TMP/a.json")"

# SIGKILL: the daemon and the child run on until restore ends them
"$PERPKT" record -q -w 0 --per count:1 -o "$TMP/b.json" -- sh -c "$(cmd b)" 2>"$TMP/b.err" &
REC=$!
wait_file "$TMP/b-child.pid" $REC
daemon=$(cat "$TMP/b-daemon.pid") child=$(cat "$TMP/b-child.pid")
kill -KILL $REC; wait $REC 2>/dev/null; REC=
alive "$daemon" && alive "$child" || fail "the command's processes ended with record by themselves"
expect_exit 0 "$PERPKT" restore
grep -q "killed [0-9]* processes of the command of perpkt pid [0-9]*, which was killed: .*(pid $daemon)" "$TMP/err" ||
	fail "restore did not say what it killed: $(cat "$TMP/err")"
grep -q "(pid $child)" "$TMP/err" || fail "restore did not name the child: $(cat "$TMP/err")"
end=$((SECONDS + 30))
while { alive "$daemon" || alive "$child"; } && [ $SECONDS -lt $end ]; do sleep 0.05; done
! alive "$daemon" && ! alive "$child" || fail "restore left the killed run's processes running"
expect_exit 0 "$PERPKT" restore
grep -q "killed [0-9]* processes" "$TMP/err" && fail "a second restore killed again: $(cat "$TMP/err")"
echo "ok: the command's daemon ended with the run and named; a killed run's tree ended by restore"
