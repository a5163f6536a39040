# SPDX-License-Identifier: GPL-2.0-only
# The HTML report says what the text says: its error bars are the text's
# +- (sd across repeats when the profile has them, not the sampling
# error), and its charts carry axis labels, units and tick values.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles

# rep-a.json has three windows: the text shows sd 816.5 for udp
expect_exit 0 "$PERPKT" report -i "$P/rep-a.json" --by bucket
text_udp=$(awk '$NF == "udp" { print $5; exit }' "$TMP/out")
[ -n "$text_udp" ] || fail "no udp row in the text report"
grep -q ' sd bucket$' "$TMP/out" || fail "the text does not call its bar sd"
expect_exit 0 "$PERPKT" report -i "$P/rep-a.json" --format html
html_udp=$(grep -o '<text[^>]*>udp</text><rect[^>]*/><text[^>]*>[0-9.]* &#177; [0-9.]*</text>' "$TMP/out" |
	sed 's/.*&#177; \([0-9.]*\)<.*/\1/' | head -1)
[ "$html_udp" = "$text_udp" ] || fail "HTML error bar $html_udp, text says $text_udp"
grep -q '<th>sd</th>' "$TMP/out" || fail "HTML tables do not call the spread sd"
grep -q 'per round trip (&#177; sd across repeats)' "$TMP/out" || fail "bar axis unit missing"

# the histogram's axes: time in us with ticks, counts on the y axis
expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json" --format html
grep -q 'round-trip latency (us, log scale)' "$TMP/out" || fail "no x axis label"
grep -q '>round trips (log)</text>' "$TMP/out" || fail "no y axis label"
grep -q 'text-anchor="middle">100</text>' "$TMP/out" || fail "no 100 us tick"
grep -q 'ns per round trip (&#177; sampling error, 1 sd)' "$TMP/out" || fail "bar unit missing"
# one bar per pixel column at most, whatever the histogram's resolution
[ "$(grep -c '<rect x="[0-9]*" y="[0-9.]*" width="1"' "$TMP/out")" -le 620 ] ||
	fail "the histogram draws more bars than pixels"
echo "ok: udp +- $html_udp in both"
