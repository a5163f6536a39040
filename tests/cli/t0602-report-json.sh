# SPDX-License-Identifier: GPL-2.0-only
# The JSON report adds up: every view sums to the total, the latency
# decomposition sums to the round trip, error bars are value/sqrt(n).
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
P=$SRCDIR/tests/fixtures/profiles

for prof in sw-clock hw-mux; do
	expect_exit 0 "$PERPKT" report -i "$P/$prof.json" --format json
	R=$TMP/$prof.json
	cp "$TMP/out" "$R"
	jq -e '.format == "perpkt-report" and .version == 3' "$R" >/dev/null ||
		fail "$prof: format or version"
	for ev in $(jq -r '.events[].name' "$R"); do
		for view in functions buckets files cpus roles; do
			jq -e --arg ev "$ev" --arg v "$view" '
				def close(a; b): ((a - b) | fabs) <= 1e-6 * ((b | fabs) + 1);
				(.total.per_rt[$ev]) as $t
				| ([.[$v][].per_rt[$ev]] | add) as $s
				| ([.[$v][].samples[$ev]] | add) == .total.samples[$ev]
				  and close($s; $t) and $t > 0' "$R" >/dev/null ||
				fail "$prof: $view per_rt[$ev] do not add up to the total"
		done
		jq -e --arg ev "$ev" '
			[.functions[] | select(.samples[$ev] > 0)
			 | ((.error[$ev] - .per_rt[$ev] / (.samples[$ev] | sqrt)) | fabs) < 1e-6]
			| all' "$R" >/dev/null || fail "$prof: error bars are not per_rt/sqrt(samples)"
	done
done

R=$TMP/sw-clock.json
jq -e '.decomposition as $d
	| $d.valid and $d.source == "tasks"
	and (($d.client_ns + $d.responder_ns + $d.rest_ns - $d.rtt_ns) | fabs) < 1e-6
	and $d.client_ns == 40000 and $d.responder_ns == 33000
	and $d.idle_ctx_irq_softirq_ns == 5000
	and $d.service_demand_ns == 75000' "$R" >/dev/null ||
	fail "decomposition: $(jq -c .decomposition "$R")"
jq -e '[.roles[] | select(.name == "idle-ctx irq/softirq")][0].per_rt["cpu-clock"] == 5000' "$R" >/dev/null ||
	fail "idle-context softirq role"
jq -e '.reconciliation.flagged == false and (.reconciliation.busy_cpus - 0.75 | fabs) < 1e-9' "$R" >/dev/null ||
	fail "reconciliation: $(jq -c .reconciliation "$R")"
jq -e '.conditions | length == 8 and .[0].key == "cpu.cache_relation"' "$R" >/dev/null ||
	fail "conditions"

R=$TMP/hw-mux.json
jq -e '.decomposition.valid == false and .functions[0].ipc != null
	and (.reconciliation.events.cycles.running_fraction == 0.5)
	and .reconciliation.events.cycles.counted == 1400000000' "$R" >/dev/null ||
	fail "hardware profile: IPC or multiplexing: $(jq -c .reconciliation "$R")"
jq -e '[.functions[] | select(.name == "udp_sendmsg")][0].ipc == 1.2' "$R" >/dev/null ||
	fail "IPC of udp_sendmsg"

expect_exit 0 "$PERPKT" report -i "$P/zero-rt.json" --format json
jq -e '.per_rt_valid == false and .decomposition.valid == false
	and ([.. | numbers | select(isinfinite or isnan)] | length == 0)' "$TMP/out" >/dev/null ||
	fail "zero round trips"
echo ok
