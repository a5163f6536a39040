# SPDX-License-Identifier: GPL-2.0-only
# perpkt diff on the committed fixtures (make-diff-fixtures.py): exact
# deltas from JSON, deltas adding up, suffix folding and --alias, the
# text golden, and the other formats.
#   UPDATE_GOLDEN=1 PERPKT=build/perpkt SRCDIR=. bash tests/cli/t0701-diff-fixtures.sh
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
G=$SRCDIR/tests/golden
command -v jq >/dev/null || skip "needs jq"

golden() {
	local g=$1
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$TMP/out" "$G/$g"
		return
	fi
	diff -u "$G/$g" "$TMP/out" || fail "output differs from $g"
}

cd "$P"   # paths in the output stay the same wherever the tree is
expect_exit 0 "$PERPKT" diff diff-a.json diff-b.json
golden diff-ab.txt
awk 'length > 72 { exit 1 }' "$TMP/out" || fail "text wider than 72 columns"

expect_exit 0 "$PERPKT" diff --format json --limit 0 diff-a.json diff-b.json
J=$TMP/out
v() { jq -r "$1" "$J"; }
# one window a side: no spread between runs, so no test and no mark,
# said once in the marks' basis
[ "$(v '.functions[] | select(.name=="udp_sendmsg") | [.per_rt[0], .per_rt[1], .delta[1], .rel[1], .mark[1], .test[1]] | @csv')" = '12000,15000,3000,0.25,"","none"' ] ||
	fail "udp_sendmsg delta: $(v '.functions[] | select(.name=="udp_sendmsg")')"
# .isra.0 and .constprop.0 fold into one row on both sides
[ "$(v '.functions[] | select(.name=="udp_recvmsg") | .present | @csv')" = 'true,true' ] ||
	fail "udp_recvmsg not matched across suffixes"
[ "$(v '.functions[] | select(.name=="nf_hook_slow") | .present | @csv')" = 'true,false' ] ||
	fail "only-in-A row missing"
[ "$(v '.total.delta[1]')" = 500 ] || fail "total delta $(v .total.delta[1])"
[ "$(v '[.functions[].delta[1]] | add')" = 500 ] || fail "function deltas do not add up"
[ "$(v '[.buckets[].delta[1]] | add')" = 500 ] || fail "bucket deltas do not add up"
[ "$(v '.busy.delta[1]')" = 5500 ] || fail "busy delta"
[ "$(v '.latency.delta[1]')" = 6000 ] || fail "latency delta"
[ "$(v '.functions[] | select(.name=="ip_local_out") | .per_rt[1]')" = 3500 ] ||
	fail "new function without alias"
[ "$(v '.marks.test')" = none ] && v '.marks.untested' | grep -q "one window" ||
	fail "one-window diff not said: $(v .marks)"

printf '# kernel 6.18 renamed it\nip_local_out_sk ip_local_out\n' >"$TMP/alias"
expect_exit 0 "$PERPKT" diff --format json --alias "$TMP/alias" diff-a.json diff-b.json
[ "$(v '.functions[] | select(.name=="ip_local_out") | [.per_rt[0], .per_rt[1], .mark[1]] | @csv')" = '3000,3500,""' ] ||
	fail "alias not applied: $(v '.functions[] | select(.name=="ip_local_out")')"
[ -z "$(v '.functions[] | select(.name=="ip_local_out_sk") | .name')" ] || fail "old name still a row"

# --limit: the rest is one [other] row, and it still adds up
expect_exit 0 "$PERPKT" diff --format json --limit 2 diff-a.json diff-b.json
[ "$(v '.functions | length')" = 3 ] || fail "limit 2 + [other]"
[ "$(v '.functions[-1].name')" = "[other]" ] || fail "no [other] row"
[ "$(v '[.functions[].delta[1]] | add')" = 500 ] || fail "[other] does not add up"

expect_exit 0 "$PERPKT" diff --format csv diff-a.json diff-b.json
grep -q '^total,total,,48000,48500,500,' "$TMP/out" || fail "csv total: $(cat "$TMP/out")"
expect_exit 0 "$PERPKT" diff --format markdown --by bucket diff-a.json diff-b.json
grep -q '^| scheduler | 6000.0 | 9000.0 | +3000.0 | +50.0% |  |$' "$TMP/out" || fail "markdown row"
expect_exit 0 "$PERPKT" diff --format folded diff-a.json diff-b.json
grep -qx 'udp;udp_sendmsg 12000000 15000000' "$TMP/out" || fail "folded: $(cat "$TMP/out")"
grep -qx 'netfilter;nf_hook_slow 2000000 0' "$TMP/out" || fail "folded one-side line"
expect_exit 0 "$PERPKT" diff --format html diff-a.json diff-b.json
grep -q '<svg id="delta-1"' "$TMP/out" || fail "html without the delta chart"
grep -q '<svg id="flame-1" class="flame"' "$TMP/out" || fail "html without the flame graph"
# the flame graph's script is inline: nothing loaded, nothing fetched
grep -qiE '<script[^>]*src|@import' "$TMP/out" && fail "html loads a script or style"
grep -q 'http' "$TMP/out" && fail "html fetches something"
tail -1 "$TMP/out" | grep -q '</html>' || fail "html incomplete"

# windows on both sides: Welch across them, the rows tested together
expect_exit 0 "$PERPKT" diff --format json rep-a.json rep-shift.json
[ "$(v '.marks.test')" = welch ] || fail "marks' test: $(v .marks)"
[ "$(v '.functions[] | select(.name=="udp_sendmsg") | .mark[1]')" = '**' ] ||
	fail "a +4000 shift over windows of sd 816 not marked: $(v '.functions[0]')"
[ "$(v '.functions[] | select(.name=="udp_sendmsg") | .q[1] >= .p[1]')" = true ] ||
	fail "q below p"
expect_exit 0 "$PERPKT" diff --format json rep-a.json rep-noise.json
[ "$(v '[.functions[], .buckets[], .latency | select(.mark[1] != "")] | length')" = 0 ] ||
	fail "noise marked: $(v '[.functions[] | select(.mark[1] != "") | .name]')"
echo ok
