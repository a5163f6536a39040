#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# record --kernel --exact: the QEMU plugin counts the guest's
# instructions between the window's marks. Two boots of one kernel
# (-r 2) on one vCPU, deterministic: the counts are there, kernel only,
# per vCPU, and identical in both boots and in a third beside two CPU
# hogs, to the instruction and the round trip; the report says what the
# figure is; merge joins boots of separate runs and refuses another
# kernel's.
# The kernel is t0801's (tests/lab/fetch-kernel.sh, cached).
. "$(dirname "$0")/lib.sh"
need_x86_guest "the exact-mode test"
[ -r "$BUILDDIR/perpkt-exact.so" ] ||
	skip "the QEMU plugin was not built: no qemu-plugin.h (make deps fetches it; then build again)"
rel=${PERPKT_LAB_KERNEL:-6.1.0-57-cloud-amd64}
root=$("$SRCDIR/tests/lab/fetch-kernel.sh" "$rel" 2>"$TMP/fetch") ||
	{ cat "$TMP/fetch" >&2; skip "cannot fetch kernel $rel"; }
img=$root/boot/vmlinuz-$rel

# what --exact refuses, before anything boots
expect_exit 64 "$PERPKT" record --exact -d 1 -o "$TMP/x.json"
grep -q -- "--exact counts with a QEMU plugin: it goes with --kernel" "$TMP/err" || fail "no --kernel: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --kernel "$img" --exact -g -o "$TMP/x.json"
grep -q -- "-e, -c, -F and -g are for sampling" "$TMP/err" || fail "-g: $(cat "$TMP/err")"

expect_exit 0 "$PERPKT" record --kernel "$img" --exact -r 2 -d 0.5 -w 0.3 -o "$TMP/e.json"
P=$TMP/e.json
grep -q "boot 2 of 2" "$TMP/err" || fail "no second boot: $(cat "$TMP/err")"
jq -e '.counters.mode == "exact" and (.counters.events | length) == 1 and
	.counters.events[0].name == "instructions" and
	.counters.events[0].pmu == "qemu-tcg-plugin" and .counters.events[0].count > 0 and
	(.workload.repeats | length) == 2 and .conditions["lab.boots"] == "2"' "$P" >/dev/null ||
	fail "exact profile: $(jq -c '[.counters.mode, .counters.events, (.workload.repeats | length)]' "$P")"
# every counted address is the kernel's (top bit set), and has a symbol
jq -e '[.samples[] | .ip | test("^0xf")] | all' "$P" >/dev/null || fail "a user-space address in the counts"
jq -e '.kallsyms | length > 100' "$P" >/dev/null || fail "no kallsyms entries for the counted addresses"
jq -r '.conditions["kernel.cmdline"]' "$P" | grep -q nokaslr || fail "boots without nokaslr"
# the window's counts: the repeats' totals add up to the event's count
jq -e '([.workload.repeats[].counts[0]] | add) == .counters.events[0].count' "$P" >/dev/null ||
	fail "window counts do not add up"
# per vCPU: the counts name the CPUs and add up too
jq -e '([.counters.counts[] | select(.name == "instructions") | .value] | add) ==
	.counters.events[0].count' "$P" >/dev/null || fail "per-CPU counts do not add up"

# deterministic (one vCPU on QEMU's instruction clock): the two boots
# executed the same instructions, each address as often, and the same
# round trips; perpkt says so and keeps it in the profile
jq -r '.conditions["lab.deterministic"]' "$P" | grep -q '^yes: -icount shift=1' ||
	fail "not deterministic: $(jq -r '.conditions["lab.deterministic"]' "$P")"
grep -q "boot 2 is identical to boot 1: [0-9]* instructions at [0-9]* addresses, [0-9]* round trips" "$TMP/err" ||
	fail "the boots were not compared: $(cat "$TMP/err")"
jq -r '.conditions["lab.boots_agree"]' "$P" | grep -q '^yes: 2 boots' ||
	fail "lab.boots_agree: $(jq -r '.conditions["lab.boots_agree"]' "$P")"
