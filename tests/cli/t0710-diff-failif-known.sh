# SPDX-License-Identifier: GPL-2.0-only
# --fail-if on a name that no profile sampled: a bucket of the rules or
# a function of the recorded kernel (the profile carries its function
# names, compactly) compares 0 with 0 and exits 0; a misspelt name
# exits 130 (so a bisect stops), and --allow-missing still lets it pass.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
grep -q ' __x64_sys_reboot$' /proc/kallsyms 2>/dev/null ||
	skip "no __x64_sys_reboot in /proc/kallsyms"

expect_exit 0 "$PERPKT" record -q -d 0.5 -w 0.2 -o "$TMP/a.json"
expect_exit 0 "$PERPKT" record -q -d 0.5 -w 0.2 -o "$TMP/b.json"
jq -e '.kernel_functions | startswith("bloom1:")' "$TMP/a.json" >/dev/null ||
	fail "the profile carries no kernel function names"

expect_exit 0 "$PERPKT" diff "$TMP/a.json" "$TMP/b.json" --fail-if 'function:__x64_sys_reboot > +1000000'
expect_exit 0 "$PERPKT" diff "$TMP/a.json" "$TMP/b.json" --fail-if 'bucket:netfilter > +1000000'
expect_exit 130 "$PERPKT" diff "$TMP/a.json" "$TMP/b.json" --fail-if 'function:no_such_function_xq > +1000000'
grep -q "no function 'no_such_function_xq' in any profile" "$TMP/err" ||
	fail "the error does not name the function: $(cat "$TMP/err")"
expect_exit 130 "$PERPKT" diff "$TMP/a.json" "$TMP/b.json" --fail-if 'bucket:no-such-bucket > +1000000'
expect_exit 0 "$PERPKT" diff "$TMP/a.json" "$TMP/b.json" --allow-missing --fail-if 'function:no_such_function_xq > +1000000'
echo "ok"
