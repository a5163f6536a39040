#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# record --kernel --exact follows calls and call paths (issue 51): one
# boot of t0801's cached kernel on the instruction clock. Checked on
# the profile: the call paths became stacks whose weights add up, per
# function, to the per-address counts exactly; the plugin followed the
# calls (task switches resumed, few returns to no frame); calls per
# round trip where the ping-pong fixes them (2 sends and 2 receives a
# round trip); the report's inclusive count equals the folded paths'
# sum through the function; --callers, the flame graph and a diff work
# on exact paths; every JSON validates against its schema.
. "$(dirname "$0")/lib.sh"
need_x86_guest "the exact call-path test"
[ -r "$BUILDDIR/perpkt-exact.so" ] ||
	skip "the QEMU plugin was not built: no qemu-plugin.h (make deps fetches it; then build again)"
rel=${PERPKT_LAB_KERNEL:-6.1.0-57-cloud-amd64}
root=$("$SRCDIR/tests/lab/fetch-kernel.sh" "$rel" 2>"$TMP/fetch") ||
	{ cat "$TMP/fetch" >&2; skip "cannot fetch kernel $rel"; }
img=$root/boot/vmlinuz-$rel

expect_exit 0 "$PERPKT" record --kernel "$img" --exact -d 0.3 -w 0.2 -o "$TMP/e.json"
P=$TMP/e.json
paths=$(jq -r '.conditions["lab.exact_paths"]' "$P")
echo "lab.exact_paths: $paths"
case $paths in yes:*) ;; *) fail "no call paths: $paths" ;; esac
rt=$(jq .workload.round_trips "$P")
[ "$rt" -gt 100 ] || fail "only $rt round trips"

# (1) every execution on one path: per leaf function, the stacks' weights
# equal the samples' (addresses by their low 32 bits: exact in jq)
jq -e '
	def hex: ascii_downcase | .[-8:] | explode |
		reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end));
	([.kallsyms[] | select(.type == "t" or .type == "T" or .type == "W" or .type == "w") | .addr | hex] | unique) as $starts |
	def fn: . as $a | ($starts | bsearch($a)) as $i |
		if $i >= 0 then $starts[$i] else $starts[-2 - $i] end;
	(.stack_nodes | map(.[1] | hex)) as $addr |
	([.stacks[] | {f: ($addr[.node] | fn), w: .weight}] | group_by(.f) |
		map({key: (.[0].f | tostring), value: (map(.w) | add)}) | from_entries) as $paths |
	([.samples[] | {f: (.ip | hex | fn), w: .weight}] | group_by(.f) |
		map({key: (.[0].f | tostring), value: (map(.w) | add)}) | from_entries) as $self |
	($paths == $self) and ([.stacks[].weight] | add) == .counters.events[0].count' "$P" >/dev/null ||
	fail "the paths' weights do not add up to the per-address counts"
echo "paths: $(jq '.stacks | length' "$P") stacks, their weights the $(jq .counters.events[0].count "$P") instructions counted, function by function"

# (2) the following: every task switch but the first ones resumed a
# task's frames; returns to no frame under 1 in 1000 calls
read -r calls switches resumed unmatched < <(echo "$paths" |
	sed -n 's/.* \([0-9]*\) calls followed, .* \([0-9]*\) task switches (\([0-9]*\) to .* \([0-9]*\) returns to no frame.*/\1 \2 \3 \4/p')
[ -n "$calls" ] || fail "cannot read lab.exact_paths"
[ "$switches" -gt "$rt" ] && [ $((switches - resumed)) -le 4 ] ||
	fail "task switches: $switches, of them $resumed resumed"
[ $((unmatched * 1000)) -lt "$calls" ] || fail "$unmatched returns to no frame in $calls calls"

