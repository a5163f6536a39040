# SPDX-License-Identifier: GPL-2.0-only
# --net veth: each transport between two namespaces perpkt makes, same
# CPU and across CPUs; nothing is left behind, also after SIGINT
# mid-run, and namespaces of a killed earlier run are removed.
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
command -v ip >/dev/null || skip "needs ip (iproute2)"

ours() { ip netns list | grep -E '^perpkt-[0-9]+-[rc]( |$)' || true; }
[ -z "$(ours)" ] || fail "namespaces left before the test: $(ours)"

for t in udp tcp icmp; do
	for cpus in "0 0" "1 0"; do
		set -- $cpus
		[ "$1" -lt "$(nproc)" ] || continue
		expect_exit 0 "$PERPKT" record -q -n 2000 -w 0.1 --net veth --transport $t \
			--client-cpu "$1" --server-cpu "$2" -o "$TMP/v.json"
		jq -e '(.round_trips // .workload.round_trips) == 2000 and
			(.conditions["net.path"] | test("^veth pair"))' "$TMP/v.json" >/dev/null ||
			fail "$t on veth: $(jq -c '[.round_trips, .conditions["net.path"]]' "$TMP/v.json")"
		[ -z "$(ours)" ] || fail "$t: namespaces left: $(ours)"
	done
done
ip -o link 2>/dev/null | grep -q 'veth0@' && fail "a veth appeared in the root namespace"

# SIGINT in the middle of the window: partial result, nothing left
"$PERPKT" record -q -d 10 -w 0.2 --net veth -o "$TMP/int.json" 2>"$TMP/err" &
pid=$!
for _ in $(seq 50); do [ -n "$(ours)" ] && break; sleep 0.1; done
[ -n "$(ours)" ] || fail "no namespace while running"
sleep 1
kill -INT $pid
rc=0; wait $pid || rc=$?
[ $rc = 1 ] || { cat "$TMP/err" >&2; fail "SIGINT run exited $rc, expected 1 (partial)"; }
[ -z "$(ours)" ] || fail "namespaces left after SIGINT: $(ours)"

# a run killed with SIGKILL leaves namespaces; the next run removes them
"$PERPKT" record -q -d 10 -w 0.2 --net veth -o "$TMP/kill.json" 2>/dev/null &
pid=$!
for _ in $(seq 50); do [ -n "$(ours)" ] && break; sleep 0.1; done
sleep 0.5
kill -KILL $pid; wait $pid 2>/dev/null || true
sleep 0.2
[ -n "$(ours)" ] || fail "SIGKILL left nothing to clean: test is not testing"
expect_exit 0 "$PERPKT" record -n 100 -w 0.1 --net veth -o "$TMP/v.json"
grep -q "left by an earlier run" "$TMP/err" || fail "stale namespaces not reported"
[ -z "$(ours)" ] || fail "stale namespaces not removed: $(ours)"
echo ok
