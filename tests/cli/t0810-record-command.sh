# SPDX-License-Identifier: GPL-2.0-only
# record/stat -- CMD and -p PID, normalised by counts the kernel keeps:
# --per packets:IFACE, tx-packets:IFACE and irqs:NAME on a veth pair in
# namespaces of this test's own, with a known number of datagrams sent
# by a process tree (sh and one socat per datagram); usage errors.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"

# usage errors need no privilege
expect_exit 64 "$PERPKT" record --per bogus -- true
grep -q "unknown --per 'bogus'" "$TMP/err" || fail "bad --per: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --per udp-datagrams -d 1
grep -q "needs a workload of your own" "$TMP/err" || fail "--per without CMD: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record -- true
grep -q "give a unit" "$TMP/err" || fail "CMD without --per: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --per count:10 --size 100 -- true
grep -q "'--size' is for the built-in workload" "$TMP/err" || fail "--size with CMD: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --per udp-datagrams:sideways -- true
expect_exit 64 "$PERPKT" stat --per count:5 -p 1 -- true

need_perf
expect_exit 2 "$PERPKT" record -q --per packets:nosuch0 -o "$TMP/x.json" -- true
grep -q "cannot read '/sys/class/net/nosuch0/statistics/rx_packets'" "$TMP/err" ||
	fail "missing interface: $(cat "$TMP/err")"
[ ! -e "$TMP/x.json" ] || fail "a profile was written for a missing interface"
expect_exit 2 "$PERPKT" record -q --per irqs:NOSUCHIRQ -o "$TMP/x.json" -- true
grep -q "no line 'NOSUCHIRQ' in /proc/interrupts" "$TMP/err" || fail "missing irq: $(cat "$TMP/err")"
expect_exit 2 "$PERPKT" record -q --per count:3 -o "$TMP/x.json" -- /nonexistent/cmd
grep -q "cannot run the command '/nonexistent/cmd': No such file" "$TMP/err" || fail "bad command: $(cat "$TMP/err")"

