#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench's arithmetic (tests/bench/lib.sh) on numbers worked by
# hand: a rate between two runs is never negative (issue 54: a row said
# -0.69x from a -2020 RT/s "rate"), medians, the t interval, verdicts.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/bench/lib.sh"

eq() { [ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"; }
eq "$(window_rate 1000 2 4000 3.5)" 2000 "rate between a short and a long run"
eq "$(window_rate 5000 2 3000 3.5)" - "the longer run counted fewer"
eq "$(window_rate 1000 3 4000 3)" - "the longer run took no longer"
eq "$(printf '3\n1\n2\n' | median)" 2 "median of three"
eq "$(printf '4\n1\n3\n2\n' | median)" 2.5 "median of four"
printf '' | median >/dev/null 2>&1 && fail "median of nothing succeeded"
# 1..5: mean 3, sd 1.5811, se 0.70711, t(0.975, 4) 2.776 (the table's 3
# digits) -> 3 +- 1.96293
eq "$(printf '1\n2\n3\n4\n5\n' | interval)" "3 1.03707 4.96293" "t interval of 1..5"
eq "$(at_most 0.1 0.9 1)" met "interval under the limit"
eq "$(at_most 1.1 2 1)" MISSED "interval over the limit"
eq "$(at_most 0.5 1.5 1)" "same within noise" "interval across the limit"
# a verdict stands on the wider of the within-run and across-pass intervals
eq "$(wider -0.2 0.4 -0.5 1.5)" "-0.5 1.5" "the across-pass interval wider"
eq "$(wider -0.2 0.4 0 0.3)" "-0.2 0.4" "the within-run interval wider"
eq "$(read -r lo hi < <(wider 0.1 0.3 -0.4 0.8); at_most "$lo" "$hi" 0)" "same within noise" \
	"a verdict met within runs but not across passes"
eq "$(calc '7 / 2' %.1f)" 3.5 "calc"
printf '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n' >"$TMP/hl"
read -r est lo hi < <(hodges_lehmann "$TMP/hl")
eq "$est" 5.5 "Hodges-Lehmann of 1..10"
awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(l < 5.5 && h > 5.5 && l >= 1 && h <= 10) }' ||
	fail "Hodges-Lehmann interval $lo..$hi"
echo ok
