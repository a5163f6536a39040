# SPDX-License-Identifier: GPL-2.0-only
# A hardware event that the kernel accepts but that counts nothing (QEMU's
# arm_ac57::INST_RETIRED without -icount) is flagged as not counting, shown
# as n/a and not as zero, and no IPC comes from it; a cycle period says
# what it is in time at the clock it was derived from.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles

expect_exit 0 "$PERPKT" report -i "$P/hw-zero.json"
grep -q '^warning: arm_ac57::INST_RETIRED: not counting' "$TMP/out" ||
	fail "the short report does not flag it at the top: $(head -5 "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$P/hw-zero.json" --full
grep -q '^! arm_ac57::INST_RETIRED: not counting (counted 0 while its group' "$TMP/out" ||
	fail "not flagged in the reconciliation: $(grep INST_RETIRED "$TMP/out")"
grep -q '^not counting: arm_ac57::INST_RETIRED' "$TMP/out" || fail "no not-counting fact"
grep -qE '^samples .* IPC ' "$TMP/out" && fail "an IPC column from an event that does not count"
grep -q 'insns/RT' "$TMP/out" || fail "the instructions column is gone"
# every instructions value is n/a, none is 0.00
# (right-aligned under the header: the three characters ending there)
awk '/insns\/RT/ { end = index($0, "insns/RT") + 7; next }
     end && /^ *[0-9]+ / { n++; if (substr($0, end - 2, 3) != "n/a") bad = 1 }
     /^$/ { end = 0 } END { exit bad || n < 9 }' "$TMP/out" ||
	fail "an instructions value shown as a number"
# (facts wrap at 72 columns: join the continuation lines first)
sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  / /g' "$TMP/out" |
	grep -q 'period 250001 cycles (250 us at 1000 MHz, calibrated' ||
	fail "the period is not told in time: $(grep 'event:' "$TMP/out")"

expect_exit 0 "$PERPKT" report -i "$P/hw-zero.json" --format json
jq -e '.events[0].not_counting == null and (.events[1].not_counting | test("counted 0"))' "$TMP/out" >/dev/null ||
	fail "json not_counting: $(jq -c '[.events[].not_counting]' "$TMP/out")"
jq -e '.total.ipc == null and all(.functions[]; .ipc == null)' "$TMP/out" >/dev/null ||
	fail "json IPC from a zero count: $(jq -c '.total.ipc' "$TMP/out")"

# the same profile with the instructions counting: IPC comes back
jq '.counters.events[1] |= (.count = 50000000 | .samples = 200) |
    .samples += [{event: 1, cpu: 1, ip: .samples[0].ip, role: "client", count: 200, weight: 50000200}]' \
	"$P/hw-zero.json" >"$TMP/counting.json"
expect_exit 0 "$PERPKT" report -i "$TMP/counting.json" --format json
jq -e '.events[1].not_counting == null and .total.ipc > 0.49 and .total.ipc < 0.51' "$TMP/out" >/dev/null ||
	fail "counting instructions: $(jq -c '[.events[1].not_counting, .total.ipc]' "$TMP/out")"
echo ok
