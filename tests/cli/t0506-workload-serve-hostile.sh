# SPDX-License-Identifier: GPL-2.0-only
# perpkt serve cannot be held hostage: a silent client is dropped, a
# second client hears "busy" at once, SIGINT/SIGTERM end serve promptly
# with a client connected, "stop" after no traffic fails, the data port
# answers only the address that set the run up, and answers are never
# longer than requests; on tcp the data connection must open with the
# run's token. The clients here hold serve's key (perpkt_control.py);
# those that do not: t0508.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
KILL_VARS="HOLD"
# 10.248.1.3 is a second address of B: a stranger on the same link
peer_namespaces 10.248.1.1 10.248.1.2 29
ip -n $B addr add 10.248.1.3/29 dev veth0 || fail "cannot make test namespaces"

KEY=$TMP/serve.key
serve() {
	serve_bg "$TMP/serve.err" ip netns exec $A "$PERPKT" serve -b 10.248.1.1 -p 12998 --key "$KEY"
}
# py NAME: a control-protocol client in B, scripted below
py() { ip netns exec $B env PYTHONPATH="$(dirname "$0")" python3 - "$KEY" "$@" <<'PY'
import socket, sys, time
from perpkt_control import Control, load_key, setup
key, what = load_key(sys.argv[1]), sys.argv[2]
def control():
    c = Control("10.248.1.1", 12998, key)
    c.hello()
    return c
if what == "hold":           # set a run up, then stay silent until
    c = control()               # serve closes (stopped, or its 5 s drop)
    print(c.ask(setup(extra="")), flush=True)
    c.sock.settimeout(60)
    c.rest()
elif what == "busy":         # a second client, while one holds serve
    c = Control("10.248.1.1", 12998, key)
    t = time.time()
    print(c.readline(), "%.1f" % (time.time() - t))
elif what == "notraffic":    # start and stop with nothing in between
    c = control()
    c.ask(setup())
    c.ask("start")
    time.sleep(0.3)
    print(c.ask("stop"))
elif what == "stranger":     # the data port: only the client's socket,
    import struct            # the one that sent the run's token first
    c = control()
    req = setup()
    ans = c.ask(req)
    assert len(ans) <= len(req), "answer longer than request"
    kv = dict(x.split("=") for x in ans.split()[1:])
    port, tok = int(kv["port"]), struct.pack("<Q", int(kv.get("token", 0)))
    # a stranger with the token, the client, another socket of the
    # client's address (another user on its host) with the token too
    for src, name in (("10.248.1.3", "stranger"), ("10.248.1.2", "client"),
                      ("10.248.1.2", "other")):
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind((src, 0)); u.settimeout(0.5)
        u.sendto(tok, ("10.248.1.1", port))
        try:
            u.recvfrom(100)  # the token back
        except socket.timeout:
            pass
        u.sendto(b"x" * 40, ("10.248.1.1", port))
        try:
            print(name, "answered" if len(u.recvfrom(100)[0]) == 40 else "ignored")
        except socket.timeout:
            print(name, "ignored")
elif what == "profile":      # this side's profile: once, whole, bounded
    import hashlib, json
    c = control()
    import struct
    ans = c.ask(setup(extra="profile=1 cpus=0"))
    kv = dict(x.split("=") for x in ans.split()[1:])
    port, tok = int(kv["port"]), struct.pack("<Q", int(kv.get("token", 0)))
    print("setup", " ".join(w for w in ans.split()[2:] if not w.startswith("token=")))
    print("early", c.ask("profile"))
    c.ask("start")
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind(("10.248.1.2", 0)); u.settimeout(0.5)
    u.sendto(tok, ("10.248.1.1", port)); u.recvfrom(100)
    # another socket of the client's address floods the port in the
    # window: none of it may count as answered
    f = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    f.bind(("10.248.1.2", 0))
    for i in range(200):
        for j in range(5):
            f.sendto(tok if j == 0 else b"f" * 40, ("10.248.1.1", port))
        u.sendto(b"x" * 40, ("10.248.1.1", port)); u.recvfrom(100)
    stop = c.ask("stop")
    print("answered", stop.split("answered=")[1])
    head = dict(w.split("=") for w in c.ask("profile").split()[1:])
    text = c.read_bytes(int(head["bytes"]))
    assert hashlib.blake2b(text, digest_size=32).hexdigest() == head["sum"], "digest"
    doc = json.loads(text)
    print("doc", doc["format"], doc["workload"]["round_trips"], doc["counters"]["cpus"])
    print("who", doc["conditions"]["peer.client"])
    print("again", c.ask("profile"))
    print("late", c.ask("start"))
elif what == "token":        # tcp: the data port wants the run's token
    import struct
    c = control()
    req = setup("tcp")
    ans = c.ask(req)
    assert len(ans) <= len(req), "answer longer than request"
    kv = dict(x.split("=") for x in ans.split()[1:])
    port, token = int(kv["port"]), int(kv["token"])
    for name, first in (("guess", struct.pack("<Q", token ^ 1)),
                        ("client", struct.pack("<Q", token))):
        t = socket.create_connection(("10.248.1.1", port), timeout=2)
        try:
            t.sendall(first + b"y" * 40)
            got = t.recv(100)
            print(name, "answered" if len(got) == 40 else "closed")
        except (socket.timeout, ConnectionResetError):
            print(name, "closed")
        t.close()
PY
}

