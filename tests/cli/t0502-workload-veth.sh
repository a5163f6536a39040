# SPDX-License-Identifier: GPL-2.0-only
# --net veth: each transport between two namespaces perpkt makes, same
# CPU and across CPUs; nothing is left behind, also after SIGINT
# mid-run, and namespaces of a killed earlier run are removed.
# A /run/perpkt of its own (own_rundir): a run killed here leaves notes
# that the test's next run or \`perpkt restore\` must find, and any
# perpkt record that shares the directory undoes a dead run's notes
# first (seen: t0813's restore found them gone at -j 4, when these tests
# shared the host's). The settings the notes are about are the host's:
# it holds the lock \`host\` (no ctest-lock line).
. "$(dirname "$0")/lib.sh"
own_rundir "$@"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
command -v ip >/dev/null || skip "needs ip (iproute2)"

# perpkt's namespaces of runs that are gone and were not there in
# $TMP/ns.before (other perpkt runs on this machine hold theirs, and
# may have left some), and those of run $1
# (/run/netns, not `ip netns list`, which asks netlink about each one
# while other runs make and remove theirs)
ours() {
	ls /run/netns 2>/dev/null | sed -nE 's/^(perpkt-([0-9]+)-[rc])$/\2 \1/p' |
		while read -r p n; do
			alive "$p" || grep -qx "$n" "$TMP/ns.before" || echo "$n"
		done
}
of() { ls /run/netns 2>/dev/null | grep -E "^perpkt-$1-[rc]$" || true; }
ls /run/netns 2>/dev/null >"$TMP/ns.before"

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
# (-v says when the window opens)
spawn "$TMP/err" "$PERPKT" record -v -r 1 -d 15 -w 0.2 --net veth -o "$TMP/int.json"
pid=$SPAWNED
wait_line "$TMP/err" '^perpkt: window 1 of 1 open' $pid
[ -n "$(of $pid)" ] || fail "no namespace while running"
kill -INT $pid
rc=0; wait $pid || rc=$?
[ $rc = 1 ] || { cat "$TMP/err" >&2; fail "SIGINT run exited $rc, expected 1 (partial)"; }
[ -z "$(of $pid)" ] || fail "namespaces left after SIGINT: $(of $pid)"

# a run killed with SIGKILL leaves namespaces; the next run removes them
spawn "$TMP/err" "$PERPKT" record -v -d 10 -w 0.2 --net veth -o "$TMP/kill.json"
pid=$SPAWNED
wait_line "$TMP/err" '^perpkt: warm-up: ' $pid   # its namespaces are up
kill -KILL $pid; wait $pid 2>/dev/null || true
[ -n "$(of $pid)" ] || fail "SIGKILL left nothing to clean: test is not testing"
expect_exit 0 "$PERPKT" record -n 100 -w 0.1 --net veth -o "$TMP/v.json"
# (any perpkt run removes them: another one on this machine may be first)
grep -q "left by an earlier run" "$TMP/err" || [ -z "$(of $pid)" ] ||
	fail "stale namespaces not reported"
[ -z "$(of $pid)" ] || fail "stale namespaces not removed: $(of $pid)"
echo ok
