# SPDX-License-Identifier: GPL-2.0-only
# --busy CPUS: a user-space spinner pinned on each CPU for the warm-up
# and the window (the RPS thread's `while :; do :; done &`), its samples
# the role 'busy', never the client's or the responder's; the
# conditions name its CPUs and the workload CPUs that shared one; no
# spinner outlives the run, whether it ends, gets SIGINT or SIGKILL.
# A /run/perpkt of its own (own_rundir): a run killed here leaves notes
# that the test's next run or \`perpkt restore\` must find, and any
# perpkt record that shares the directory undoes a dead run's notes
# first (seen: t0813's restore found them gone at -j 4, when these tests
# shared the host's). The settings the notes are about are the host's:
# it holds the lock \`host\` (no ctest-lock line).
. "$(dirname "$0")/lib.sh"
own_rundir "$@"
need_perf
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"

# spinners: the pids named perpkt-busy whose parent is $1
spinners() { pgrep -x -P "$1" perpkt-busy || true; }
# wait_spinner PID: until PID has a spinner (it names itself after fork)
wait_spinner() {
	local end=$((SECONDS + 60))
	until [ -n "$(spinners "$1")" ]; do
		alive "$1" || fail "perpkt ended before its spinner ran: $(tail -3 "$TMP/err")"
		[ "$SECONDS" -lt "$end" ] || fail "no spinner under perpkt $1 within 60 s"
	done
	spinners "$1"
}
# wait_gone PID...: until none of them is left (a killed process is
# reaped by whoever inherits it)
wait_gone() {
	local end=$((SECONDS + 60)) p left
	while :; do
		left=
		for p in "$@"; do alive "$p" && left="$left $p"; done
		[ -z "$left" ] && return 0
		[ "$SECONDS" -lt "$end" ] || fail "spinner(s)$left still running"
	done
}

# bad input, refused before a run
expect_exit 64 "$PERPKT" record --busy x -o "$TMP/bad.json"
grep -q "invalid CPU list 'x'" "$TMP/err" || fail "busy x: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --busy 0 --per count:1 -o "$TMP/bad.json" -- true
grep -q "'--busy' is for the built-in workload" "$TMP/err" || fail "busy with a command: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --busy 1000 -o "$TMP/bad.json"
expect_exit 2 "$PERPKT" record --busy 200 -o "$TMP/bad.json"
grep -q "200" "$TMP/err" || fail "busy 200: $(cat "$TMP/err")"
[ ! -e "$TMP/bad.json" ] || fail "a refused run wrote a profile"

# a spinner on CPU 0, the workload on CPU 1; user space sampled too, so
# the spinner's own loop is sampled
expect_exit 0 "$PERPKT" record -q --user --busy 0 --client-cpu 1 --server-cpu 1 \
	-w 0.2 -d 1 -o "$TMP/b.json"
[ -z "$(pgrep -x perpkt-busy)" ] || fail "a spinner outlived the run: $(pgrep -a -x perpkt-busy)"
jq -e '.conditions["workload.busy"] == "0" and
	.conditions["workload.busy_shared"] == "none: no workload CPU had a spinner"' "$TMP/b.json" >/dev/null ||
	fail "conditions: $(jq -c '.conditions | with_entries(select(.key | startswith("workload.busy")))' "$TMP/b.json")"
jq -c '[.samples[] | {k: "\(.role)@\(.cpu)", count}] | group_by(.k) | map({(.[0].k): (map(.count) | add)}) | add' "$TMP/b.json"
# the busy role has samples, all on the spinner's CPU, and the client
# and the responder (pinned to CPU 1) none there: the spinner's time is
# its own (user space is one address, 0x1, so CPUs tell them apart)
jq -e '([.samples[] | select(.role == "busy") | .count] | add) > 0 and
	([.samples[] | select(.role == "busy" and .cpu != 0)] | length) == 0 and
	([.samples[] | select((.role == "client" or .role == "responder") and .cpu == 0)] | length) == 0' "$TMP/b.json" >/dev/null ||
	fail "busy samples misattributed"
# the spinner is no workload task: its row is among every task's
"$PERPKT" report -i "$TMP/b.json" --by role --all-tasks >"$TMP/r.txt" || fail "report failed"
grep -qE '^ +[0-9]+ .* busy$' "$TMP/r.txt" || fail "no busy row: $(cat "$TMP/r.txt")"

# a spinner on the workload's CPU: the conditions say it shared
expect_exit 0 "$PERPKT" record -q --busy 1 --client-cpu 1 --server-cpu 1 -w 0.1 -n 300 -o "$TMP/s.json"
jq -e '.conditions["workload.busy_shared"] == "the client'"'"'s and the responder'"'"'s CPU 1"' "$TMP/s.json" >/dev/null ||
	fail "shared: $(jq -c '.conditions["workload.busy_shared"]' "$TMP/s.json")"

# SIGINT during the warm-up: the spinner is killed with the run
spawn "$TMP/err" "$PERPKT" record -v --busy 0 --client-cpu 1 -w 30 -d 1 -o "$TMP/i.json"
pid=$SPAWNED
wait_line "$TMP/err" '^perpkt: warm-up: ' $pid
spin=$(wait_spinner $pid)
grep -q '^Cpus_allowed_list:[[:space:]]*0$' /proc/$spin/status ||
	fail "spinner not pinned to CPU 0: $(grep Cpus_allowed_list /proc/$spin/status)"
kill -INT $pid; wait $pid || true
wait_gone $spin

# SIGKILL: the spinner dies with perpkt (PR_SET_PDEATHSIG)
spawn "$TMP/err" "$PERPKT" record -v --busy 0 --client-cpu 1 -w 30 -d 1 -o "$TMP/k.json"
pid=$SPAWNED
wait_line "$TMP/err" '^perpkt: warm-up: ' $pid
spin=$(wait_spinner $pid)
kill -KILL $pid; wait $pid || true
wait_gone $spin
"$PERPKT" restore >/dev/null 2>&1 || true
echo ok
