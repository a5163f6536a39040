# SPDX-License-Identifier: GPL-2.0-only
# diff opens with the conditions that differ: two copies of a fixture
# profile with different command lines, nftables rulesets and a sysctl
# say so on their first lines, in every format; profiles of different
# worlds (host against a TCG guest, TCG against KVM) are refused unless
# --force, which keeps the warning at the top.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "needs jq"
P=$SRCDIR/tests/fixtures/profiles

# two profiles of one kernel, as record writes their conditions
cond() {
	jq --arg cmd "$1" --arg nf "$2" --arg sc "$3" '.conditions = {
		"kernel.cmdline": $cmd, "net.netfilter": $nf, "net.sysctls": $sc,
		"cpu.model": "Test CPU @ 2.00GHz", "placement": "same CPU"}
		| .system.kernel_release = "6.1.0-57-cloud-amd64"' "$P/diff-a.json"
}
SC="net.core.busy_poll=0, net.core.busy_read=0, net.core.rmem_default=212992"
cond "BOOT_IMAGE=/vmlinuz ro quiet" "conntrack not loaded; nft rules: 0" "$SC" >"$TMP/a.json"
cond "BOOT_IMAGE=/vmlinuz ro quiet mitigations=off" \
	"conntrack not loaded; nft rules: 1000; nft: table inet filter" \
	"${SC/busy_poll=0/busy_poll=50}" >"$TMP/b.json"

expect_exit 0 "$PERPKT" diff --width 200 "$TMP/a.json" "$TMP/b.json"
sed -n 2,4p "$TMP/out" >"$TMP/head"
grep -qx "differs: command line: BOOT_IMAGE=/vmlinuz ro quiet -> BOOT_IMAGE=/vmlinuz ro quiet mitigations=off" "$TMP/head" ||
	fail "no command line on the first lines: $(cat "$TMP/head")"
grep -q "^differs: netfilter: conntrack not loaded; nft rules: 0 -> conntrack not loaded; nft rules: 1000" "$TMP/head" ||
	fail "no netfilter on the first lines: $(cat "$TMP/head")"
# a list condition keeps only the entries that differ
grep -qx "differs: sysctls: net.core.busy_poll=0 -> net.core.busy_poll=50" "$TMP/head" ||
	fail "sysctls not reduced to what differs: $(cat "$TMP/head")"
! grep -q "kernel release\|CPU model\|placement" "$TMP/out" ||
	fail "a condition that is the same is listed"

expect_exit 0 "$PERPKT" diff --format json "$TMP/a.json" "$TMP/b.json"
[ "$(jq -r '[.conditions_differ[].key] | join(" ")' "$TMP/out")" = "kernel.cmdline net.netfilter net.sysctls" ] ||
	fail "json conditions_differ: $(jq -c .conditions_differ "$TMP/out")"
[ "$(jq -r '.conditions_differ[0].values[1]' "$TMP/out")" = "BOOT_IMAGE=/vmlinuz ro quiet mitigations=off" ] ||
	fail "json values: $(jq -c '.conditions_differ[0]' "$TMP/out")"
expect_exit 0 "$PERPKT" diff --format markdown "$TMP/a.json" "$TMP/b.json"
sed -n 3p "$TMP/out" | grep -qx '| differs | A | B |' || fail "markdown does not open with the table"
grep -q '^| command line | BOOT_IMAGE=/vmlinuz ro quiet | BOOT_IMAGE=/vmlinuz ro quiet mitigations=off |$' "$TMP/out" ||
	fail "markdown command line row"
expect_exit 0 "$PERPKT" diff --format csv "$TMP/a.json" "$TMP/b.json"
sed -n 2p "$TMP/out" | grep -qx 'condition,command line,,BOOT_IMAGE=/vmlinuz ro quiet,BOOT_IMAGE=/vmlinuz ro quiet mitigations=off,,,,' ||
	fail "csv does not open with the condition rows: $(sed -n 2p "$TMP/out")"
expect_exit 0 "$PERPKT" diff --format html "$TMP/a.json" "$TMP/b.json"
grep -q '<tr><td>sysctls</td><td>net.core.busy_poll=0</td><td>net.core.busy_poll=50</td></tr>' "$TMP/out" ||
	fail "html differs table"

# the same profile twice: nothing differs, no line says so
expect_exit 0 "$PERPKT" diff "$TMP/a.json" "$TMP/a.json"
! grep -q "^differs:" "$TMP/out" || fail "differs line for identical profiles"
expect_exit 0 "$PERPKT" diff --format json "$TMP/a.json" "$TMP/a.json"
[ "$(jq '.conditions_differ | length' "$TMP/out")" = 0 ] || fail "json conditions_differ not empty"

# worlds: the host against a TCG guest, a TCG against a KVM guest
jq '.conditions["lab.accel"] = "tcg (/dev/kvm: No such file or directory)"' "$TMP/b.json" >"$TMP/tcg.json"
jq '.conditions["lab.accel"] = "kvm"' "$TMP/b.json" >"$TMP/kvm.json"
expect_exit 2 "$PERPKT" diff "$TMP/a.json" "$TMP/tcg.json"
grep -q "A was measured on the host, sampled but B on a QEMU guest under TCG, sampled" "$TMP/err" ||
	fail "host/guest refusal says: $(cat "$TMP/err")"
grep -q "give --force" "$TMP/err" || fail "the refusal does not name --force"
expect_exit 2 "$PERPKT" diff "$TMP/kvm.json" "$TMP/tcg.json"
grep -q "under KVM, sampled but B on a QEMU guest under TCG" "$TMP/err" || fail "KVM/TCG refusal: $(cat "$TMP/err")"
# under --fail-if a refusal stops a bisect (not "bad")
expect_exit 130 "$PERPKT" diff --fail-if 'total > +1%' "$TMP/a.json" "$TMP/tcg.json"
expect_exit 0 "$PERPKT" diff --width 300 --force "$TMP/a.json" "$TMP/tcg.json"
sed -n 2p "$TMP/out" | grep -q "^warning: compared with --force: A was measured on the host" ||
	fail "--force does not keep the warning at the top: $(sed -n 2p "$TMP/out")"
grep -q "^differs: accelerator: (not recorded) -> tcg" "$TMP/out" || fail "accelerator not listed"
expect_exit 0 "$PERPKT" diff --force --format json "$TMP/a.json" "$TMP/tcg.json"
jq -r '.warnings[0]' "$TMP/out" | grep -q "^compared with --force" || fail "json warning"
echo ok
