# SPDX-License-Identifier: GPL-2.0-only
# --rps-cpus is set for the run and restored afterwards, also after
# SIGINT; --placement picks CPUs by topology or says what is possible;
# --irq-cpu refuses where there are no interrupts.
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root to change rps_cpus"
RPS=/sys/class/net/lo/queues/rx-0/rps_cpus
[ -w $RPS ] || skip "no $RPS (CONFIG_RPS off?)"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
before=$(cat $RPS)

expect_exit 0 "$PERPKT" record -q -n 1000 -w 0.1 --rps-cpus 1 -o "$TMP/r.json"
jq -e '.conditions["net.rps_cpus"] | test("^lo rx-0: 0*1 \\(set for the run, was")' "$TMP/r.json" >/dev/null ||
	fail "rps condition: $(jq -c '.conditions["net.rps_cpus"]' "$TMP/r.json")"
[ "$(cat $RPS)" = "$before" ] || fail "rps_cpus not restored: $(cat $RPS), was $before"

# (the mask is set before the workload's first round trip, before -v
# says the warm-up starts)
spawn "$TMP/err" "$PERPKT" record -v -d 10 -w 0.2 --rps-cpus 2 -o "$TMP/i.json"
pid=$SPAWNED
wait_line "$TMP/err" '^perpkt: warm-up: ' $pid
grep -q 2 $RPS || { kill $pid; fail "rps_cpus not set during the run: $(cat $RPS)"; }
kill -INT $pid; wait $pid || true
[ "$(cat $RPS)" = "$before" ] || fail "rps_cpus not restored after SIGINT: $(cat $RPS)"

# veth: set inside perpkt's namespaces only
expect_exit 0 "$PERPKT" record -q -n 500 -w 0.1 --net veth --rps-cpus 1 -o "$TMP/v.json"
jq -e '.conditions["net.rps_cpus"] | test("^veth0 rx-0: 0*1$")' "$TMP/v.json" >/dev/null ||
	fail "veth rps: $(jq -c '.conditions["net.rps_cpus"]' "$TMP/v.json")"

expect_exit 64 "$PERPKT" record --rps-cpus zz
expect_exit 2 "$PERPKT" record -q -n 10 --irq-cpu 0
grep -q "has no interrupts" "$TMP/err" || fail "irq-cpu message: $(cat "$TMP/err")"

# placement: same always works; the other relations as the topology allows
expect_exit 0 "$PERPKT" record -q -n 500 -w 0.1 --placement same -o "$TMP/p.json"
jq -e '.client_cpu == .server_cpu or .workload.client_cpu == .workload.server_cpu' "$TMP/p.json" >/dev/null ||
	jq -e '.conditions.placement | test(": same$")' "$TMP/p.json" >/dev/null || fail "same placement"
for rel in smt shared-cache cross-cache cross-socket; do
	rc=0; "$PERPKT" record -q -n 300 -w 0.1 --placement $rel -o "$TMP/p.json" 2>"$TMP/err" || rc=$?
	if [ $rc = 0 ]; then
		jq -e --arg r "$rel" '.conditions.placement | test(": " + $r + "(;|$)")' "$TMP/p.json" >/dev/null ||
			fail "$rel: $(jq -c .conditions.placement "$TMP/p.json")"
	else
		grep -q "placement '$rel' is not possible on this machine's topology: it offers same" "$TMP/err" ||
			fail "$rel refused unclearly: $(cat "$TMP/err")"
	fi
done
echo ok
