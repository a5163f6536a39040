#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# ctest-timeout: 3600
# ctest-order: last
# record --kernel --exact --cache-model (issue 51) on the lab's kernel
# tree (tests/lab/kernel-tree.sh), whose series plants a commit that
# only aligns udp.c's functions to 64 bytes: its parent and it are built
# (udp.o and the link; ccache and the tree stay in the cache) and booted
# with the model, the aligned one twice. Checked: the two boots of one
# kernel make the same misses, to the one, at every address; the miss
# events add up, per function, to the report's table and the counts;
# the diff of parent and aligned calls it a layout change (the same
# instructions per round trip within 0.2%, other L1I misses) in text and
# JSON; --fail-if decides on the misses, and not on the total; every
# JSON validates against its schema. It checks out commits in the shared
# tree, as t0809 does: no ctest-lock line, so it holds `host` and never
# runs beside t0809.
. "$(dirname "$0")/lib.sh"
need_x86_guest "the cache model test"
[ -z "${ASAN_OPTIONS:-}" ] || skip "kernel builds and three guest boots: run on the plain build (make check-lab)"
kernel_tree
cache=$KTREE_CACHE
aligned=$(git -C "$tree" log --format=%H --grep="^udp: align the functions" base..series)
[ -n "$aligned" ] || fail "the series has no alignment commit: $(git -C "$tree" log --oneline base..series)"
trap 'git -C "$tree" checkout -q -f series; rm -rf "$TMP"' EXIT

# a commit's bzImage, built as kernel-tree.sh builds (the same identity),
# and its vmlinux kept as $TMP/vmlinux.NAME (the diff reads each
# profile's symbols from the vmlinux of its build-id)
build() { # COMMIT NAME
	git -C "$tree" checkout -q -f "$1" || fail "cannot check out $1"
	CCACHE_DIR=$cache/ccache KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026" \
	KBUILD_BUILD_VERSION=1 KBUILD_BUILD_USER=perpkt KBUILD_BUILD_HOST=bisect \
		make -s -C "$tree" -j"$(nproc)" CC="ccache gcc" bzImage >"$TMP/make" 2>&1 ||
		{ tail -20 "$TMP/make" >&2; fail "the build of $(git -C "$tree" log -1 --format='%h %s' "$1") failed"; }
	cp "$tree/vmlinux" "$TMP/vmlinux.$2"
}
# the model slows the guest (boot about 4.7x): more than expect_exit's 240 s
# under load
record() { # OUT
	EXPECT_TIMEOUT=1200 expect_exit 0 "$PERPKT" record -q --kernel "$tree" --exact --cache-model skylake \
		-d 0.3 -w 0.2 -o "$1"
}
t0=$SECONDS
build "$aligned^" a
record "$TMP/a.json"
build "$aligned" b
record "$TMP/b.json"
record "$TMP/b2.json"
echo "built and recorded in $((SECONDS - t0)) s"
A=$TMP/a.json B=$TMP/b.json
VML=(--vmlinux "$TMP/vmlinux.a" --vmlinux "$TMP/vmlinux.b")

# (1) the same kernel booted twice: the same misses at every address
misses() { jq -c '[.counters.events as $e | .samples[] |
	select($e[.event].name | endswith("-misses")) |
	[$e[.event].name, .ip, .cpu, .weight]] | sort' "$1"; }
[ "$(misses "$B")" = "$(misses "$TMP/b2.json")" ] ||
	fail "two boots of one kernel made other misses: $(jq -c '[.counters.events[].count]' "$B" "$TMP/b2.json")"
jq -e '[.counters.events[].name] == ["instructions", "l1i-misses", "l1d-misses", "l2-misses"]' "$B" >/dev/null ||
	fail "the events: $(jq -c '[.counters.events[].name]' "$B")"
jq -e '[.counters.events[1:][].count] | all(. > 0)' "$B" >/dev/null ||
	fail "a level made no miss: $(jq -c '[.counters.events[].count]' "$B")"
jq -r '.conditions["lab.miss_model"]' "$B" | grep -q "^skylake: L1I 32 KiB 8-way" ||
	fail "lab.miss_model: $(jq -r '.conditions["lab.miss_model"]' "$B")"
echo "boots agree: $(jq -c '[.counters.events[].count]' "$B")"

# (2) the report: the functions' misses add up to the total, and the
# text's table is there
expect_exit 0 "$PERPKT" report -i "$B" --format json --limit 0
jq -e '([.functions[].per_rt["l1i-misses"]] | add) as $f | .total.per_rt["l1i-misses"] as $t |
	(($f - $t) | fabs) < 1e-6 * $t and $t > 0' "$TMP/out" >/dev/null ||
	fail "the functions' L1I misses do not add up to the total: $(jq -c .total.per_rt "$TMP/out")"
cp "$TMP/out" "$TMP/r.json"
expect_exit 0 "$PERPKT" report -i "$B"
grep -q "^cache misses per round trip, modelled (skylake" "$TMP/out" ||
	fail "no cache miss table in the text report"

# (3) the diff names the kind of change
expect_exit 0 "$PERPKT" diff "$A" "$B" "${VML[@]}" --format json --limit 0
cp "$TMP/out" "$TMP/d.json"
jq -r '.misses.change_words[1]' "$TMP/d.json"
jq -e '.misses.change[1] == "layout" and .misses["l1i-misses"].delta[1] != 0 and
	((.total.rel[1] // 0) | fabs) < 0.002' "$TMP/d.json" >/dev/null ||
	fail "not a layout change: $(jq -c '[.misses.change, .total.rel, .misses["l1i-misses"].delta]' "$TMP/d.json")"
expect_exit 0 "$PERPKT" diff "$A" "$B" "${VML[@]}"
# the sentence wraps where its numbers put it
unwrap | grep -q "layout/alignment change" ||
	fail "the text diff does not say layout: $(grep -A2 'against A' "$TMP/out")"
grep -A12 "^cache misses per" "$TMP/out"

# (4) --fail-if on the misses, as perpkt-bisect would ask it: the L1I
# misses moved, the total did not (beyond 1%)
d=$(jq '.misses["l1i-misses"].delta[1]' "$TMP/d.json")
if awk -v d="$d" 'BEGIN { exit !(d > 0) }'; then op='>'; else op='<'; fi
expect_exit 1 "$PERPKT" diff "$A" "$B" "${VML[@]}" --fail-if "l1i-misses $op 0"
expect_exit 0 "$PERPKT" diff "$A" "$B" "${VML[@]}" --fail-if 'total > +1%'
expect_exit 0 "$PERPKT" diff "$B" "$TMP/b2.json" "${VML[@]}" --fail-if 'l1i-misses > 0' --fail-if 'l1i-misses < 0'

if python3 -c 'import jsonschema' 2>/dev/null; then
	V="python3 $SRCDIR/tests/schema-validate.py $SRCDIR/docs/schema"
	$V profile "$B" || fail "the profile does not validate"
	$V report "$TMP/r.json" || fail "the report does not validate"
	$V diff "$TMP/d.json" || fail "the diff does not validate"
fi
# PERPKT_TEST_KEEP=DIR keeps the profiles and the diff for reading
[ -z "${PERPKT_TEST_KEEP:-}" ] || { mkdir -p "$PERPKT_TEST_KEEP" && cp "$A" "$B" "$TMP/d.json" "$TMP"/vmlinux.* "$PERPKT_TEST_KEEP/"; }
echo ok
