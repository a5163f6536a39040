# SPDX-License-Identifier: GPL-2.0-only
# perpkt stat -r N: N counting windows, each figure with its mean, sd and
# confidence interval; --confidence L,W says whether the interval of the
# mean latency was narrower than W% (netperf's -I 99,5), both in the text
# and the JSON, and the figures are those of the windows themselves.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"

expect_exit 64 "$PERPKT" stat --confidence 99,5
grep -q "needs -r N" "$TMP/err" || fail "--confidence without -r: $(head -1 "$TMP/err")"
expect_exit 64 "$PERPKT" stat -r 3 --confidence 120
grep -q "invalid --confidence '120'" "$TMP/err" || fail "$(head -1 "$TMP/err")"
expect_exit 64 "$PERPKT" record --confidence 95
need_perf

expect_exit 0 "$PERPKT" stat -r 3 -d 0.3 -w 0.1 --format json
jq -e '.repeats.windows == 3 and .repeats.confidence == 0.95 and
	(.repeats.figures[0].name == "latency_ns.mean")' "$TMP/out" >/dev/null ||
	fail "no repeats section: $(jq -c .repeats "$TMP/out")"
# each figure is named by the whole run's key it follows, in that key's
# unit (ns, as units.time says): the mean of the windows' mean latency
# is the whole run's but for the windows' different sizes (the same
# data, unweighted: 44,405 against 32,783 ns once under load, an ASan
# build beside check-lab's guests), so within a factor of 2; a unit
# gone wrong is 1,000
jq -e '[.repeats.figures[] | select(.name == "latency_ns.mean") | .mean] as $m |
	($m | length) == 1 and .latency_ns.mean > 0 and
	$m[0] < 2 * .latency_ns.mean and $m[0] > 0.5 * .latency_ns.mean' "$TMP/out" >/dev/null ||
	fail "windows' mean latency not the run's, in ns: $(jq -c '[.repeats.figures[0].mean, .latency_ns.mean]' "$TMP/out")"
jq -e '[.repeats.figures[] | select(.sd < 0 or .ci_half_width < 0)] | length == 0' "$TMP/out" >/dev/null ||
	fail "negative spread"

# an impossible width is reported as not reached, a generous one as reached
expect_exit 0 "$PERPKT" stat -r 3 -d 0.3 -w 0.1 --confidence 99,0.0001
grep -q "confidence NOT reached" "$TMP/out" || fail "0.0001% width not flagged: $(cat "$TMP/out")"
grep -q "warning: the 99% confidence interval" "$TMP/err" || fail "no warning on stderr"
grep -q "across 3 windows" "$TMP/out" || fail "no spread table in the text"
expect_exit 0 "$PERPKT" stat -r 3 -d 0.3 -w 0.1 --confidence 90,10000 --format json
jq -e '.repeats.reached == true and .repeats.asked_width_pct == 10000' "$TMP/out" >/dev/null ||
	fail "a 10000% width not reached? $(jq -c .repeats "$TMP/out")"
echo "ok"