jq -e '.workload.repeats[0].round_trips == .workload.repeats[1].round_trips and
	.workload.repeats[0].counts[0] == .workload.repeats[1].counts[0]' "$P" >/dev/null ||
	fail "the boots differ: $(jq -c '[.workload.repeats[] | [.round_trips, .counts[0]]]' "$P")"

# a third boot beside two CPU hogs: the host's load does not reach the
# guest's clock, so it executes the same instructions as the first
hogs=()
for i in 1 2; do (while :; do :; done) & hogs+=($!); done
expect_exit 0 "$PERPKT" record --kernel "$img" --exact -d 0.5 -w 0.3 -o "$TMP/h.json"
kill "${hogs[@]}" 2>/dev/null; wait "${hogs[@]}" 2>/dev/null
counts() { jq -c "[.samples[] | select((.repeat // 0) == $2) | [.cpu, .ip, .weight]] | sort" "$1"; }
[ "$(counts "$P" 0)" = "$(counts "$TMP/h.json" 0)" ] || {
	"$PERPKT" diff "$P" "$TMP/h.json" --force >&2
	fail "the boot beside two hogs executed other instructions"
}
jq -e --slurpfile e "$P" '.workload.round_trips == $e[0].workload.repeats[0].round_trips' \
	"$TMP/h.json" >/dev/null || fail "round trips beside the hogs: $(jq .workload.round_trips "$TMP/h.json")"
echo "three boots, one beside two CPU hogs: $(jq .counters.events[0].count "$TMP/h.json") instructions, $(jq .workload.round_trips "$TMP/h.json") round trips in each"

expect_exit 0 "$PERPKT" report -i "$P"
tr -s '\n ' '  ' <"$TMP/out" | grep -q "p99 [0-9.]* us (virtual); busy kernel [0-9]* exact insns/RT, identical in 2 boots" ||
	fail "headline: $(head -3 "$TMP/out")"
tr -s '\n ' '  ' <"$TMP/out" | grep -q "exact mode: instructions the emulated CPU executed" || fail "no exact-mode note"
tr -s '\n ' '  ' <"$TMP/out" | grep -q "deterministic: the guest ran on QEMU's instruction clock" || fail "no line on the instruction clock"
grep -q "sampling error, value/sqrt" "$TMP/out" && fail "Poisson note in exact mode"
expect_exit 0 "$PERPKT" report -i "$P" --format json
jq -e '.mode == "exact"' "$TMP/out" >/dev/null || fail "json mode: $(jq .mode "$TMP/out")"
if python3 -c 'import jsonschema' 2>/dev/null; then
	V="python3 $SRCDIR/tests/schema-validate.py $SRCDIR/docs/schema"
	cp "$TMP/out" "$TMP/report.json"
	$V profile "$P" || fail "the exact profile does not validate"
	$V report "$TMP/report.json" || fail "the exact report does not validate"
fi

# merge: two runs as one, their windows as repeats; another kernel's refused
expect_exit 0 "$PERPKT" merge -o "$TMP/m.json" "$P" "$P"
jq -e '(.workload.repeats | length) == 4 and .workload.round_trips ==
	2 * ($p[0].workload.round_trips)' --slurpfile p "$P" "$TMP/m.json" >/dev/null ||
	fail "merged: $(jq -c '[(.workload.repeats | length), .workload.round_trips]' "$TMP/m.json")"
other=$(ls "$FIXTURES"/profiles/*.json | head -1)
expect_exit 2 "$PERPKT" merge -o "$TMP/m2.json" "$P" "$other"
grep -q "another kernel\|recorded otherwise\|events" "$TMP/err" || fail "merge of another run: $(cat "$TMP/err")"
[ ! -e "$TMP/m2.json" ] || fail "a refused merge left its output"
expect_exit 0 "$PERPKT" diff "$P" "$TMP/m.json"
tr -s '\n ' '  ' <"$TMP/out" | grep -q "exact mode: instructions" || fail "diff of exact profiles does not say so"
echo ok
