# SPDX-License-Identifier: GPL-2.0-only
# sweep --flows LIST: a cell per number of flows, each recorded with
# that many (its profile says so), and a bad value refused before any
# cell runs.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"

expect_exit 64 "$PERPKT" sweep -o "$TMP/bad" --flows 1,0
grep -q "invalid --flows '0'" "$TMP/err" || fail "--flows 1,0: $(cat "$TMP/err")"
[ ! -e "$TMP/bad" ] || fail "a refused sweep made $TMP/bad"

expect_exit 0 "$PERPKT" sweep -q -o "$TMP/sw" -w 0.2 -d 0.3 --flows 1,2 -- --client-cpu 0-1
ls "$TMP/sw" >"$TMP/cells"
grep -q '^flows1' "$TMP/cells" && grep -q '^flows2' "$TMP/cells" || fail "cells: $(cat "$TMP/cells")"
f1=$(ls "$TMP"/sw/flows1*.json | head -1) f2=$(ls "$TMP"/sw/flows2*.json | head -1)
jq -e '.conditions | has("workload.flows") | not' "$f1" >/dev/null || fail "flows1 has flows"
jq -r '.conditions["workload.flows"]' "$f2" | grep -q '^2 ping-pong pairs' ||
	fail "flows2: $(jq -c .conditions "$f2")"
grep -q 'flows1' "$TMP/out" && grep -q 'flows2' "$TMP/out" || fail "table: $(cat "$TMP/out")"
echo ok
