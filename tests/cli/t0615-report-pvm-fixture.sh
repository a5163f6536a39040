# SPDX-License-Identifier: GPL-2.0-only
# A profile recorded on a PVM guest (kernel 6.18, software-clock, the
# default `perpkt record -d 3`): its halt is pvm_safe_halt_hc and its
# irq-enable point pvm_irq_enable, names no idle rule lists. Read by
# context, the report must still be right: the headline names a real
# bucket, bucket other is under 10% of the workload's busy time, the
# halt is idle, and the workload's busy kernel time per round trip is
# below the mean latency (client and responder share one CPU).
# ctest-lock: none
. "$(dirname "$0")/lib.sh"

gzip -dc "$SRCDIR/tests/fixtures/profiles/pvm-demo.json.gz" >"$TMP/p.json" ||
	fail "cannot unpack the fixture"

expect_exit 0 "$PERPKT" report -i "$TMP/p.json"
head -2 "$TMP/out" | tr '\n' ' ' >"$TMP/head"
grep -Eq 'top bucket (scheduler|syscall|net-core|ip|udp|socket|copy|memory)' "$TMP/head" ||
	fail "headline names no real bucket: $(cat "$TMP/head")"
grep -q 'of samples charged to their caller at an irq-enable point' "$TMP/out" ||
	fail "no line on samples charged at irq-enable points"
grep -q 'busy kernel time is in bucket other' "$TMP/out" &&
	fail "a warning on bucket other: $(grep -A2 'bucket other' "$TMP/out")"

# (the halt runs on a CPU the workload did not: every task's rows)
expect_exit 0 "$PERPKT" report -i "$TMP/p.json" --format json --all-tasks
cp "$TMP/out" "$TMP/all.json"
jq -e '[.functions[] | select(.name == "pvm_safe_halt_hc") | .bucket] | length > 0 and all(. == "idle")' "$TMP/all.json" >/dev/null ||
	fail "the halt is not idle: $(jq -c '[.functions[] | select(.name == "pvm_safe_halt_hc") | {bucket, rule}]' "$TMP/all.json")"
jq -e '[.functions[] | select(.name == "pvm_irq_enable")] | length == 0' "$TMP/all.json" >/dev/null ||
	fail "pvm_irq_enable still a row: $(jq -c '[.functions[] | select(.name == "pvm_irq_enable") | {bucket, per_rt}]' "$TMP/all.json")"
expect_exit 0 "$PERPKT" report -i "$TMP/p.json" --format json
cp "$TMP/out" "$TMP/r.json"
jq -e '.irq_enable_points.charged > 0 and .irq_enable_points.charged == .irq_enable_points.samples' "$TMP/r.json" >/dev/null ||
	fail "irq-enable points not all charged: $(jq -c .irq_enable_points "$TMP/r.json")"
other=$(jq '[.workload_busy.buckets[] | select(.name == "other") | .share] | add // 0' "$TMP/r.json")
jq -en --argjson o "$other" '$o < 0.10' >/dev/null ||
	fail "bucket other is $other of the workload's busy time (want < 0.10)"
jq -e '.workload_busy.per_rt.primary < .latency_ns.mean' "$TMP/r.json" >/dev/null ||
	fail "busy kernel $(jq .workload_busy.per_rt.primary "$TMP/r.json") ns/RT not below the mean latency $(jq .latency_ns.mean "$TMP/r.json") ns"
# the tables are the workload's, as the headline is; --all-tasks' are not
jq -e '.rows_of == "workload" and .workload_busy.per_rt.primary == .busy.per_rt.primary and .other_tasks_per_rt >= 0' "$TMP/r.json" >/dev/null ||
	fail "the tables are not the headline's: $(jq -c '[.rows_of, .workload_busy.per_rt.primary, .busy.per_rt.primary, .other_tasks_per_rt]' "$TMP/r.json")"
jq -e '.rows_of == "all tasks" and .workload_busy.per_rt.primary < .busy.per_rt.primary' "$TMP/all.json" >/dev/null ||
	fail "workload and other tasks not apart with --all-tasks: $(jq -c '[.workload_busy.per_rt.primary, .busy.per_rt.primary, .other_tasks_per_rt]' "$TMP/all.json")"

# Without the pass rules (a rules file of its own lacking them) the
# irq-enable point is a function no rule knows, and the report says so,
# naming it and how to add a rule.
printf 'idle func default_idle*\nscheduler func finish_task_switch*\n' >"$TMP/rules"
expect_exit 0 "$PERPKT" report -i "$TMP/p.json" --buckets "$TMP/rules"
tr '\n' ' ' <"$TMP/out" | tr -s ' ' >"$TMP/flat"
grep -q "busy kernel time is in bucket other, functions no rule knows: pvm_irq_enable" "$TMP/flat" ||
	fail "no warning naming pvm_irq_enable: $(head -8 "$TMP/out")"
grep -q -- "--buckets FILE" "$TMP/flat" || fail "the warning does not say how to add a rule"
echo "ok: $(cat "$TMP/head")"
