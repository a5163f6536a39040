# SPDX-License-Identifier: GPL-2.0-only
# Stack weights are checked against the samples, as the samples are
# against the counts: a stack that weighs more than the samples of its
# event made the flame graphs, folded and --callers say 10^14 ns per
# round trip under a text headline of thousands. Such a profile is
# refused by name in every format; read with --force, the report says
# what disagrees.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
command -v jq >/dev/null || skip "jq not installed"

# heavy.json: one stack of flame-b.json 10^14 heavier; many.json: one
# that holds more samples than the event took
jq '.stacks[0].weight = 100000000000000' "$P/flame-b.json" >"$TMP/heavy.json" ||
	fail "cannot make heavy.json"
jq '.stacks[0].count = .stacks[0].count + 100000 |
	.stacks[0].weight = .stacks[0].weight + 100000 * 10000' \
	"$P/flame-b.json" >"$TMP/many.json" || fail "cannot make many.json"
# a stack that stands for less than a sample each
jq '.stacks[0].weight = .stacks[0].count - 1' "$P/flame-b.json" >"$TMP/light.json" ||
	fail "cannot make light.json"

taken=$(jq '.counters.events[0].samples' "$P/flame-b.json")
for fmt in text folded html svg; do
	# the profile as recorded reads: the check refuses only what disagrees
	expect_exit 0 "$PERPKT" report -i "$P/flame-b.json" --format $fmt
	expect_exit 2 "$PERPKT" report -i "$TMP/heavy.json" --format $fmt
	grep -q "stacks of 'cpu-clock' weigh more than the [0-9]* its samples weigh" "$TMP/err" ||
		fail "heavy.json --format $fmt: not refused by name: $(cat "$TMP/err")"
	expect_exit 2 "$PERPKT" report -i "$TMP/many.json" --format $fmt
	grep -q "stacks hold more samples of 'cpu-clock' than the $taken samples lists" "$TMP/err" ||
		fail "many.json --format $fmt: not refused by name: $(cat "$TMP/err")"
done
expect_exit 2 "$PERPKT" report -i "$TMP/light.json"
grep -q "stacks\[0\] weighs [0-9]* for [0-9]* samples" "$TMP/err" ||
	fail "light.json: not refused by name: $(cat "$TMP/err")"
expect_exit 2 "$PERPKT" report -i "$TMP/heavy.json" --callers udp_sendmsg
expect_exit 2 "$PERPKT" diff --format svg "$P/flame-a.json" "$TMP/heavy.json"
grep -q "weigh more than" "$TMP/err" || fail "diff: not refused by name: $(cat "$TMP/err")"

# --force reads it, and each report says it disagrees
expect_exit 0 "$PERPKT" report -i "$TMP/heavy.json" --force --format html
grep -q "weigh more than" "$TMP/out" || fail "--force: the HTML report does not say what disagrees"
grep -q "weigh more than" "$TMP/err" || fail "--force: no warning on stderr"
expect_exit 0 "$PERPKT" report -i "$TMP/heavy.json" --force --format text --full
grep -q "weigh more than" "$TMP/out" || fail "--force: the text report does not say what disagrees"
echo ok
