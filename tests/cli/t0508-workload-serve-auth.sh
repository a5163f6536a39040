# SPDX-License-Identifier: GPL-2.0-only
# A root perpkt serve gives nothing to a client without its key: an
# unprivileged user of the test's own, speaking the protocol (the old
# one, or the new one with a guessed mac) or running record --peer,
# gets no responder, no profile, no kernel address, no condition; a
# client with the key gets its run, and serve's side records who asked.
# A client that goes quiet after its setup is dropped once its warm-up
# and the grace are over, and a client that closes frees serve at once
# (a reconnect is never told "busy").
# paranoid: its unprivileged serve samples, which t0111's paranoid 3
# would refuse
# ctest-lock: paranoid
. "$(dirname "$0")/lib.sh"
need_perf
KILL_VARS="QUIET"
peer_namespaces 10.248.2.1 10.248.2.2 30
make_test_user
chmod 755 "$TMP"
KEY=$TMP/root/serve.key    # made by serve, 0600, in a directory of root's
mkdir -m 700 "$TMP/root"

serve_bg "$TMP/serve.err" ip netns exec $A "$PERPKT" serve -b 10.248.2.1 -p 12996 --key "$KEY"
[ "$(stat -c %a "$KEY")" = 600 ] || fail "serve's key is not mode 0600: $(ls -l "$KEY")"
grep -q "made the new key [0-9a-f]* in '$KEY'" "$TMP/serve.err" || fail "serve did not say where its key is: $(cat "$TMP/serve.err")"

# py AS WHAT: a scripted client in B, as root or as the test's user
py() {
	local as=$1 py3 run="ip netns exec $B"; shift
	py3=$(command -v python3)
	if [ "$as" = user ]; then
		run="$run setpriv --reuid=$TEST_UID --regid=$(id -g "$TEST_USER") --clear-groups --"
		# a python3 under root's home is not the user's to run
		[ -x /usr/bin/python3 ] && py3=/usr/bin/python3
	fi
	$run env PYTHONPATH="$UPYDIR" "$py3" - "$@" <<'PY'
import os, socket, sys, time
from perpkt_control import Control, load_key, setup
what = sys.argv[1]
key = load_key(sys.argv[2]) if len(sys.argv) > 2 else None
def show(text):
    # what a client got, and whether it holds anything of value
    leak = [w for w in ("port=", "0xffffffff", "profile=1", "kallsyms", "bytes=")
            if w in text]
    print(what, "LEAK" if leak else "nothing", " ".join(leak), "|", text.replace("\n", " / ")[:200])
if what == "old":          # the probe of issue 25: version 1, everything asked
    c = Control("10.248.2.1", 12996)
    c.raw("perpkt-serve 1 transport=udp size=40 cpu=-1 profile=1 user=1 callchain=1 cpus=all")
    show(c.rest())
elif what == "guess":      # version 2, a key of its own
    c = Control("10.248.2.1", 12996)
    got = [c.hello()]
    c.send(setup(extra="profile=1 callchain=1 cpus=all"))
    got.append(c.readline())
    for req in ("start", "profile"):   # as if it had been let in
        try:
            c.send(req)
            got.append(c.readline())
        except OSError:
            pass
    show("\n".join(got) + "\n" + c.rest())
elif what == "nohello":    # a setup with no hello, no mac
    c = Control("10.248.2.1", 12996)
    c.raw(setup(extra="profile=1"))
    show(c.rest())
elif what == "quiet":      # the key, a setup, then silence
    c = Control("10.248.2.1", 12996, key, timeout=30)
    c.hello()
    print("setup", c.ask(setup()), flush=True)
    t = time.time()
    print("then", c.recv(), "after %.1f s" % (time.time() - t), flush=True)
elif what == "next":       # waits for serve, then is served
    t = time.time()
    busy = 0
    while True:
        c = Control("10.248.2.1", 12996, key)
        if c.hello().startswith("ok nonce="):
            break
        busy += 1
        c.close()
        time.sleep(0.2)
    print("served after %.1f s, %d busy" % (time.time() - t, busy), c.ask(setup()).split()[0])
elif what == "reconnect":  # close and come straight back, many times
    busy = 0
    for i in range(30):
        c = Control("10.248.2.1", 12996, key)
        ans = c.hello()
        if not ans.startswith("ok nonce="):
            busy += 1
        else:
            c.ask(setup())
        c.close()
    print("busy", busy)
PY
}

