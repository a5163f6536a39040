#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Hardware samples placed as honestly as software ones, on a fixture
# changed by jq: user-space samples of kernel-only sampling (skid) are
# set apart with a line saying how many, never the headline's top
# bucket; samples at an irq-enable point are charged to their caller
# on an arm64 PMU without pseudo-NMI (and the report says why), not with
# pseudo-NMI on, nor on x86, where the PMU interrupt is an NMI.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "needs jq"
F=$FIXTURES/profiles/hw-mux.json
# 2000 user-space samples (more than udp's 1800), 600 at
# arch_local_irq_enable whose callchain says udp_sendmsg called it
make() {
	jq --arg m "$1" --argjson c "$2" '
	.system.machine = $m | .conditions = $c | .counters.events[0].samples += 2600 |
	.kallsyms += [{"addr": "0xffffffff81007000", "module": null,
		"name": "arch_local_irq_enable", "size": 256, "type": "t"}] |
	.samples += [
		{"count": 2000, "cpu": 1, "event": 0, "ip": "0x1", "role": "client", "weight": 400000000},
		{"count": 600, "cpu": 1, "event": 0, "ip": "0xffffffff81007010", "role": "client", "weight": 120000000}] |
	.stacks = [{"event": 0, "role": "client", "count": 600, "weight": 120000000,
		"ips": ["0xffffffff81007010", "0xffffffff81001010"]}]' "$F" >"$TMP/$3.json" ||
		fail "jq on $F"
}
make aarch64 '{"kernel.pseudo_nmi": "off (no irqchip.gicv3_pseudo_nmi=1 on the kernel command line)"}' arm
make aarch64 '{"kernel.pseudo_nmi": "on (irqchip.gicv3_pseudo_nmi=1, CONFIG_ARM64_PSEUDO_NMI=y)"}' nmi
make x86_64 '{}' x86
# an older arm64 profile: no kernel.pseudo_nmi, its command line tells
make aarch64 '{"kernel.cmdline": "root=/dev/vda irqchip.gicv3_pseudo_nmi=1"}' old

expect_exit 0 "$PERPKT" report --width 200 -i "$TMP/arm.json"
head -1 "$TMP/out" | grep -q "top bucket udp" ||
	fail "skid is the top bucket: $(head -2 "$TMP/out")"
grep -q "2000 cycles samples (35.7% of them) landed in user space although only the kernel was sampled: skid" "$TMP/out" ||
	fail "no skid line: $(cat "$TMP/out")"
grep -q "sampling interrupt maskable: arm64 PMU without pseudo-NMI" "$TMP/out" ||
	fail "arm64 without pseudo-NMI: no charge line: $(cat "$TMP/out")"
expect_exit 0 "$PERPKT" report --format json -i "$TMP/arm.json"
jq -e '.irq_enable_points == {"samples": 600, "charged": 600, "maskable": "arm64 PMU without pseudo-NMI"} and
	.user_skid.samples.cycles == 2000 and
	([.buckets[] | select(.bucket == "user" or .name == "user")] | length) == 0' "$TMP/out" >/dev/null ||
	fail "arm64 JSON: $(jq -c '{irq_enable_points, user_skid}' "$TMP/out")"

for p in nmi x86 old; do
	expect_exit 0 "$PERPKT" report --format json -i "$TMP/$p.json"
	jq -e '.irq_enable_points == {"samples": 0, "charged": 0, "maskable": null} and
		.user_skid.samples.cycles == 2000' "$TMP/out" >/dev/null ||
		fail "$p: an NMI moves nothing: $(jq -c '{irq_enable_points, user_skid}' "$TMP/out")"
done
expect_exit 0 "$PERPKT" report --width 200 -i "$TMP/x86.json"
grep -q "sampling interrupt maskable" "$TMP/out" && fail "x86: samples charged: $(cat "$TMP/out")"
exit 0
