# SPDX-License-Identifier: GPL-2.0-only
# Remote mode: perpkt serve in a namespace of this test's own, record
# --peer from another one over a veth pair; a peer that does not answer
# and malformed control messages; echo mode against socat; a local
# responder killed mid-run keeps a partial, labelled profile.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
KILL_VARS="SOCAT"
# addresses that exist only inside these two namespaces
peer_namespaces 10.248.0.1 10.248.0.2 30

KEY=$TMP/serve.key
serve_bg "$TMP/serve.err" ip netns exec $A "$PERPKT" serve -b 10.248.0.1 -p 12999 --key "$KEY"
expect_exit 0 ip netns exec $B "$PERPKT" record -q -n 3000 -w 0.1 \
	--peer 10.248.0.1:12999 --peer-key "$KEY" --server-cpu 0 -o "$TMP/peer.json"
jq -e '(.round_trips // .workload.round_trips) == 3000 and .workload.network == "peer" and
	(.conditions["peer.responder"] | test("^cpu 0; [0-9]+ ns on CPU"))' "$TMP/peer.json" >/dev/null ||
	fail "peer profile: $(jq -c '[.workload.round_trips, .workload.network, .conditions["peer.responder"]]' "$TMP/peer.json")"
rns=$(jq -r '.conditions["peer.responder"]' "$TMP/peer.json" | sed 's/^cpu 0; \([0-9]*\) ns.*/\1/')
[ "$rns" -gt 0 ] || fail "responder CPU time is $rns"
expect_exit 0 ip netns exec $B "$PERPKT" record -q -n 1000 -w 0.1 --transport tcp \
	--peer 10.248.0.1:12999 --peer-key "$KEY" -o "$TMP/peer-tcp.json"

# malformed control messages are rejected, and serve keeps serving
printf 'GET / HTTP/1.0\n' | ip netns exec $B timeout 3 socat -t 2 - TCP:10.248.0.1:12999 >"$TMP/ans" 2>/dev/null || true
grep -q '^error malformed setup' "$TMP/ans" || fail "bad setup answered: $(cat "$TMP/ans")"
head -c 5000 /dev/zero | tr '\0' x | ip netns exec $B timeout 3 socat -t 2 - TCP:10.248.0.1:12999 >"$TMP/ans" 2>/dev/null || true
grep -q '^error malformed message: longer than' "$TMP/ans" || fail "long line answered: $(cat "$TMP/ans")"
kill -0 $SERVE || fail "serve died on malformed input"
expect_exit 0 ip netns exec $B "$PERPKT" record -q -n 500 -w 0.1 --peer 10.248.0.1:12999 --peer-key "$KEY" -o "$TMP/p2.json"

# nobody listening there: a clear error, quickly
expect_exit 2 ip netns exec $B "$PERPKT" record -q -n 10 --peer 10.248.0.1:13000 --peer-key "$KEY" -o "$TMP/x.json"
grep -q "cannot connect to peer '10.248.0.1:13000'" "$TMP/err" || fail "refused peer: $(cat "$TMP/err")"

# echo mode against socat, an RFC 862 echo service
if command -v socat >/dev/null; then
	ip netns exec $A socat TCP4-LISTEN:7007,bind=10.248.0.1,reuseaddr,fork EXEC:cat 2>/dev/null &
	SOCAT=$!
	wait_port $B 10.248.0.1 7007
	expect_exit 0 ip netns exec $B "$PERPKT" record -q -n 500 -w 0.1 --transport tcp \
		--echo 10.248.0.1:7007 -o "$TMP/echo.json"
	jq -e '(.round_trips // .workload.round_trips) == 500 and .workload.network == "echo"' "$TMP/echo.json" >/dev/null ||
		fail "echo profile: $(jq -c '[.workload.round_trips, .workload.network]' "$TMP/echo.json")"
else
	echo "socat not installed: echo mode not tested" >&2
fi

# the local responder killed mid-run: exit 1, profile kept and labelled,
# and the window ends then, not after its 60 s (-v says when it opens)
spawn "$TMP/err" "$PERPKT" record -v -r 1 -d 60 -w 0.2 --transport tcp -o "$TMP/killed.json"
pid=$SPAWNED
wait_line "$TMP/err" '^perpkt: window 1 of 1 open' $pid
resp=$(ps -o pid= --ppid $pid | sort -n | head -1)
[ -n "$resp" ] || fail "no workload children"
killed=$SECONDS
kill -KILL $resp
rc=0; wait $pid || rc=$?
[ $rc = 1 ] || { cat "$TMP/err" >&2; fail "killed responder: exit $rc, expected 1"; }
[ $((SECONDS - killed)) -lt 45 ] ||
	fail "record ran on for $((SECONDS - killed)) s after its responder died"
jq -e '.conditions["workload.result"] | test("^partial: [0-9]+ round trips before: workload responder")' \
	"$TMP/killed.json" >/dev/null || fail "partial not labelled: $(jq -c .conditions "$TMP/killed.json")"
n=$(jq '.round_trips // .workload.round_trips' "$TMP/killed.json")
[ "$n" -gt 100 ] || fail "partial profile holds $n round trips"
echo ok