# a client that set a run up and went silent: others hear "busy" at
# once; then SIGTERM (SIGINT the second time) ends serve in well under
# a second with that client still connected
for sig in TERM INT; do
	serve
	: >"$TMP/hold"  # not the first round's "ok port=" (see t0811)
	py hold >"$TMP/hold" &
	HOLD=$!
	# held once its setup is answered (python starts slowly when busy)
	wait_line "$TMP/hold" "^ok port=" $HOLD
	if [ $sig = TERM ]; then
		py busy >"$TMP/busy" || fail "second client: $(cat "$TMP/busy")"
		grep -q "^error busy" "$TMP/busy" || fail "second client was not told busy: $(cat "$TMP/busy")"
		# at once, not after the holding client's session (a busy
		# machine stretches "at once" to seconds)
		awk '$NF > 10 { exit 1 }' "$TMP/busy" || fail "busy took more than 10 s: $(cat "$TMP/busy")"
		expect_exit 2 ip netns exec $B "$PERPKT" record -q -n 10 -w 0 --peer 10.248.1.1:12998 --peer-key "$KEY" -o "$TMP/x.json"
		grep -q "busy" "$TMP/err" || fail "record --peer did not say busy: $(cat "$TMP/err")"
	fi
	start=$(date +%s%N)
	kill -$sig $SERVE
	wait $SERVE 2>/dev/null
	SERVE=
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	# (it polls every 200 ms: a busy machine stretches that to seconds)
	[ $ms -le 10000 ] || fail "serve took $ms ms to stop on SIG$sig with a client connected"
	wait $HOLD; HOLD=
done

serve
# a client that connects and says nothing is dropped in seconds
start=$(date +%s)
ip netns exec $B timeout 20 bash -c 'exec 3<>/dev/tcp/10.248.1.1/12998; cat <&3 >/dev/null' ||
	fail "a silent client was not dropped within 20 s"
# (dropped after 5 s, CONTROL_TIMEOUT_MS; the margin is a busy machine's)
[ $(( $(date +%s) - start )) -le 12 ] || fail "a silent client held serve for $(( $(date +%s) - start )) s"
# stop after no traffic is a failure, not ok with zero counters
py notraffic >"$TMP/nt"
grep -q "^error no traffic" "$TMP/nt" || fail "stop with no traffic answered: $(cat "$TMP/nt")"
# the data port answers the client's address, not another one
py stranger >"$TMP/str" || fail "stranger check: $(cat "$TMP/str")"
grep -qx "stranger ignored" "$TMP/str" || fail "a stranger got an echo: $(cat "$TMP/str")"
grep -qx "client answered" "$TMP/str" || fail "the client got no echo: $(cat "$TMP/str")"
grep -qx "other ignored" "$TMP/str" || fail "another socket of the client's address got an echo: $(cat "$TMP/str")"
# the profile of serve's own side: not before a window, exactly the
# messages answered, sent once (then no more windows)
py profile >"$TMP/prof" || fail "profile check: $(cat "$TMP/prof")"
grep -qx "setup profile=1" "$TMP/prof" || fail "profile setup: $(cat "$TMP/prof")"
grep -q "^early error " "$TMP/prof" || fail "a profile before any window: $(cat "$TMP/prof")"
# (another socket flooded the port meanwhile: 1,000 datagrams not counted)
grep -qx "answered 200" "$TMP/prof" || fail "answered count: $(cat "$TMP/prof")"
grep -qx "doc perpkt-profile 200 \[0\]" "$TMP/prof" || fail "profile document: $(cat "$TMP/prof")"
grep -qx "who user test on host test from 10.248.1.2, authenticated (key [0-9a-f]*)" "$TMP/prof" ||
	fail "the profile does not say who asked: $(cat "$TMP/prof")"
grep -qx "again error the profile of this side was sent already" "$TMP/prof" ||
	fail "a second profile: $(cat "$TMP/prof")"
grep -q "^late error " "$TMP/prof" || fail "a window after the profile: $(cat "$TMP/prof")"
# tcp: a connection without the run's token gets nothing
py token >"$TMP/tok" || fail "token check: $(cat "$TMP/tok")"
grep -qx "guess closed" "$TMP/tok" || fail "a wrong token got an echo: $(cat "$TMP/tok")"
grep -qx "client answered" "$TMP/tok" || fail "the right token got no echo: $(cat "$TMP/tok")"
# (record --peer over tcp, token and all: t0503)
# and a real run still works after all that
expect_exit 0 ip netns exec $B "$PERPKT" record -q -n 500 -w 0.1 --peer 10.248.1.1:12998 --peer-key "$KEY" -o "$TMP/ok.json"
kill -0 $SERVE || fail "serve died"
echo "ok: busy, signals, silent client, no traffic, stranger"
