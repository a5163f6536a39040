# SPDX-License-Identifier: GPL-2.0-only
# SIGKILL during record --rps-cpus leaves lo's mask changed: the next
# perpkt puts it back (and says so) before it reads the setting, so no
# profile records a killed run's mask as the system's own.
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
orig=$(cat $RPS)
trap 'echo "$orig" >$RPS; rm -rf "$TMP"' EXIT
want=2
[ "$((16#$orig))" = 2 ] && want=1

"$PERPKT" record -q -d 300 -w 0.1 --rps-cpus $want -o "$TMP/killed.json" 2>"$TMP/err1" &
pid=$!
# until it has set the mask (however long a busy machine takes)
end=$((SECONDS + 120))
while [ "$((16#$(cat $RPS)))" != $want ] && alive $pid && [ $SECONDS -lt $end ]; do
	sleep 0.05
done
[ "$((16#$(cat $RPS)))" = $want ] || fail "record never set the mask: $(cat "$TMP/err1")"
state=$(run_file state $pid)
[ -n "$state" ] || fail "no state file for pid $pid: $(ls /run/perpkt)"
kill -KILL $pid
wait $pid 2>/dev/null
[ "$((16#$(cat $RPS)))" = $want ] || fail "the mask was put back without perpkt? $(cat $RPS)"

# the same -o: its temporary file from the killed run goes too
# (any perpkt that starts puts a dead run's settings back: on a machine
# where other perpkt runs go on, one of them may have done it first)
ours=1
[ -e "$state" ] || ours=0
expect_exit 0 "$PERPKT" record -d 0.2 -w 0.1 -o "$TMP/killed.json"  # not -q: the restore is a warning
[ "$(cat $RPS)" = "$orig" ] || fail "the next run left the mask at $(cat $RPS), not $orig"
if [ $ours = 1 ]; then
	grep -q "restored '$RPS' to '$orig' in network namespace net:\[[0-9]*\] (device lo): perpkt pid $pid was killed" "$TMP/err" ||
		fail "the next run did not say what it restored: $(cat "$TMP/err")"
else
	echo "note: another perpkt on this machine restored the mask before the next run" >&2
fi
[ ! -e "$state" ] || fail "state file left after the restore"
jq -e --arg m "$orig" '.conditions["net.rps_cpus"] == "lo rx-0: \($m)"' "$TMP/killed.json" >/dev/null ||
	fail "the next profile recorded: $(jq -c ".conditions" "$TMP/killed.json")"
ls "$TMP" | grep -q '\.tmp\.' && fail "temporary file of the killed run is still there: $(ls "$TMP")"
echo "ok: killed run's mask $want put back to $orig"
