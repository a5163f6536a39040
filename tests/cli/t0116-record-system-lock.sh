# SPDX-License-Identifier: GPL-2.0-only
# One run at a time changes the system: a second record --rps-cpus
# waits for the first (saying for whom) or fails with --no-wait; each
# puts back what it changed, so two at once leave lo's mask as it was;
# a mask changed by someone else during a run is marked in its profile;
# after a SIGKILL, `perpkt restore` puts the mask back from the state
# file written before the change.
# A /run/perpkt of its own (own_rundir): a run killed here leaves notes
# that the test's next run or \`perpkt restore\` must find, and any
# perpkt record that shares the directory undoes a dead run's notes
# first (seen: t0813's restore found them gone at -j 4, when these tests
# shared the host's). The settings the notes are about are the host's:
# it holds the lock \`host\` (no ctest-lock line).
. "$(dirname "$0")/lib.sh"
own_rundir "$@"
need_perf
need_lo_rps
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs for three distinct masks"
orig=$(cat $RPS)
cleanup() {
	for p in ${A:-} ${C:-} ${D:-}; do kill -KILL "$p" 2>/dev/null; done
	echo "$orig" >$RPS
	rm -rf "$TMP"
}
trap cleanup EXIT
# three masks, none of them lo's own
masks=""
for m in 1 2 3; do [ "$((16#$orig))" = $m ] || masks="$masks $m"; done
set -- $masks
m1=$1 m2=$2 other=${3:-0}
is() { [ "$((16#$(cat $RPS)))" = "$1" ]; }
wait_for() {  # wait_for WHAT CMD...: until CMD succeeds, 10 s at most
	local what=$1; shift
	for _ in $(seq 200); do "$@" && return 0; sleep 0.05; done
	fail "$what"
}

"$PERPKT" record -d 4 -w 0.1 --rps-cpus $m1 -o "$TMP/a.json" 2>"$TMP/a.err" &
A=$!
wait_for "the first run never set the mask: $(cat "$TMP/a.err")" is $m1
# another run that would change the system: refused, or it waits
expect_exit 2 "$PERPKT" record -q -d 0.2 -w 0 --rps-cpus $m2 --no-wait -o "$TMP/b.json"
grep -q "perpkt pid $A (.*record.*) is changing the system's settings: not waiting" "$TMP/err" ||
	fail "--no-wait did not name the run: $(cat "$TMP/err")"
is $m1 || fail "the refused run changed the mask: $(cat $RPS)"
"$PERPKT" record -d 0.3 -w 0 --rps-cpus $m2 -o "$TMP/c.json" 2>"$TMP/c.err" &
C=$!
wait_for "the second run did not say it waits: $(cat "$TMP/c.err")" \
	grep -q "waiting for perpkt pid $A" "$TMP/c.err"
is $m1 || fail "the waiting run changed the mask: $(cat $RPS)"
# someone else changes the mask under the first run
echo $other >$RPS
rc=0; wait $A || rc=$?; A=
[ $rc = 0 ] || fail "the first run: exit $rc: $(cat "$TMP/a.err")"
jq -e --arg o "$other" '.conditions["system.changed_during_run"] |
	test("lo rx-0 rps_cpus 0*[0-9a-f]+ -> 0*\($o)")' "$TMP/a.json" >/dev/null ||
	fail "the change is not in the profile: $(jq -c .conditions "$TMP/a.json")"
grep -q "changed during the run by something other than this perpkt" "$TMP/a.err" ||
	fail "no warning of the change: $(cat "$TMP/a.err")"
rc=0; wait $C || rc=$?; C=
[ $rc = 0 ] || fail "the second run: exit $rc: $(cat "$TMP/c.err")"
jq -e --arg m "$m2" '.conditions["net.rps_cpus"] | test("^lo rx-0: 0*\($m) \\(set for the run")' \
	"$TMP/c.json" >/dev/null || fail "the second run's mask: $(jq -c '.conditions["net.rps_cpus"]' "$TMP/c.json")"
# both put back what they found: the first its own, the second the first's
[ "$(cat $RPS)" = "$orig" ] || fail "two runs at once left the mask at $(cat $RPS), not $orig"
jq -e '.conditions["system.changed_during_run"] == null' "$TMP/c.json" >/dev/null ||
	fail "the second run saw a change: $(jq -c .conditions "$TMP/c.json")"

# SIGKILL: the state file was written before the change; restore puts it back
"$PERPKT" record -q -d 30 -w 0 --rps-cpus $m1 -o "$TMP/d.json" 2>/dev/null &
D=$!
wait_for "the killed run never set the mask" is $m1
state=$(run_file state $D)
[ -s "$state" ] || fail "no state file for pid $D"
kill -KILL $D; wait $D 2>/dev/null; D=
expect_exit 0 "$PERPKT" restore
grep -q "restored '$RPS' to '$orig' in network namespace net:\[[0-9]*\] (device lo): perpkt pid [0-9]* was killed" "$TMP/err" ||
	fail "restore did not say what it put back: $(cat "$TMP/err")"
[ "$(cat $RPS)" = "$orig" ] || fail "restore left the mask at $(cat $RPS)"
[ ! -e "$state" ] || fail "state file left after restore"
ls "$TMP" | grep -q 'tmp' && fail "restore left the killed run's temporary file: $(ls "$TMP")"
expect_exit 0 "$PERPKT" restore
grep -q "nothing to put back" "$TMP/err" || fail "a second restore: $(cat "$TMP/err")"
echo "ok: one run at a time, change marked, killed run put back by restore"
