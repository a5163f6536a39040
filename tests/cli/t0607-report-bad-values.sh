# SPDX-License-Identifier: GPL-2.0-only
# Bad values are refused with a reason, never read as something else:
# numbers that would wrap, wrong types, a directory, --threshold nan,
# an RPS mask naming CPUs that do not exist; and escape sequences in a
# profile never reach the terminal through the text report.
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles

# mutate NAME PYTHON-EXPR: a copy of sw-clock.json with one change
mutate() {
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(p, open(sys.argv[2], "w"))' "$P/sw-clock.json" "$TMP/$1.json" "$2"
}
mutate v1 'p["version"] = 4294967297'
mutate v2 'p["version"] = 2147483648'
mutate cpus 'p["counters"]["cpus"] = ["a"]'
mutate tasks 'p["workload"]["tasks"] = "x"'
mutate ccpu 'p["workload"]["client_cpu"] = 2**63 - 1'
mutate size 'p["workload"]["message_size"] = 2**32'
mutate sevent 'p["samples"][0]["event"] = 2**32'
mutate scpu 'p["samples"][0]["cpu"] = 2**32'
mutate srep 'p["samples"][0]["repeat"] = 2**32'
for t in v1 v2 cpus tasks ccpu size sevent scpu srep; do
	expect_exit 2 "$PERPKT" report -i "$TMP/$t.json"
	grep -q "cannot read profile '.*$t.json': " "$TMP/err" || fail "$t: no reason: $(cat "$TMP/err")"
done
grep -q "above 4294967295" "$TMP/err" || fail "repeat 2^32: $(cat "$TMP/err")"
expect_exit 2 "$PERPKT" report -i "$TMP/v1.json"
grep -q "version 4294967297" "$TMP/err" || fail "version: $(cat "$TMP/err")"
expect_exit 2 "$PERPKT" report -i "$TMP"
grep -q "is a directory" "$TMP/err" || fail "directory: $(cat "$TMP/err")"

expect_exit 64 "$PERPKT" report -i "$P/sw-clock.json" --threshold nan
grep -q "invalid --threshold 'nan'" "$TMP/err" || fail "nan: $(cat "$TMP/err")"
ncpus=$(getconf _NPROCESSORS_CONF)
if [ "$ncpus" -lt 64 ]; then
	expect_exit 64 "$PERPKT" record --rps-cpus ffffffffffffffff -o "$TMP/x.json"
	grep -q "names CPU 63, but this machine has CPUs 0-$((ncpus - 1))" "$TMP/err" ||
		fail "rps mask: $(cat "$TMP/err")"
fi

# escapes in a condition and a symbol name arrive as '?', not ESC
mutate esc 'p["conditions"]["evil"] = "\x1b]0;owned\x07\x1b[2J"; p["kallsyms"][0]["name"] = "\x1b[31mred\x9b"'
expect_exit 0 "$PERPKT" report -i "$TMP/esc.json" --all-conditions
grep -q "owned" "$TMP/out" || fail "the condition is not in the report"
! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$TMP/out" ||
	fail "control characters reach the terminal: $(grep -a owned "$TMP/out" | od -c | head -3)"
echo ok
