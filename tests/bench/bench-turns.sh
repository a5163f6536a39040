#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What a setting compared by turns resolves (issue 48): in a network
# namespace of the benchmark's own, RUNS records by turns of nothing at
# all (--turn-on true --turn-off true: the interval an A/A by turns
# gives), then RUNS of N policy-routing rules that every route lookup
# walks (about 1% of the round trip at the default 35 here), each diffed
# as its own two sides. Prints each diff's latency change, its 95%
# interval and mark, and fib_rules_lookup's mark.
#
#   tests/bench/bench-turns.sh [PERPKT] [RUNS] [RULES]
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PERPKT=${1:-${PERPKT:-$HERE/../../build/perpkt}}
RUNS=${2:-3}
RULES=${3:-35}
[ "$(id -u)" = 0 ] || { echo "bench-turns: needs root for a network namespace" >&2; exit 77; }
NS=perpkt-bench-$$-t
TMP=$(mktemp -d)
trap 'ip netns del $NS 2>/dev/null; rm -rf "$TMP"' EXIT
ip netns add $NS && ip -n $NS link set lo up || exit 2
# split the namespace's merged local and main tables before the traffic:
# the first policy rule does it, and a lookup in that instant fails
# (ENETUNREACH; t0139 says more)
ip -n $NS rule add pref 32000 lookup main && ip -n $NS rule del pref 32000 || exit 2
{
	for i in $(seq 1 "$RULES"); do echo "rule add pref $i from 198.18.0.$i lookup 100"; done
	echo "rule add pref $((RULES + 1)) lookup local"
	echo "rule del pref 0"
} >"$TMP/on"
{
	echo "rule add pref 0 lookup local"
	for i in $(seq 1 $((RULES + 1))); do echo "rule del pref $i"; done
} >"$TMP/off"

one() {	# NAME ON OFF
	ip netns exec $NS "$PERPKT" record -q --turn-on "$2" --turn-off "$3" -o "$TMP/$1.json" ||
		return 1
	"$PERPKT" diff "$TMP/$1.json" >"$TMP/$1.txt" 2>/dev/null
	"$PERPKT" diff --format json "$TMP/$1.json" 2>/dev/null |
		jq -r --arg n "$1" '
		[.functions[] | select(.name == "fib_rules_lookup") | .mark[1]][0] as $f |
		"\($n): latency \(.latency.delta[1] / 1000 | . * 1000 | round / 1000) us (\(.latency.rel[1] * 100 | . * 100 | round / 100)%) mark \(.latency.mark[1] // "" | if . == "" then "none" else . end), fib_rules_lookup \($f // "absent" | if . == "" then "unmarked" else . end)"'
	grep -A1 '95% interval' "$TMP/$1.txt" | head -1 | sed "s/^ */$1: /"
}
echo "load $(cut -d' ' -f1 /proc/loadavg)"
for r in $(seq 1 "$RUNS"); do one "aa$r" true true; done
for r in $(seq 1 "$RUNS"); do
	one "rules$r" "ip -batch $TMP/on" "ip rule show pref 0 | grep -q . || ip -batch $TMP/off"
done
echo "load $(cut -d' ' -f1 /proc/loadavg)"
