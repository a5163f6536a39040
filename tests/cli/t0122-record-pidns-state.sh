# SPDX-License-Identifier: GPL-2.0-only
# Two PID namespaces share /run: a record --rps-cpus that is PID 1 of
# one is SIGKILLed, and the next run, PID 1 of another, must put the
# killed run's mask back (its state file is not the next run's own,
# though both are pid 1) and record the original as the system's.
# Beside them, all along, another perpkt record changes the mask of a
# network namespace of its own (issue 49: with other runs going on, the
# next run left the mask at 2): neither waits for the other, nor puts
# back the other's.
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
command -v unshare >/dev/null || skip "needs unshare (util-linux)"
unshare -pf --mount-proc true 2>/dev/null || skip "cannot unshare a PID namespace here"
orig=$(cat $RPS)
NS= B=
cleanup() {
	[ -n "$B" ] && kill -TERM $B 2>/dev/null && wait $B 2>/dev/null
	[ -n "$NS" ] && ip netns del "$NS" 2>/dev/null
	# the namespace's PID 1 first: killing unshare leaves it running
	[ -n "${U:-}" ] && [ -z "${IN:-}" ] && IN=$(cat /proc/$U/task/$U/children 2>/dev/null)
	[ -n "${IN:-}" ] && kill -KILL $IN 2>/dev/null
	[ -n "${U:-}" ] && kill -KILL "$U" 2>/dev/null
	echo "$orig" >$RPS
	rm -rf "$TMP"
}
trap cleanup EXIT
want=2
[ "$((16#$orig))" = 2 ] && want=1

# beside: a run in a namespace of its own, holding that namespace's
# lock, its lo's mask set to $want there, until this test ends
test_namespace beside
in_ns sh -c "[ -w $RPS ]" || skip "no writable $RPS in a new network namespace"
# not in_ns: a function would run in a subshell, and B be its pid
ip netns exec "$NS" "$PERPKT" record -q -d 300 -w 0.1 --rps-cpus $want \
	-o "$TMP/beside.json" 2>"$TMP/errb" &
B=$!
end=$((SECONDS + 120))
until [ "$((16#$(in_ns cat $RPS)))" = $want ]; do
	alive $B || fail "the run beside ended: $(cat "$TMP/errb")"
	[ $SECONDS -lt $end ] || fail "the run beside never set its mask: $(cat "$TMP/errb")"
	sleep 0.05
done

# the first run: PID 1 of a namespace of its own
unshare -pf --mount-proc "$PERPKT" record -q -d 300 -w 0.1 --rps-cpus $want \
	-o "$TMP/killed.json" 2>"$TMP/err1" &
U=$!
# until it has noted and set the mask (the note comes first)
end=$((SECONDS + 120)) state=
until [ -n "$state" ] && [ "$((16#$(cat $RPS)))" = $want ]; do
	alive $U || fail "the first run ended: $(cat "$TMP/err1")"
	[ $SECONDS -lt $end ] || fail "the first run never set the mask: $(cat "$TMP/err1")"
	sleep 0.05
	state=$(grep -l "^$RPS " /run/perpkt/state.1 /run/perpkt/state.1-* 2>/dev/null | head -1)
done
# its pid out here: unshare's child
IN=$(cat /proc/$U/task/$U/children); IN=${IN%% *}
[ -n "$IN" ] && grep -q perpkt /proc/$IN/comm || fail "no perpkt under unshare $U"
kill -KILL $IN; wait $U 2>/dev/null; U= IN=
[ "$((16#$(cat $RPS)))" = $want ] || fail "the mask was put back without perpkt? $(cat $RPS)"

# the next: PID 1 of another namespace (any perpkt that starts puts a
# dead run's settings back: on a machine where other perpkt runs go
# on, one of them may have done it first)
ours=1
[ -e "$state" ] || ours=0
expect_exit 0 unshare -pf --mount-proc "$PERPKT" record -d 0.2 -w 0.1 -o "$TMP/next.json"
[ "$(cat $RPS)" = "$orig" ] || fail "the next run left the mask at $(cat $RPS), not $orig: $(cat "$TMP/err")"
if [ $ours = 1 ]; then
	grep -q "restored '$RPS' to '$orig' in network namespace net:\[[0-9]*\] (device lo): perpkt pid 1 of another PID namespace was killed" "$TMP/err" ||
		fail "the next run did not say what it restored: $(cat "$TMP/err")"
else
	echo "note: another perpkt on this machine restored the mask before the next run" >&2
fi
[ ! -e "$state" ] || fail "the killed run's state file is still there"
jq -e --arg m "$orig" '.conditions["net.rps_cpus"] == "lo rx-0: \($m)"' "$TMP/next.json" >/dev/null ||
	fail "the next profile recorded: $(jq -c '.conditions["net.rps_cpus"]' "$TMP/next.json")"
[ "$((16#$(in_ns cat $RPS)))" = $want ] ||
	fail "the mask beside, in namespace $NS, was changed: $(in_ns cat $RPS)"
grep -q "waiting for" "$TMP/err1" "$TMP/err" &&
	fail "a run waited for the one in another namespace: $(cat "$TMP/err1" "$TMP/err")"
kill -TERM $B; wait $B; B=
[ "$((16#$(in_ns cat $RPS)))" = 0 ] ||
	fail "the run beside did not put its mask back: $(in_ns cat $RPS)"
echo "ok: a killed run's mask put back from another PID namespace ($want -> $orig), another namespace's run beside"