# (3) calls per round trip: a send and a receive each side, the NAPI
# polls as the report's line counts them; instructions per call
expect_exit 0 "$PERPKT" report -i "$P" --format json --limit 0
cp "$TMP/out" "$TMP/r.json"
calls() { jq --arg f "$1" '[.functions[] | select(.name == $f) | .calls_per_rt] | add' "$TMP/r.json"; }
rt=$(jq .workload.round_trips "$P")
# 2 a round trip, give or take the one call the window's edge cut: a
# receive entered before the window opened is not its call (measured
# 2026-12-05: udp_recvmsg 1.99984 over 6,176 round trips)
two() {	# FUNCTION: its calls per round trip are 2, but for one
	awk -v c="$(calls "$1")" -v n="$rt" 'BEGIN { d = (c - 2) * n; exit !(d > -1.5 && d < 1.5) }' ||
		fail "$1: $(calls "$1") calls per round trip over $rt round trips, not 2"
}
for f in udp_sendmsg udp_recvmsg __x64_sys_sendto __napi_poll; do
	two $f
done
# a function reached only by a jump (a tail call) counts as called too
two inet_sendmsg
jq -e '[.functions[] | select(.name == "udp_sendmsg")][0] |
	(.per_call - .per_rt.primary / .calls_per_rt | fabs) < 1e-6 and
	.inclusive_per_rt > 5 * .per_rt.primary' "$TMP/r.json" >/dev/null ||
	fail "udp_sendmsg: $(jq -c '.functions[] | select(.name == "udp_sendmsg") | [.per_rt.primary, .calls_per_rt, .per_call, .inclusive_per_rt]' "$TMP/r.json")"
# inclusive: never below self; the root of a syscall holds nearly all
jq -e '[.functions[] | select(.inclusive_per_rt < .per_rt.primary - 1e-6)] | length == 0' "$TMP/r.json" >/dev/null ||
	fail "an inclusive count below its self count"

# (4) the report's inclusive is the folded paths' sum through the
# function (folded: instructions per round trip x 1000, rounded)
expect_exit 0 "$PERPKT" report -i "$P" --format folded
incl=$(jq '[.functions[] | select(.name == "udp_sendmsg")][0].inclusive_per_rt' "$TMP/r.json")
fold=$(awk '{ w = $NF; sub(/ [0-9]+$/, ""); if (index(";" $0 ";", ";udp_sendmsg;")) s += w } END { print s / 1000 }' "$TMP/out")
awk -v a="$incl" -v b="$fold" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * a) }' ||
	fail "udp_sendmsg inclusive $incl, folded paths through it $fold"
echo "udp_sendmsg: $(calls udp_sendmsg) calls, inclusive $incl instructions per round trip (folded: $fold)"

# (5) --callers, text columns, the flame graphs, a diff
expect_exit 0 "$PERPKT" report -i "$P" --callers udp_sendmsg
grep -q "__sock_sendmsg" "$TMP/out" || fail "--callers udp_sendmsg: $(grep -A4 'callers of' "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$P"
grep -q "calls/RT  *incl/RT" "$TMP/out" || fail "no calls and inclusive columns: $(grep -m1 symbol "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$P" --format svg
grep -q "udp_sendmsg" "$TMP/out" || fail "no udp_sendmsg in the flame graph"
expect_exit 0 "$PERPKT" diff "$P" "$P" --format json --limit 0
jq -e '[.functions[] | select(.name == "udp_sendmsg")][0].calls_per_rt == [2, 2]' "$TMP/out" >/dev/null ||
	fail "diff json calls: $(jq -c '.functions[0]' "$TMP/out")"
cp "$TMP/out" "$TMP/d.json"
if python3 -c 'import jsonschema' 2>/dev/null; then
	V="python3 $SRCDIR/tests/schema-validate.py $SRCDIR/docs/schema"
	$V profile "$P" || fail "the profile does not validate"
	$V report "$TMP/r.json" || fail "the report does not validate"
	$V diff "$TMP/d.json" || fail "the diff does not validate"
fi
echo ok
