# SPDX-License-Identifier: GPL-2.0-only
# Bad values are refused with a reason, never read as something else:
# numbers that would wrap, wrong types, a directory, --threshold nan,
# an RPS mask naming CPUs that do not exist, an irqs kind unknown; and
# escape sequences in a profile never reach the terminal through the
# text report.
# ctest-lock: none
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
# irqs of a kind perpkt does not write: refused; the NAPI polls of exact
# mode (kind napi, one a vCPU): read and shown per round trip
mutate irqkind 'p["counters"]["irqs"] = [{"kind": "nmi", "name": "x", "desc": None, "cpu": 0, "count": 1}]'
expect_exit 2 "$PERPKT" report -i "$TMP/irqkind.json"
grep -q "irqs\[\] kind must be irq, softirq or napi" "$TMP/err" || fail "irq kind nmi: $(cat "$TMP/err")"
mutate napi 'p["counters"]["irqs"] = [{"kind": "napi", "name": "__napi_poll", "desc": None, "cpu": c, "count": n} for c, n in ((0, 0), (1, 3 * p["workload"]["round_trips"]))]'
expect_exit 0 "$PERPKT" report -i "$TMP/napi.json"
grep -q "^  NAPI polls (__napi_poll calls, exact) *3\.00$" "$TMP/out" || fail "NAPI polls: $(grep -i napi "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$TMP/napi.json" --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["decomposition"]
sys.exit(not (d["napi_polls_per_rt"] == 3 and d["napi_function"] == "__napi_poll"))' "$TMP/out" ||
	fail "NAPI polls in JSON: $(grep napi "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json" --format json
! grep -q napi_polls "$TMP/out" ||
	fail "NAPI polls made up for a sampled profile"
! "$PERPKT" report -i "$P/sw-clock.json" | grep -q NAPI || fail "NAPI polls shown for a sampled profile"
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
