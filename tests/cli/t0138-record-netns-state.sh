#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Saved state is keyed by the network namespace it changed (issue 49: a
# dead run's note was applied to the lo of another namespace): a run
# killed inside `ip netns exec` leaves a note naming that namespace and
# its device; a run in another namespace neither applies it nor drops
# it, `perpkt restore` there says where to run it, and `perpkt restore`
# inside the namespace puts the mask back, naming the namespace. A note
# whose namespace is gone is dropped.
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
command -v jq >/dev/null || skip "needs jq"
K= NS= NS2=
cleanup() {
	[ -n "$K" ] && kill -KILL $K 2>/dev/null
	[ -n "$NS" ] && ip netns del "$NS" 2>/dev/null
	[ -n "$NS2" ] && ip netns del "$NS2" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
orig=$(cat $RPS)

# kill_in NS: a record --rps-cpus 2 in NS, SIGKILLed once its note is
# written and the mask set there; the note's file in $state
kill_in() {
	local end=$((SECONDS + 120))
	ip netns exec "$1" "$PERPKT" record -q -d 300 -w 0.1 --rps-cpus 2 \
		-o "$TMP/killed.json" 2>"$TMP/errk" &
	K=$!
	state=
	until [ -n "$state" ] && [ "$((16#$(ip netns exec "$1" cat $RPS)))" = 2 ]; do
		alive $K || fail "the run in $1 ended: $(cat "$TMP/errk")"
		[ $SECONDS -lt $end ] || fail "the run in $1 never set the mask: $(cat "$TMP/errk")"
		sleep 0.05
		state=$(grep -l "^$RPS [0-9a-f,]* net=[0-9]*:[0-9]* netns=$1 device=lo$" \
			/run/perpkt/state.* 2>/dev/null | head -1)
	done
	kill -KILL $K; wait $K 2>/dev/null; K=
}

test_namespace killed
ip netns exec "$NS" sh -c "[ -w $RPS ]" || skip "no writable $RPS in a new network namespace"
ino=$(stat -L -c %i /run/netns/"$NS")
kill_in "$NS"
grep -q " net=[0-9]*:$ino " "$state" || fail "the note does not name $NS's inode $ino: $(cat "$state")"

# here, in another namespace: not applied, not dropped
expect_exit 0 "$PERPKT" record -d 0.2 -w 0.1 -o "$TMP/here.json"
grep -q "restored" "$TMP/err" && fail "a run here applied $NS's note: $(cat "$TMP/err")"
[ -e "$state" ] || fail "a run here dropped $NS's note"
[ "$(cat $RPS)" = "$orig" ] || fail "the mask here changed: $(cat $RPS), was $orig"
[ "$((16#$(in_ns cat $RPS)))" = 2 ] || fail "$NS's mask was put back from here: $(in_ns cat $RPS)"
expect_exit 0 "$PERPKT" restore
grep -q "left what perpkt pid [0-9]* changed in network namespace $NS (net:\[$ino\]): put it back there ('ip netns exec $NS perpkt restore')" "$TMP/err" ||
	fail "restore here does not say where the note is for: $(cat "$TMP/err")"
[ -e "$state" ] || fail "restore here dropped $NS's note"

# there: put back, the namespace and device named
expect_exit 0 in_ns "$PERPKT" restore
grep -q "restored '$RPS' to '0*' in network namespace $NS (net:\[$ino\]) (device lo): perpkt pid [0-9]* was killed" "$TMP/err" ||
	fail "restore in $NS: $(cat "$TMP/err")"
[ "$((16#$(in_ns cat $RPS)))" = 0 ] || fail "$NS's mask not put back: $(in_ns cat $RPS)"
[ ! -e "$state" ] || fail "the note is still there after its restore"

# a namespace that is gone takes its devices with it: the note goes too
[ "$(stat -L -c %i /proc/self/ns/pid)" = 4026531836 ] ||
	skip "not in the initial PID namespace: cannot tell a namespace is gone"
NS2=$NS-2
ip netns add "$NS2" && ip -n "$NS2" link set lo up || fail "cannot make $NS2"
ino2=$(ip netns exec "$NS2" stat -L -c %i /proc/self/ns/net)
kill_in "$NS2"
ip netns del "$NS2"; NS2=
# gone once no process is in it: the killed run's workload dies after
# it (its parent-death signal), seconds later at load (an ASan build
# beside check-lab's guests once: "put it back there")
end=$((SECONDS + 60))
while stat -L -c %i /proc/[0-9]*/ns/net 2>/dev/null | grep -qx "$ino2"; do
	[ $SECONDS -lt $end ] || fail "processes still in $NS-2 60 s after its run was killed"
	sleep 0.05
done
expect_exit 0 "$PERPKT" restore
grep -q "dropped what perpkt pid [0-9]* noted for network namespace .*: the namespace is gone" "$TMP/err" ||
	fail "a gone namespace's note: $(cat "$TMP/err")"
[ ! -e "$state" ] || fail "a gone namespace's note is still there"
exit 0
