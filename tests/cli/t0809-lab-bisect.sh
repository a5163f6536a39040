#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# ctest-timeout: 3600
# ctest-order: last
# From a kernel tree to the line (docs/guide.md, "Bisecting your own
# kernel"): Debian's linux-source-6.1 as a git tree in the cache with
# five commits on top (tests/lab/kernel-tree.sh: a comment, a driver the
# guest does not use, 64 calls of a noinline helper per datagram in
# udp_sendmsg, udp.c's functions aligned to 64 bytes, a documentation
# line), built with ccache, bisected by
# perpkt-bisect (git bisect run, record --kernel DIR --exact, diff
# --fail-if). It must name the udp_sendmsg commit; the line diff against
# its parent must put the cost on the added lines of net/ipv4/udp.c, the
# helper's at exactly 2 datagrams x 64 calls x its instructions per round
# trip; annotate udp_sendmsg must show the loop's lines; the harmless
# commits must not move the total (exact counts on the instruction clock);
# the helper's calls read 128 per round trip more (exact calls, issue 51).
# The tree's first build is `make kernel-tree`'s, in the background at
# nice 19 (960 CPU-s from nothing since its configuration lost what no
# guest uses; on a fresh 2-CPU machine about 23-25 minutes beside CI's
# other parts, 2026-12-05); this test runs after the other lab tests
# (ctest-order: last) and waits for it. Later runs rebuild a few files (the tree and
# ccache stay in the cache).
. "$(dirname "$0")/lib.sh"
need_x86_guest "the bisect"
[ -z "${ASAN_OPTIONS:-}" ] || skip "kernel builds and five guest boots: run on the plain build (make check-lab)"
kernel_tree objdump
cache=$KTREE_CACHE
sha() { git -C "$tree" log --format=%H --grep="$1" base..series; }
good=$(git -C "$tree" rev-parse base)
guilty=$(sha "^udp: account each datagram")
[ -n "$guilty" ] || fail "the series has no udp_sendmsg commit: $(git -C "$tree" log --oneline base..series)"

export CCACHE_DIR=$cache/ccache PATH=$BUILDDIR:$PATH
make="make -j$(nproc) CC='ccache gcc' olddefconfig >/dev/null && make -j$(nproc) CC='ccache gcc' bzImage"
out=$TMP/bisect
t0=$SECONDS
EXPECT_TIMEOUT=3500 expect_exit 0 "$SRCDIR/src/lab/perpkt-bisect" -C "$tree" --out "$out" \
	--make "$make" --fail-if 'total > +1%' base series
cat "$TMP/out"
echo "bisect took $((SECONDS - t0)) s; log:"
cat "$out/bisect.log"
# PERPKT_TEST_KEEP=DIR keeps the profiles, diffs and log for reading
[ -z "${PERPKT_TEST_KEEP:-}" ] || { mkdir -p "$PERPKT_TEST_KEEP" && cp -r "$out"/*.log "$out"/*.txt "$out"/*/ "$PERPKT_TEST_KEEP/" 2>/dev/null; }
# (1) the commit that added the work, and the tree left as it was
grep -q "^first bad commit: ${guilty:0:7}[0-9a-f]* udp: account each datagram" "$TMP/out" ||
	fail "the bisect named: $(grep 'first bad' "$TMP/out")"
[ "$(git -C "$tree" rev-parse HEAD)" = "$(git -C "$tree" rev-parse series)" ] ||
	fail "the tree was left at $(git -C "$tree" log -1 --oneline), not at series"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] || fail "the tree was left dirty"
