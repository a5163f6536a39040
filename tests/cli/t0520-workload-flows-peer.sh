# SPDX-License-Identifier: GPL-2.0-only
# record --peer --flows N against perpkt serve: serve answers each flow
# with a responder of its own, on its own port and the CPU the client
# named. Serve and record share a network namespace of this test's own
# (loopback), so its Udp InDatagrams over the window, read while every
# flow is stopped at its edge, is two per round trip of all flows
# together. More flows than serve's --max-flows are refused by serve,
# which goes on serving; a flow whose responder dies is named; an echo
# service (socat) answers flows too.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
SERVE= SOCAT= NS=
trap '[ -n "$SERVE" ] && kill $SERVE 2>/dev/null; [ -n "$SOCAT" ] && kill $SOCAT 2>/dev/null
	[ -n "$NS" ] && ip netns del $NS 2>/dev/null; rm -rf "$TMP"' EXIT
test_namespace p
# peer CODE CMD...: expect_exit, but a skip when serve or its client
# says this host is too loaded to run its processes (other work holding
# a CPU for tens of seconds; seen with both CPUs saturated by others)
peer() {
	local want=$1 got=0; shift
	"$TIMEOUT_BIN" -k 10 240 "$@" >"$TMP/out" 2>"$TMP/err" || got=$?
	[ "$got" = "$want" ] || ! grep -qE 'too loaded to pin it|no start after the setup within' "$TMP/err" ||
		skip "this host is too loaded for the flows' processes: $(tail -1 "$TMP/err")"
	[ "$got" = "$want" ] || { cat "$TMP/err" >&2; fail "'$*' exited $got, expected $want"; }
}
KEY=$TMP/serve.key
PEER="--peer 127.0.0.1:12994 --peer-key $KEY"

# the cap is checked before serve listens
expect_exit 64 "$PERPKT" serve --max-flows 65 --key "$KEY"
grep -qF "invalid --max-flows '65': must be between 1 and 64" "$TMP/err" ||
	fail "--max-flows 65: $(cat "$TMP/err")"

serve_bg "$TMP/serve.err" ip netns exec $NS "$PERPKT" serve -p 12994 --key "$KEY" --max-flows 4

# the number at the start of a condition's value
cond_num() { jq -r --arg k "$2" '.conditions[$k] // "" | split(" ")[0]' "$1"; }
# "a,b,c" after "round trips by flow " in the spread condition
by_flow() { jq -r '.conditions["workload.flows_spread"] // ""' "$1" | sed -n 's/.*round trips by flow //p'; }
sum() { tr ',' '\n' | awk '{ s += $1 } END { print s + 0 }'; }

f=$TMP/u2.json
peer 0 ip netns exec $NS "$PERPKT" record -q --flows 2 --client-cpu 0-1 --server-cpu 1,0 \
	-w 0.2 -d 0.5 $PEER -o "$f"
rts=$(jq .workload.round_trips "$f")
dgrams=$(cond_num "$f" workload.udp_datagrams_in)
flows=$(by_flow "$f")
echo "udp --peer --flows 2: $rts round trips, $dgrams datagrams in ($flows)"
[ "$rts" -gt 1000 ] || fail "only $rts round trips"
[ "$(echo "$flows" | tr ',' '\n' | grep -c '^[1-9][0-9]*$')" = 2 ] ||
	fail "round trips by flow '$flows'"
[ "$(echo "$flows" | sum)" = "$rts" ] ||
	fail "the flows' round trips '$flows' do not add up to $rts"
[ "$dgrams" = $((2 * rts)) ] ||
	fail "$dgrams datagrams in, not twice the $rts round trips"
jq -e '.workload.network == "peer"' "$f" >/dev/null || fail "network: $(jq .workload.network "$f")"
jq -r '.conditions["workload.flows"]' "$f" | grep -qF "CPUs 0/1,1/0" ||
	fail "flows' CPUs: $(jq -r '.conditions["workload.flows"]' "$f")"
# two ports, each flow its own, and each flow's responder CPU as asked
spread=$(jq -r '.conditions["workload.flows_spread"]' "$f")
echo "$spread" | grep -qE 'flow 0 \(port [0-9]+, client CPU 0, responder CPU 1\)|flow 1 \(port [0-9]+, client CPU 1, responder CPU 0\)' ||
	fail "spread: $spread"
# the report names every flow's CPUs, the responders' those serve used
expect_exit 0 "$PERPKT" report -i "$f"
grep -q "^CPUs: 2 flows: client 0,1 responder 1,0; sampled" "$TMP/out" ||
	fail "CPUs line: $(grep -A1 '^CPUs' "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$f" --format json
[ "$(jq -c .workload.flow_cpus "$TMP/out")" = "[[0,1],[1,0]]" ] ||
	fail "report JSON flow_cpus: $(jq -c .workload.flow_cpus "$TMP/out")"
cp "$TMP/out" "$TMP/report.json"
# the report too: serve's responders, sampled as other tasks, are busier
# than the workload (other_tasks.share above 1, of the workload's total)
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 "$SRCDIR/tests/schema-validate.py" "$SRCDIR/docs/schema" profile "$f" ||
		fail "a --flows profile does not validate"
	python3 "$SRCDIR/tests/schema-validate.py" "$SRCDIR/docs/schema" report "$TMP/report.json" ||
		fail "a --flows report does not validate"
fi
grep -qE 'serve: 2 udp responders, 40-byte messages, ports [0-9]+,[0-9]+$' "$TMP/serve.err" ||
	fail "serve's word of its responders: $(tail -3 "$TMP/serve.err")"