[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
command -v socat >/dev/null || skip "needs socat"
A=perpkt-test-$$-a B=perpkt-test-$$-b
cleanup() {
	[ -n "${SINK:-}" ] && kill "$SINK" 2>/dev/null
	ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
ip netns add $A && ip netns add $B &&
ip link add veth0 netns $A type veth peer name veth0 netns $B &&
for ns in $A $B; do
	# no IPv6 neighbour discovery or router solicitations: the only
	# packets are the test's and one ARP exchange
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 &&
	ip netns exec $ns sysctl -qw net.ipv6.conf.default.disable_ipv6=1 &&
	ip -n $ns link set lo up || exit 1
done &&
ip -n $A addr add 10.249.0.1/30 dev veth0 && ip -n $B addr add 10.249.0.2/30 dev veth0 &&
ip -n $A link set veth0 up && ip -n $B link set veth0 up || fail "cannot make test namespaces"
ip netns exec $B socat -u UDP4-RECV:9999,bind=10.249.0.2 /dev/null &
SINK=$!
# bound before the first datagram: one to a closed port draws an ICMP
# reply, a packet more on veth0
end=$((SECONDS + 120))
until ip netns exec $B ss -Hlun 'sport = :9999' | grep -q .; do
	[ $SECONDS -lt $end ] || fail "socat did not bind port 9999"
	sleep 0.05
done

N=40
send="for i in \$(seq $N); do echo x | socat -u - UDP4-SENDTO:10.249.0.2:9999; done"
expect_exit 0 ip netns exec $A "$PERPKT" record -q --per packets:veth0 -a \
	-o "$TMP/pk.json" -- sh -c "$send"
# N datagrams out, plus at most one ARP request and its reply
jq -e --argjson n $N '.workload.unit.spec == "packets:veth0" and
	.workload.unit.name == "packet" and
	.workload.round_trips >= $n and .workload.round_trips <= $n + 2 and
	.workload.unit.outside_ns > 0 and .workload.unit.outside <= 2 and
	.workload.transport == "command" and
	(.workload.workload_command | startswith("sh -c for i")) and
	.workload.tasks[0].role == "workload" and .workload.tasks[0].cpu_ns > 0' \
	"$TMP/pk.json" >/dev/null || fail "packets: $(jq -c .workload.unit,.workload.round_trips,.workload.tasks "$TMP/pk.json")"
# the tree's kernel time is its own role: socat's sends, sh's forks
w=$(jq '[.samples[] | select(.role == "workload") | .count] | add // 0' "$TMP/pk.json")
[ "$w" -gt 0 ] || fail "no samples with the role workload"

expect_exit 0 ip netns exec $A "$PERPKT" stat -q --per tx-packets:veth0 -a \
	--format json -- sh -c "$send"
jq -e --argjson n $N '(.round_trips // .units) >= $n and (.round_trips // .units) <= $n + 1' \
	"$TMP/out" >/dev/null || fail "tx-packets: $(jq -c . "$TMP/out" | head -c 600)"

# irqs:NAME: veth has no IRQ lines of its own; the local timer's are
# counted inside the window, so never more than this test sees around it
loc() { awk '$1 == "LOC:" { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts; }
l0=$(loc)
expect_exit 0 ip netns exec $A "$PERPKT" record -q --per irqs:LOC -a \
	-o "$TMP/irq.json" -- sh -c "$send; sleep 0.3"
l1=$(loc)
n=$(jq '.workload.round_trips' "$TMP/irq.json")
[ "$n" -gt 0 ] && [ "$n" -le $((l1 - l0)) ] || fail "irqs:LOC counted $n, /proc/interrupts moved $((l1 - l0))"
jq -e '.workload.unit.name == "irq" and (.workload.unit.source | test("LOC"))' "$TMP/irq.json" >/dev/null ||
	fail "irq unit: $(jq -c .workload.unit "$TMP/irq.json")"

# reports say what the values are per, and refuse to mix units
expect_exit 0 "$PERPKT" report -i "$TMP/pk.json"
grep -q "^'sh -c for i" "$TMP/out" || fail "report headline: $(head -2 "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$TMP/pk.json" --full
grep -q "^perpkt report: 'sh -c for i" "$TMP/out" || fail "report header: $(head -2 "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$TMP/pk.json"
grep -Eq "(ns|cycles)/pkt" "$TMP/out" || fail "no ns-per-packet column: $(grep samples "$TMP/out" | head -2)"
grep -q "^per packet: the workload's CPU time" "$TMP/out" || fail "no per-packet decomposition"
grep -q "^unit: per packet (--per packets:veth0)" "$TMP/out" || fail "no unit line"
grep -Eq "^CPUs: workload where its affinity lets it run; sampled [0-9,]+ of" "$TMP/out" || fail "CPUs line: $(grep ^CPUs "$TMP/out")"
grep -q "round trip" "$TMP/out" && fail "a per-packet report speaks of round trips: $(grep 'round trip' "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$TMP/pk.json" --format json
jq -e '.unit.name == "packet" and .unit.spec == "packets:veth0" and .round_trips > 0' "$TMP/out" >/dev/null ||
	fail "report JSON unit: $(jq -c .unit "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$TMP/pk.json" --by role
awk '$NF == "workload" && $1 > 0 { ok = 1 } END { exit !ok }' "$TMP/out" || fail "no workload role row: $(cat "$TMP/out" | tail -12)"
expect_exit 2 "$PERPKT" diff "$TMP/pk.json" "$TMP/irq.json"
grep -q "cannot compare values per packet (--per packets:veth0) of '.*' with values per irq (--per irqs:LOC)" "$TMP/err" ||
	fail "diff of different units: $(cat "$TMP/err")"
expect_exit 0 "$PERPKT" diff --force "$TMP/pk.json" "$TMP/irq.json"
grep -q "units differ, compared with --force: per packet" "$TMP/out" || fail "diff --force does not say so: $(head -5 "$TMP/out")"
grep -q "^perpkt diff: ns per packet, baseline A" "$TMP/out" || fail "diff header: $(head -1 "$TMP/out")"
expect_exit 0 "$PERPKT" diff "$TMP/pk.json" "$TMP/pk.json"

# -p: attach for -d seconds; the attached process keeps running
ip netns exec $A sh -c "while :; do $send; done" >/dev/null 2>&1 &
LOOP=$!
expect_exit 0 ip netns exec $A "$PERPKT" record -q --per tx-packets:veth0 -a -d 0.5 \
	-p $LOOP -o "$TMP/pid.json"
kill -0 $LOOP || fail "-p stopped the process it attached to"
kill $LOOP; wait $LOOP 2>/dev/null
jq -e '.workload.round_trips > 0 and .workload.unit.outside_busy == true and
	(.workload.window_ns > 4e8 and .workload.window_ns < 1e9)' "$TMP/pid.json" >/dev/null ||
	fail "-p: $(jq -c '[.workload.round_trips, .workload.unit, .workload.window_ns]' "$TMP/pid.json")"
echo ok
