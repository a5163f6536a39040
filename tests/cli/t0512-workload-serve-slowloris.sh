# SPDX-License-Identifier: GPL-2.0-only
# serve's one slot goes to an authenticated client: three connections
# that drip a byte every 0.3 s and never finish a line (and come back
# when dropped) do not keep a real record --peer from being served;
# one address has at most 4 connections in the handshake at once.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
command -v socat >/dev/null || skip "needs socat"
command -v ss >/dev/null || skip "needs ss (iproute2)"
peer_namespaces 10.248.3.1 10.248.3.2 24
# the drippers stop when $TMP/stop appears
trap 'touch "$TMP/stop"; sleep 0.5; peer_cleanup' EXIT
# a second address of B: the drippers' (a stranger on the client's link)
ip -n $B addr add 10.248.3.3/24 dev veth0 || fail "cannot add the second address"
KEY=$TMP/serve.key
serve_bg "$TMP/serve.err" ip netns exec $A "$PERPKT" serve -b 10.248.3.1 -p 12995 --key "$KEY"

# drip: from 10.248.3.3, a byte every 0.3 s, never a newline; when
# dropped, again
drip() {
	ip netns exec $B bash -c "until [ -e '$TMP/stop' ]; do
		while [ ! -e '$TMP/stop' ] && printf p; do sleep 0.3; done |
			socat -u - TCP:10.248.3.1:12995,bind=10.248.3.3 2>/dev/null
	done" &
}
drip; D1=$!
drip; D2=$!
drip; D3=$!
# until serve holds all three connections
drippers() {
	ip netns exec $A ss -Htn state established '( sport = :12995 )' | grep -c '10.248.3.3:'
}
end=$((SECONDS + 120))
until [ "$(drippers)" -ge 3 ]; do
	[ $SECONDS -lt $end ] || fail "the drippers did not connect: $(drippers)"
	sleep 0.05
done

# a real client is served at once (serve said nothing of busy to it)
start=$SECONDS
expect_exit 0 ip netns exec $B "$PERPKT" record -q -n 300 -w 0.1 --peer 10.248.3.1:12995 \
	--peer-key "$KEY" -o "$TMP/ok.json"
jq -e '.workload.round_trips >= 300' "$TMP/ok.json" >/dev/null || fail "the run: $(jq .workload "$TMP/ok.json")"
[ $((SECONDS - start)) -le 60 ] || fail "the run waited $((SECONDS - start)) s behind the drippers"
# the drippers are dropped at their deadline, not served
wait_line "$TMP/serve.err" "dropped a client from 10.248.3.3 that did not authenticate within 5000 ms"
grep -q "authenticated.*10.248.3.3" "$TMP/serve.err" && fail "a dripper was served"
touch "$TMP/stop"
wait $D1 $D2 $D3

# five connections at once from one address: the fifth hears why
ip netns exec $B python3 - >"$TMP/five" <<'PY'
import socket, time
socks = []
for i in range(5):
    s = socket.socket()
    s.bind(("10.248.3.3", 0))
    s.connect(("10.248.3.1", 12995))
    socks.append(s)
time.sleep(1)  # well inside the 5 s a handshake has
for s in socks:
    try:
        print(s.recv(200, socket.MSG_DONTWAIT).decode().strip() or "closed")
    except BlockingIOError:
        print("waiting")
PY
[ "$(grep -c '^waiting' "$TMP/five")" = 4 ] &&
	grep -q "^error busy: 4 connections from 10.248.3.3 are authenticating already" "$TMP/five" ||
	fail "five connections from one address: $(cat "$TMP/five")"
echo "ok: drippers did not hold the slot; 4 handshakes per address"
