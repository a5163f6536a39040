# SPDX-License-Identifier: GPL-2.0-only
# Corruptions that used to pass with exit 0 and a changed headline are
# refused on load, naming the field (src/profile/read-check.c): sample
# weights zeroed or beyond what was counted, samples dropped, windows
# reordered against their samples, kallsyms emptied under samples in
# the kernel's text, a latency mean below zero or outside min..max.
# --force reads each, with the warning at the top.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles

# the fixtures themselves read cleanly
for f in sw-clock rep-a; do
	expect_exit 0 "$PERPKT" report -i "$P/$f.json"
	[ -s "$TMP/err" ] && fail "$f is not clean: $(cat "$TMP/err")"
done

# corrupt FIXTURE EXPR FIELD: FIXTURE with jq EXPR applied is refused,
# the message naming FIELD; --force reads it and says so at the top
n=0
corrupt() {
	n=$((n + 1))
	jq "$2" "$P/$1.json" >"$TMP/bad$n.json" || fail "jq '$2'"
	expect_exit 2 "$PERPKT" report -i "$TMP/bad$n.json"
	grep -q "is inconsistent: .*$3" "$TMP/err" || fail "'$2': field $3 not named: $(cat "$TMP/err")"
	grep -q "read it anyway with --force" "$TMP/err" || fail "'$2': no remedy: $(cat "$TMP/err")"
	[ -s "$TMP/out" ] && fail "'$2': a report was printed"
	expect_exit 0 "$PERPKT" report -i "$TMP/bad$n.json" --force
	sed -n '1,/^$/p' "$TMP/out" | grep -q "^warning: inconsistent profile, read with --force" ||
		fail "'$2' --force: no warning at the top: $(head -4 "$TMP/out")"
}
corrupt sw-clock '.samples[].weight = 0' 'samples\[0\] weighs 0 for 1200 samples'
corrupt sw-clock '.samples[0].weight *= 100' "samples of 'cpu-clock' weigh .*, more than the 200000000 counters.events\[0\].count"
corrupt sw-clock '.samples |= .[0:(length / 2 | floor)]' "samples lists .* samples of 'cpu-clock', but counters.events\[0\].samples says 9140"
corrupt rep-a '.workload.repeats |= [.[1], .[0], .[2], .[3]]' 'window 1 weigh .* workload.repeats\[1\].counts'
corrupt sw-clock '.kallsyms = []' 'kallsyms is empty, but samples\[0\] is at 0xffffffff81001010'
corrupt sw-clock '.workload.latency_ns.mean = -9.2e18' 'workload.latency_ns.mean is -9.2e+18 ns, outside its min 40000'
corrupt sw-clock '.workload.latency_ns.stddev = -1' 'workload.latency_ns.stddev is -1'
corrupt rep-a '.workload.repeats[2].latency_ns.mean = 1e9' 'workload.repeats\[2\].latency_ns.mean is 1e+09'

# what may be: fewer weights than counted (throttled, multiplexed,
# idle CPUs), no kallsyms where record could read none (no text_addr)
jq '.samples[].weight |= (. / 2 | floor)' "$P/sw-clock.json" >"$TMP/half.json"
expect_exit 0 "$PERPKT" report -i "$TMP/half.json"
jq '.kallsyms = [] | .system.text_addr = "0x0"' "$P/sw-clock.json" >"$TMP/nosyms.json"
expect_exit 0 "$PERPKT" report -i "$TMP/nosyms.json"
echo ok
