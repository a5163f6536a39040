#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# How a profile was recorded is compared by diff (issue 49: -g against
# no -g, -F 1000 against -F 200 gave no differs: line): the sampling
# rate and the callchain depth are named, each with a line on what the
# difference does to the figures; profiles recorded alike name neither.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
command -v jq >/dev/null || skip "needs jq"

rec() {
	local out=$1; shift
	expect_exit 0 "$PERPKT" record -q -d 0.5 -w 0.1 "$@" -o "$TMP/$out.json"
}
rec a -F 1000
rec b -F 1000 -g
rec c -F 200
rec d -F 1000

expect_exit 0 "$PERPKT" diff --width 200 "$TMP/a.json" "$TMP/b.json"
sed -n 2,3p "$TMP/out" >"$TMP/head"
grep -qx "differs: callchains: [0-9]* kernel frames (short, without -g) -> [0-9]* kernel frames (-g)" "$TMP/head" &&
	grep -qx "  what it does: .*charged to callers.*" "$TMP/head" ||
	fail "-g against no -g: $(head -4 "$TMP/out")"
grep -q "^differs: sampling" "$TMP/out" && fail "-F 1000 on both sides named: $(head -4 "$TMP/out")"

expect_exit 0 "$PERPKT" diff --width 200 "$TMP/a.json" "$TMP/c.json"
sed -n 2,3p "$TMP/out" >"$TMP/head"
grep -qx "differs: sampling: [a-z-]* at 1000 Hz -> [a-z-]* at 200 Hz" "$TMP/head" &&
	grep -qx "  what it does: .*observer.*" "$TMP/head" ||
	fail "-F 1000 against -F 200: $(head -4 "$TMP/out")"

expect_exit 0 "$PERPKT" diff --format json "$TMP/a.json" "$TMP/c.json"
jq -e '.conditions_differ[0] | .key == "counters.events" and (.effect | length > 0)' "$TMP/out" >/dev/null ||
	fail "JSON: $(jq -c .conditions_differ "$TMP/out")"

# alike: no recording row
expect_exit 0 "$PERPKT" diff --width 200 "$TMP/a.json" "$TMP/d.json"
grep -qE "^differs: (sampling|user space|callchains|windows)" "$TMP/out" &&
	fail "profiles recorded alike: $(grep ^differs "$TMP/out")"
exit 0
