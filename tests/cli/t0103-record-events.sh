# SPDX-License-Identifier: GPL-2.0-only
# Several sampling events at once, each with its own period, read as one
# group per CPU; software events stand in for the PMU this machine lacks.
# Also callchains, aggregated as stacks.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

expect_exit 0 "$PERPKT" record -q -d 1 -w 0.2 -e cpu-clock,context-switches -o "$TMP/two.json"
P="$TMP/two.json"
jq -e '[.counters.events[].name] == ["cpu-clock", "context-switches"]' "$P" >/dev/null ||
	fail "events: $(jq -c '[.counters.events[].name]' "$P")"
jq -e '.counters.events[0].period == 1000000 and .counters.events[1].period == 1' "$P" >/dev/null ||
	fail "periods: $(jq -c '[.counters.events[] | {name, period}]' "$P")"
# each event's samples carry their own index, not the other's
for e in 0 1; do
	n=$(jq --argjson e $e '[.samples[] | select(.event == $e) | .count] | add' "$P")
	want=$(jq --argjson e $e '.counters.events[$e].samples' "$P")
	[ "$n" = "$want" ] || fail "event $e: $n samples in the table, $want received"
done
# context switches: sampled weight equals the exact group-read count
# (within the few that happen between the last drain and the disable)
jq -e '([.samples[] | select(.event == 1) | .weight] | add) as $w
	| .counters.events[1].count as $c | ($c - $w) >= 0 and ($c - $w) <= 0.01 * $c + 10' "$P" >/dev/null ||
	fail "context-switch samples vs count: $(jq -c '[([.samples[] | select(.event == 1) | .weight] | add), .counters.events[1].count]' "$P")"
# about two switches per round trip when both ends share a CPU
jq -e '.counters.events[1].count / .workload.round_trips | . > 1 and . < 8' "$P" >/dev/null ||
	fail "context switches per round trip: $(jq '.counters.events[1].count / .workload.round_trips' "$P")"
# the software counters are counted per CPU in the same group
jq -e '(.counters.cpus | length) as $n | [.counters.counts[] | select(.name == "cpu-migrations")] | length == $n' "$P" >/dev/null ||
	fail "no per-CPU cpu-migrations counts"
jq -e '.counters.events | all(.running_ns == .enabled_ns)' "$P" >/dev/null ||
	fail "software events were multiplexed"

expect_exit 0 "$PERPKT" record -q -g -d 1 -w 0.2 -F 4000 -o "$TMP/g.json"
G="$TMP/g.json"
# each stack's depth: its leaf node's path to the root (format 3)
jq -e '.stack_nodes as $n | def depth: if . < 0 then 0 else 1 + ($n[.][0] | depth) end;
	(.stacks | length) > 10 and ([.stacks[].node | depth] | max) > 3' "$G" >/dev/null ||
	fail "no callchains: $(jq -c '{n: (.stacks | length)}' "$G")"
# every stack's leaf is a sampled address
jq -e '([.samples[].ip] | unique) as $ips | .stack_nodes as $n | [.stacks[] | $n[.node][1]] | unique | all(. as $x | $ips | index($x) != null)' "$G" >/dev/null ||
	fail "stack leaves are not sampled addresses"
jq -e '([.stacks[] | select(.event == 0) | .weight] | add) == ([.samples[] | select(.event == 0 and .ip != "0x1") | .weight] | add)' "$G" >/dev/null ||
	fail "stack weights do not add up to the sample weights"
# -F: a frequency, recorded as such, not as a period
expect_exit 0 "$PERPKT" record -q -d 0.5 -w 0.1 -e cpu-clock -F 2000 -o "$TMP/f.json"
jq -e '.counters.events[0] | .freq == 2000 and .period == 0' "$TMP/f.json" >/dev/null ||
	fail "-F: $(jq -c '.counters.events[0] | {freq, period}' "$TMP/f.json")"
# context switches and migrations are counted only when -e names one:
# an enabled software counter costs every context switch (two a round
# trip here) a perf event, 0.65% of the round trip by turns at 1 kHz
# (tests/bench/bench-probe.sh), which perf record does not pay
jq -e '[.counters.counts[] | select(.name == "context-switches" or .name == "cpu-migrations")] | length == 0' \
	"$TMP/f.json" >/dev/null ||
	fail "record counted companions it was not asked for: $(jq -c '[.counters.counts[].name] | unique' "$TMP/f.json")"
[ "$(strace -f -e trace=perf_event_open "$PERPKT" record -q -d 0.2 -w 0.1 -o "$TMP/s.json" 2>&1 |
	grep -c 'PERF_COUNT_SW_CONTEXT_SWITCHES')" = 0 ] || ! command -v strace >/dev/null ||
	fail "record opened a context-switch counter it was not asked for"
echo ok