prof() { ls "$out"/*/"$1.json"; }
bad=$(prof "$guilty")
parent=$(prof "$(git -C "$tree" rev-parse "$guilty^")")
[ -s "$bad" ] && [ -s "$parent" ] || fail "no profiles of the first bad commit and its parent"
# every profile names its tree and commit, and ran on the instruction clock
for p in "$out"/*/*.json; do
	c=$(jq -r '.conditions["lab.commit"]' "$p")
	[ "$(git -C "$tree" rev-parse "${c%% *}^{commit}" 2>/dev/null)" = "$(basename "$p" .json)" ] ||
		fail "$p: lab.commit '$c' is not its commit"
	jq -r '.conditions["lab.deterministic"]' "$p" | grep -q '^yes: -icount' || fail "$p: not deterministic"
done
# (2) the line diff: net/ipv4/udp.c, the added lines, the helper exact
f=$out/first-bad.txt
grep -q "kernel commit: " "$f" ||
	fail "the diff does not say the commits differ: $(head -5 "$f")"
added=$(git -C "$tree" show -U0 "$guilty" -- net/ipv4/udp.c | sed -n 's/^@@ .* +\([0-9]*\),\{0,1\}\([0-9]*\) @@.*/\1 \2/p')
[ -n "$added" ] || fail "cannot read the commit's added lines"
lines=$(echo "$added" | while read -r a n; do seq "$a" $((a + ${n:-1} - 1)); done | tr '\n' ' ')
"$PERPKT" diff --by line --format json --limit 0 "$parent" "$bad" >"$TMP/lines.json" 2>"$TMP/err" ||
	fail "diff --by line: $(cat "$TMP/err")"
jq -r '.lines[] | select(.name | startswith("udp.c:")) | "\(.name | split(" ")[0]) \(.delta[1])"' "$TMP/lines.json" >"$TMP/udp" 2>/dev/null ||
	fail "diff --by line JSON has no rows: $(head -c 300 "$TMP/lines.json")"
hot=$(awk -v L=" $lines " '{ split($1, a, "[: ]"); if (index(L, " " a[2] " ") && $NF + 0 > 50) print $1 }' "$TMP/udp" | sort -u | tr '\n' ' ')
[ -n "$hot" ] || fail "no added line of udp.c ($lines) gained instructions: $(head -5 "$TMP/udp")"
echo "added lines with instructions: $hot"
# the helper: straight-line code, so exactly its instructions per call
vml=$(jq -r '.conditions["lab.vmlinux"] // .conditions.vmlinux // empty' "$bad")
[ -r "$vml" ] || vml=$out/vmlinux/$guilty
read -r start size < <(nm -S "$vml" | awk '$4 == "udp_sendmsg_account" { print $1, $2 }')
[ -n "$start" ] || fail "no udp_sendmsg_account in $vml"
n=$(objdump -d --start-address=0x$start --stop-address=$(printf '0x%x' $((0x$start + 0x$size))) "$vml" |
	grep -cE '^ *[0-9a-f]+:\s([0-9a-f]{2} )+\s*\S')
want=$((2 * 64 * n))
got=$("$PERPKT" report -i "$bad" --format json --limit 0 | jq '[.functions[] | select(.name == "udp_sendmsg_account") | .per_rt.primary] | add // 0')
awk -v g="$got" -v w="$want" 'BEGIN { exit !(g > w * 0.99 && g < w * 1.01) }' ||
	fail "udp_sendmsg_account: $got instructions per round trip, expected 2 x 64 x $n = $want"
echo "udp_sendmsg_account: $got per round trip (2 x 64 x $n instructions)"
# (2b) exact calls (issue 51): 64 calls a datagram, 2 datagrams a round
# trip: 128 calls per round trip more of the helper, n instructions
# each, said before its instructions per call; udp_sendmsg's inclusive
# count grows by the helper's instructions and its own (within 5% of the
# helper's: a wake-up may move under it; 2.3% did in one check-lab run,
# the scheduler's instructions +8.4 per round trip beside it; a count
# taken twice or a helper left out is off by 100%)
"$PERPKT" diff --format json --limit 0 "$parent" "$bad" >"$TMP/fn.json" 2>"$TMP/err" ||
	fail "diff json: $(cat "$TMP/err")"
jq -e --argjson n "$n" '[.functions[] | select(.name == "udp_sendmsg_account")][0] |
	(.calls_per_rt[1] - 128 | fabs) < 1e-9 and (.calls_per_rt[0] // 0) == 0 and
	(.per_call[1] - $n | fabs) < 1e-9' "$TMP/fn.json" >/dev/null ||
	fail "udp_sendmsg_account's calls: $(jq -c '.functions[] | select(.name == "udp_sendmsg_account") | [.calls_per_rt, .per_call, .per_rt]' "$TMP/fn.json")"
jq -e --argjson w "$want" '[.functions[] | select(.name == "udp_sendmsg")][0] |
	(.inclusive_per_rt[1] - .inclusive_per_rt[0]) as $d |
	(($d - $w - .delta[1]) | fabs) < 0.05 * $w and (.calls_per_rt == [2, 2])' "$TMP/fn.json" >/dev/null ||
	fail "udp_sendmsg inclusive: $(jq -c '.functions[] | select(.name == "udp_sendmsg") | [.inclusive_per_rt, .delta, .calls_per_rt]' "$TMP/fn.json"), the helper's $want"
"$PERPKT" diff "$parent" "$bad" >"$TMP/fn.txt" 2>&1 || fail "diff: $(cat "$TMP/fn.txt")"
tr -s '\n ' '  ' <"$TMP/fn.txt" | grep -q "udp_sendmsg_account: calls 0.00 -> 128.00; instructions a call - -> $n.0" ||
	fail "the text diff does not name the helper's calls: $(grep -A12 'each function that moved' "$TMP/fn.txt")"
echo "udp_sendmsg_account: 0 -> 128 calls per round trip, $n instructions a call; udp_sendmsg inclusive $(jq '[.functions[] | select(.name == "udp_sendmsg")][0].inclusive_per_rt | map(. * 10 | round / 10)' -c "$TMP/fn.json")"
# (3) annotate: the loop's lines of udp_sendmsg carry the cost
"$PERPKT" annotate -i "$bad" udp_sendmsg >"$TMP/ann" 2>"$TMP/err" || fail "annotate: $(cat "$TMP/err")"
cat "$TMP/ann" | head -30
loop=$(awk -v L=" $lines " 'NR > 4 && $1 ~ /^[0-9]+$/ && index(L, " " $1 " ") && $2 + 0 >= 2 * 64 * 2 { print $1 }' "$TMP/ann" | tr '\n' ' ')
[ -n "$loop" ] || fail "annotate udp_sendmsg shows no added line with at least $((2 * 64 * 2)) instructions"
# (4) the harmless commits: a total that does not move. A commit whose
# kernel is the same file as its neighbour's (the documentation line)
# runs exactly the same; one whose code moved (a comment shifts the
# lines of WARN()s, a message changes length, udp.c's functions are
# aligned) within 0.2%: moved code moves the addresses that hashes and
# wake-ups depend on. Measured: -0.4 of 16,683 instructions (2026-12-03);
# +0.054% for the documentation commit against the udp_sendmsg one (the
# alignment between them) in a fresh machine's tree, under 0.05% in
# another tree of the same configuration (2026-12-05). 0.2% is a 28th
# of the regression's +5.6% and a fifth of the bisect's --fail-if
for p in "$out"/*/*.json; do
	c=$(basename "$p" .json)
	[ "$c" != "$good" ] && [ "$c" != "$guilty" ] || continue
	if git -C "$tree" merge-base --is-ancestor "$guilty" "$c"; then ref=$guilty; else ref=$good; fi
	"$PERPKT" diff --format json "$(prof "$ref")" "$p" >"$TMP/d" 2>"$TMP/err" || fail "diff: $(cat "$TMP/err")"
	rel=$(jq '.total.rel[1] // 0' "$TMP/d")
	what="$(git -C "$tree" log -1 --format='%h %s' "$c") against $(git -C "$tree" log -1 --format=%h "$ref")"
	if cmp -s "$out/vmlinux/$c" "$out/vmlinux/$ref"; then
		[ "$(jq '.total.delta[1]' "$TMP/d")" = 0 ] || fail "$what: the same kernel file, a total that moved ($rel)"
		echo "$what: the same kernel, the same total"
	else
		awk -v r="$rel" 'BEGIN { exit !(r < 0.002 && r > -0.002) }' ||
			fail "harmless $what moved the total by $rel"
		echo "$what: total moved by $rel"
	fi
done
# (5) a tree with a change not committed says so in its profile
trap 'git -C "$tree" checkout -q -- Documentation/networking/udplite.rst; rm -rf "$TMP"' EXIT
echo "A line not committed." >>"$tree/Documentation/networking/udplite.rst"
expect_exit 0 "$PERPKT" record -q --kernel "$tree" --exact -d 0.2 -w 0.1 -o "$TMP/dirty.json"
git -C "$tree" checkout -q -- Documentation/networking/udplite.rst
c=$(jq -r '.conditions["lab.commit"]' "$TMP/dirty.json")
case $c in "$(git -C "$tree" rev-parse --short=12 series)-dirty \"Documentation: say when UDP accounts a datagram\", 1 file changed since") ;;
*) fail "a dirty tree's lab.commit: '$c'" ;; esac
# (6) --jobs 2: two commits a round, each recorded from a copy of its
# build beside the next build; the same first bad commit in fewer
# rounds than git bisect's steps, every profile naming its commit
steps=$(grep -o '[0-9]* steps of one commit in [0-9]* s' "$out/bisect.log" | cut -d' ' -f1)
[ -n "$steps" ] || fail "the bisect did not say its steps: $(tail -5 "$out/bisect.log")"
out2=$TMP/bisect-jobs
t0=$SECONDS
EXPECT_TIMEOUT=3500 expect_exit 0 "$SRCDIR/src/lab/perpkt-bisect" -C "$tree" --out "$out2" \
	--make "$make" --jobs 2 --fail-if 'total > +1%' base series
grep -q "^first bad commit: ${guilty:0:7}[0-9a-f]* udp: account each datagram" "$TMP/out" ||
	fail "--jobs 2 named: $(grep 'first bad' "$TMP/out")"
rounds=$(grep -o '[0-9]* rounds of up to 2 commits in [0-9]* s' "$out2/bisect.log" | cut -d' ' -f1)
[ -n "$rounds" ] && [ "$rounds" -lt "$steps" ] ||
	fail "--jobs 2 took '$rounds' rounds, git bisect $steps steps: $(cat "$out2/bisect.log")"
for p in "$out2"/*/*.json; do
	c=$(jq -r '.conditions["lab.commit"]' "$p")
	[ "$(git -C "$tree" rev-parse "${c%% *}^{commit}" 2>/dev/null)" = "$(basename "$p" .json)" ] ||
		fail "--jobs 2: $p: lab.commit '$c' is not its commit"
done
[ "$(git -C "$tree" rev-parse HEAD)" = "$(git -C "$tree" rev-parse series)" ] ||
	fail "--jobs 2 left the tree at $(git -C "$tree" log -1 --oneline)"
echo "--jobs 2: $rounds round(s) against $steps step(s) of git bisect, $((SECONDS - t0)) s"
echo ok