# without the key: nothing, whatever the client says
for what in old guess nohello; do
	py user $what >"$TMP/$what" || fail "$what: $(cat "$TMP/$what")"
	grep -q "^$what nothing" "$TMP/$what" || fail "a client without the key got: $(cat "$TMP/$what")"
done
grep -q "unsupported control version: this side speaks 2" "$TMP/old" || fail "old: $(cat "$TMP/old")"
grep -q "error authentication failed" "$TMP/guess" || fail "guess: $(cat "$TMP/guess")"
grep -q "refused a client from 10.248.2.2: it does not hold this serve's key" "$TMP/serve.err" ||
	fail "serve did not say it refused: $(cat "$TMP/serve.err")"
# record --peer as the user: no key of its own, and root's it may not read
expect_exit 2 ip netns exec $B setpriv --reuid="$TEST_UID" --regid="$(id -g "$TEST_USER")" --clear-groups -- \
	"$UPERPKT" record -q -n 100 -w 0 --peer 10.248.2.1:12996 -o /dev/null
grep -q "key" "$TMP/err" || fail "record --peer without a key: $(cat "$TMP/err")"
expect_exit 2 ip netns exec $B setpriv --reuid="$TEST_UID" --regid="$(id -g "$TEST_USER")" --clear-groups -- \
	"$UPERPKT" record -q -n 100 -w 0 --peer 10.248.2.1:12996 --peer-key "$KEY" -o /dev/null
grep -q "cannot read the key '$KEY': Permission denied" "$TMP/err" || fail "root's key: $(cat "$TMP/err")"
kill -0 $SERVE || fail "serve died"

# with the key: the run, and serve's side says who asked
expect_exit 0 ip netns exec $B "$PERPKT" record -q -n 2000 -w 0.1 --peer 10.248.2.1:12996 \
	--peer-key "$KEY" -o "$TMP/both.json"
jq -e '(.remote.conditions["peer.client"] | test("^user root on host .* from 10.248.2.2, authenticated \\(key [0-9a-f]{16}\\)$")) and
	(.conditions["net.path"] | test("authenticated: key [0-9a-f]{16}"))' "$TMP/both.json" >/dev/null ||
	fail "who asked: $(jq -c '[.remote.conditions["peer.client"], .conditions["net.path"]]' "$TMP/both.json")"

# quiet after the setup (warm-up 0): dropped after the grace, and the
# next client is served then, not after serve's 10-minute idle limit
py root quiet "$KEY" >"$TMP/quiet" &
QUIET=$!
wait_line "$TMP/quiet" "^setup ok port=" $QUIET
grep -q "^setup ok port=" "$TMP/quiet" || fail "the quiet client got no setup answer: $(cat "$TMP/quiet")"
py root next "$KEY" >"$TMP/next" || fail "next: $(cat "$TMP/next")"
wait $QUIET; QUIET=
# (10 s of grace, as it says; a busy machine's serve answers late:
# 12.5 s was seen beside two CPU hogs)
grep -Eq "^then error no start after the setup within 10000 ms: dropped after (9|[12][0-9])\.[0-9] s" "$TMP/quiet" ||
	fail "the quiet client: $(cat "$TMP/quiet")"
# told busy while the quiet one held serve (how long depends on when
# python started: seconds on a busy machine), served once it was dropped
awk '/^served after/ { exit !($3 <= 20 && $5 >= 1) }' "$TMP/next" && grep -q " ok$" "$TMP/next" ||
	fail "the next client: $(cat "$TMP/next")"

# a client that closes frees serve at once
py root reconnect "$KEY" >"$TMP/re" || fail "reconnect: $(cat "$TMP/re")"
grep -qx "busy 0" "$TMP/re" || fail "a reconnecting client was told busy: $(cat "$TMP/re")"
echo "ok: nothing without the key, who asked recorded, idle client dropped, no spurious busy"