# serve's side: both responders, each answered its own flow's requests
resp=$(jq -r '.conditions["peer.responder"]' "$f")
echo "$resp" | grep -qE '^2 responders .*messages answered by flow [1-9][0-9]*,[1-9][0-9]*$' ||
	fail "peer.responder: $resp"
answered=$(echo "$resp" | sed 's/.*answered by flow //' | sum)
awk -v a="$answered" -v r="$rts" 'BEGIN { exit !(a > 0.9 * r && a < 1.5 * r) }' ||
	fail "serve answered $answered messages for $rts round trips"

# serve recorded its side (it runs as root here, so it may sample): both responders' CPUs, their time summed
jq -e '.remote.counters.cpus == [1, 0] and .remote.workload.flow_cpus == [[-1, 1], [-1, 0]] and
	([.remote.workload.tasks[] | select(.role == "responder") | .cpu_ns] | length == 1 and .[0] > 0) and
	([.remote.samples[] | select(.role == "responder")] | length > 0) and
	.remote.workload.round_trips > .workload.round_trips * 0.9 and
	.remote.workload.round_trips < .workload.round_trips * 1.5' "$f" >/dev/null ||
	fail "serve's side: $(jq -c '.remote | {rt: .workload.round_trips, cpus: .counters.cpus, flows: .workload.flow_cpus, tasks: .workload.tasks}' "$f" | head -c 600)"
grep -q "^CPUs: 2 flows: client any responder 1,0; sampled" <("$PERPKT" report -i "$f" --side remote) ||
	fail "the remote side's CPUs line: $("$PERPKT" report -i "$f" --side remote | grep -A1 '^CPUs')"

# more flows than serve answers: refused by serve, in words, no profile
peer 2 ip netns exec $NS "$PERPKT" record -q --flows 5 --client-cpu 0-1 -w 0.1 -d 0.2 $PEER \
	-o "$TMP/five.json"
grep -qF "refused the setup: 5 flows asked: this perpkt serve answers at most 4 (its --max-flows)" \
	"$TMP/err" || fail "--flows 5: $(cat "$TMP/err")"
[ ! -e "$TMP/five.json" ] || fail "a refused run wrote a profile"
alive "$SERVE" || fail "serve ended after a refused setup"
grep -q "serve: refused the setup of user .* from 127.0.0.1, authenticated .*: 5 flows asked" \
	"$TMP/serve.err" || fail "serve does not say whom it refused: $(tail -2 "$TMP/serve.err")"

# tcp: three flows, serve still serving after the refusal
peer 0 ip netns exec $NS "$PERPKT" record -q --transport tcp --flows 3 --client-cpu 0-1 \
	--no-remote -w 0.2 -d 0.3 $PEER -o "$TMP/tcp.json"
flows=$(by_flow "$TMP/tcp.json") rts=$(jq .workload.round_trips "$TMP/tcp.json")
echo "tcp --peer --flows 3: $rts round trips ($flows)"
[ "$(echo "$flows" | tr ',' '\n' | grep -c '^[1-9][0-9]*$')" = 3 ] ||
	fail "tcp: round trips by flow '$flows'"
[ "$(echo "$flows" | sum)" = "$rts" ] ||
	fail "tcp: the flows' round trips '$flows' do not add up to $rts"

# a flow whose responder dies mid-window is named (-v says when the
# window opens; serve's responders are its children)
spawn "$TMP/err" in_ns "$PERPKT" record -v --transport tcp --flows 2 --client-cpu 0-1 \
	--no-remote -w 0.2 -d 60 $PEER -o "$TMP/killed.json"
pid=$SPAWNED
until grep -q '^perpkt: window 1 of 1 open' "$TMP/err"; do
	if ! alive $pid; then
		grep -qE 'too loaded to pin it|no start after the setup within' "$TMP/err" &&
			skip "this host is too loaded for the flows' processes: $(tail -1 "$TMP/err")"
		grep -q '^perpkt: window 1 of 1 open' "$TMP/err" ||
			fail "record ended before its window opened: $(tail -3 "$TMP/err")"
	fi
	sleep 0.05
done
victim=$(ps -o pid= --ppid "$SERVE" | sort -n | tail -1)
[ -n "$victim" ] || fail "serve has no responders"
kill -KILL $victim
rc=0; wait $pid || rc=$?
[ $rc = 1 ] || [ $rc = 2 ] || { cat "$TMP/err" >&2; fail "killed responder: exit $rc"; }
grep -qE 'flow [01] \(port [0-9]+, client CPU [01], responder CPU [01]\): workload client failed' \
	"$TMP/err" || fail "the failed flow is not named: $(grep perpkt: "$TMP/err" | tail -3)"
alive "$SERVE" || fail "serve ended when a responder died"

# an echo service answers N flows too, each its own connection
if command -v socat >/dev/null; then
	ip netns exec $NS socat TCP4-LISTEN:7019,bind=127.0.0.1,reuseaddr,fork EXEC:cat 2>/dev/null &
	SOCAT=$!
	wait_port $NS 127.0.0.1 7019
	expect_exit 0 in_ns "$PERPKT" record -q --transport tcp --echo 127.0.0.1:7019 --flows 2 \
		--client-cpu 0-1 -w 0.1 -d 0.3 -o "$TMP/echo.json"
	flows=$(by_flow "$TMP/echo.json") rts=$(jq .workload.round_trips "$TMP/echo.json")
	echo "tcp --echo --flows 2: $rts round trips ($flows)"
	[ "$(echo "$flows" | tr ',' '\n' | grep -c '^[1-9][0-9]*$')" = 2 ] &&
	[ "$(echo "$flows" | sum)" = "$rts" ] || fail "echo: round trips by flow '$flows' for $rts"
	kill $SOCAT; SOCAT=
else
	echo "socat not installed: --echo --flows not tested" >&2
fi
echo ok
