# SPDX-License-Identifier: GPL-2.0-only
# A -g profile is self-contained: it carries the kallsyms entry of every
# callchain frame, not only of the sampled IPs, so folded stacks and
# --callers name the same functions with and without --kallsyms at report
# time (before, 616 of 3,036 frames came out [unknown]).
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

expect_exit 0 "$PERPKT" record -q -g -d 1 -w 0.2 -o "$TMP/g.json"
"$PERPKT" report -q -i "$TMP/g.json" --format folded >"$TMP/self.folded" ||
	fail "folded report failed"
"$PERPKT" report -q -i "$TMP/g.json" --format folded --kallsyms /proc/kallsyms \
	>"$TMP/live.folded" || fail "folded report with --kallsyms failed"
frames=$(tr ';' '\n' <"$TMP/self.folded" | wc -l)
[ "$frames" -gt 100 ] || fail "only $frames frames: no callchains recorded?"
u_self=$(grep -o '\[unknown\]' "$TMP/self.folded" | wc -l)
u_live=$(grep -o '\[unknown\]' "$TMP/live.folded" | wc -l)
# what /proc/kallsyms cannot name either (freed __init text) may stay unknown
[ "$u_self" -le "$u_live" ] ||
	fail "$u_self of $frames frames [unknown] from the profile alone, $u_live with --kallsyms"
diff -u "$TMP/live.folded" "$TMP/self.folded" >"$TMP/d" ||
	fail "folded stacks differ with --kallsyms: $(head -20 "$TMP/d")"
echo "ok: $frames frames, $u_self unknown (as with --kallsyms: $u_live)"
