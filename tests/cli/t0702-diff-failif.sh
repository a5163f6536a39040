# SPDX-License-Identifier: GPL-2.0-only
# --fail-if exit codes, for git bisect run: 0 good, 1 bad, and 128 + the
# usual code on errors so that a bisect stops instead of marking bad.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
A=$P/diff-a.json B=$P/diff-b.json

expect_exit 1 "$PERPKT" diff "$A" "$B" --fail-if 'total > +200'
grep -q "fail-if 'total > +200' holds for '.*diff-b.json': +500.0 ns" "$TMP/err" ||
	fail "no message: $(cat "$TMP/err")"
[ -s "$TMP/out" ] || fail "no diff printed with --fail-if"
expect_exit 0 "$PERPKT" diff "$A" "$B" --fail-if 'total > +600'
expect_exit 1 "$PERPKT" diff "$A" "$B" --fail-if 'bucket:udp > +5%'
expect_exit 0 "$PERPKT" diff "$A" "$B" --fail-if 'bucket:udp > +20%'
expect_exit 1 "$PERPKT" diff "$A" "$B" --fail-if 'function:udp_sendmsg > +200'
expect_exit 1 "$PERPKT" diff "$A" "$B" --fail-if 'latency > +1us'
expect_exit 0 "$PERPKT" diff "$A" "$B" --fail-if 'latency > +10us' --fail-if 'busy < 0'
expect_exit 1 "$PERPKT" diff "$A" "$B" --fail-if 'latency > +10us' --fail-if 'busy > 0'
# the repeats: a shift inside the noise still passes a loose bound
expect_exit 0 "$PERPKT" diff "$P/rep-a.json" "$P/rep-noise.json" --fail-if 'function:udp_sendmsg > +1500'
expect_exit 1 "$PERPKT" diff "$P/rep-a.json" "$P/rep-shift.json" --fail-if 'function:udp_sendmsg > +1500'
# the marks' basis: +1000 passes +500 but not the windows' noise
expect_exit 0 "$PERPKT" diff "$P/rep-a.json" "$P/rep-noise.json" --fail-if 'function:udp_sendmsg > +500'
grep -q "fail-if 'function:udp_sendmsg > +500' does not hold for '.*rep-noise.json': +1000.0 passes the limit but not the noise" "$TMP/err" ||
	fail "a change inside the noise not said: $(cat "$TMP/err")"
# one window a side: the raw delta decides, and the diff says so
expect_exit 1 "$PERPKT" diff "$A" "$B" --fail-if 'total > +200'
grep -q "fail-if judges the raw deltas: .* has one window" "$TMP/err" ||
	fail "raw-delta basis not said: $(cat "$TMP/err")"

# unknown expression: usage with an example; 192 = 128 + 64 aborts a bisect
expect_exit 192 "$PERPKT" diff "$A" "$B" --fail-if 'udp is slower'
grep -q "unknown --fail-if expression 'udp is slower'" "$TMP/err" || fail "no reason"
grep -q "for example --fail-if 'bucket:udp > +5%'" "$TMP/err" || fail "no example"
grep -q "^usage: perpkt diff" "$TMP/err" || fail "no usage"
# failures: 130 = 128 + 2
expect_exit 130 "$PERPKT" diff "$A" "$P/zero-rt.json" --fail-if 'total > 0'
grep -q "profile '.*zero-rt.json' has no round trips" "$TMP/err" || fail "zero-rt not named"
expect_exit 130 "$PERPKT" diff "$A" "$TMP/missing.json" --fail-if 'total > 0'
# a name in no profile (a typo) stops the bisect: 130, unless --allow-missing
expect_exit 130 "$PERPKT" diff "$A" "$B" --fail-if 'function:udp_sendmesg > +200'
grep -q "no function 'udp_sendmesg' in any profile" "$TMP/err" || fail "typo not named: $(cat "$TMP/err")"
expect_exit 130 "$PERPKT" diff "$A" "$B" --fail-if 'bucket:nosuch < 0'
expect_exit 0 "$PERPKT" diff "$A" "$B" --fail-if 'function:udp_sendmesg > +200' --allow-missing
# latency percentiles: rep-shift's p99 is 126.62 us against 124.94 (+1.3%)
R=$P/rep-a.json S=$P/rep-shift.json
# beyond the windows' noise, but under the 2% floor of a latency change
# between separate runs: the diff marks it not, so it does not hold
expect_exit 0 "$PERPKT" diff "$R" "$S" --fail-if 'latency.p99 > +1%'
grep -q "fail-if 'latency.p99 > +1%' does not hold for '.*rep-shift.json': +1.4% is beyond the noise but under the 2% floor" "$TMP/err" ||
	fail "p99 under the floor not said: $(cat "$TMP/err")"
expect_exit 0 "$PERPKT" diff "$R" "$S" --fail-if 'latency.p99 > +5%'
expect_exit 0 "$PERPKT" diff "$R" "$S" --fail-if 'latency.p99 > +1us'
expect_exit 0 "$PERPKT" diff "$R" "$S" --fail-if 'latency.p50 > +1%'
expect_exit 0 "$PERPKT" diff "$R" "$S" --fail-if 'latency.mean > +1%'
# a percentile that moved beyond both: busy's +36% holds, p99's does not
expect_exit 1 "$PERPKT" diff "$R" "$S" --fail-if 'busy > +10%' --fail-if 'latency.p99 > +1%'
grep -q "fail-if 'busy > +10%' holds" "$TMP/err" || fail "busy holding not said"
expect_exit 192 "$PERPKT" diff "$R" "$S" --fail-if 'latency.p98 > +1%'
# and the diff itself shows p50 and p99, the JSON every percentile
expect_exit 0 "$PERPKT" diff "$R" "$S"
grep -q "^  p99: 124.94 -> 126.62 us" "$TMP/out" || fail "no p99 line: $(grep -A3 ^latency "$TMP/out")"
expect_exit 0 "$PERPKT" diff "$R" "$S" --format json
jq -e '.latency_percentiles.p99.delta[1] > 1600 and .latency_percentiles.p99.delta[1] < 1800 and .latency_percentiles.p999.delta[0] == null' "$TMP/out" >/dev/null ||
	fail "json percentiles: $(jq -c .latency_percentiles "$TMP/out")"
# table --value latency-p99: each window's p99
expect_exit 0 "$PERPKT" table --value latency-p99 "$R"
grep -q "latency p99 (us)" "$TMP/out" && grep -q " 124.935 " "$TMP/out" ||
	fail "table latency-p99: $(cat "$TMP/out")"
# without --fail-if the usual codes
expect_exit 2 "$PERPKT" diff "$A" "$P/zero-rt.json"
expect_exit 64 "$PERPKT" diff "$A"
expect_exit 0 "$PERPKT" diff "$A" "$B"
echo ok
