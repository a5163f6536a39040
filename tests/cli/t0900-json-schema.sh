# SPDX-License-Identifier: GPL-2.0-only
# Every command's JSON validates against its schema in docs/schema/, and
# one jq query reads a software-clock and a hardware profile alike.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
F=$FIXTURES/profiles
python3 -c 'import importlib.util as u, sys; sys.exit(u.find_spec("jsonschema") is None)' ||
	skip "python3-jsonschema missing (make deps)"
# V NAME FILE...: a copy of each file, validated against docs/schema/
# NAME.schema.json at the end, all in one run of the validator
# (jsonschema's import was most of this test's CPU time)
mkdir "$TMP/v"
queue=()
V() {
	local name=$1 f c
	shift
	queue+=(-- "$name")
	for f; do
		c=$TMP/v/${#queue[@]}-$(basename "$f")
		cp "$f" "$c" && queue+=("$c")
	done
}

# profile: the committed fixtures are version 1, the one recorded here 2
V profile "$F"/*.json
live=
if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ]; then
	expect_exit 0 "$PERPKT" record -q -d 0.3 -w 0.1 -o "$TMP/live.json"
	jq -e '.version == 3 and .units.time == "ns" and (.workload.warmup_ns | type) == "number"' \
		"$TMP/live.json" >/dev/null || fail "a new profile is not version 3"
	V profile "$TMP/live.json"
	live=$TMP/live.json
	expect_exit 0 "$PERPKT" stat -q -d 0.3 -w 0.1 --format json
	cp "$TMP/out" "$TMP/stat.json"
	V stat "$TMP/stat.json"
	# stat's text shows p50 and p99: so does its JSON, in ns
	jq -e '.latency_ns.p50 > 0 and .latency_ns.p99 >= .latency_ns.p50 and
	       .decomposition.rtt_ns > 1000' "$TMP/stat.json" >/dev/null ||
		fail "stat JSON lacks its latency figures in ns"
	# stat -r N: its figures validate too, times in ns as units.time says
	expect_exit 0 "$PERPKT" stat -q -d 0.2 -w 0.1 -r 2 --format json
	cp "$TMP/out" "$TMP/stat-r.json"
	V stat "$TMP/stat-r.json"
	jq -e '[.repeats.figures[] | select(.name == "latency_ns.p99") | .mean][0] as $p99 |
	       $p99 > 1000 and $p99 >= .latency_ns.p50 / 2' "$TMP/stat-r.json" >/dev/null ||
		fail "stat -r p99 not in ns: $(jq -c .repeats.figures "$TMP/stat-r.json")"
fi

# report, of every fixture and of the live profile
for p in "$F"/*.json $live; do
	expect_exit 0 "$PERPKT" report -i "$p" --format json
	cp "$TMP/out" "$TMP/r-$(basename "$p")"
done
V report "$TMP"/r-*.json

# the same query on a software-clock and a hardware-mode profile
for p in sw-clock hw-mux; do
	jq -e '(.total.per_rt.primary > 0) and
	       (.total.per_rt.primary == .total.per_rt[.primary_event]) and
	       ((([.buckets[].per_rt.primary] | add) - .total.per_rt.primary | fabs) < 1e-6)' \
		"$TMP/r-$p.json" >/dev/null || fail "$p: .per_rt.primary does not read it"
done
[ "$(jq -r .units.primary "$TMP/r-sw-clock.json") $(jq -r .units.primary "$TMP/r-hw-mux.json")" = "ns cycles" ] ||
	fail "units.primary does not name the primary event's unit"
# stat names the same primary event as a report of the same machine;
# its per_rt.primary is that event's value, or null for cpu-clock
if [ -n "$live" ]; then
	[ "$(jq -c '[.units.primary, .primary_event]' "$TMP/stat.json")" = \
	  "$(jq -c '[.units.primary, .primary_event]' "$TMP/r-live.json")" ] ||
		fail "stat and report differ on the primary event: $(jq -c .units "$TMP/stat.json")"
	jq -e '.per_rt.primary == (if .primary_event == "cpu-clock" then null else .per_rt[.primary_event] end) and
	       all(.cpus[]; .per_rt | has("primary"))' "$TMP/stat.json" >/dev/null ||
		fail "stat per_rt.primary: $(jq -c .per_rt "$TMP/stat.json")"
fi

# diff, table and resolve
expect_exit 0 "$PERPKT" diff --format json "$F/diff-a.json" "$F/diff-b.json"
cp "$TMP/out" "$TMP/d1.json"
expect_exit 0 "$PERPKT" diff --format json "$F/rep-a.json" "$F/rep-shift.json" "$F/rep-noise.json"
cp "$TMP/out" "$TMP/d2.json"
V diff "$TMP/d1.json" "$TMP/d2.json"
jq -e '.latency.delta[1] == .latency.mean_ns[1] - .latency.mean_ns[0] and .latency.delta[0] == null' \
	"$TMP/d1.json" >/dev/null || fail "diff latency arrays are not indexed by profile"
expect_exit 0 "$PERPKT" table --format json "$F/rep-a.json" "$F/rep-shift.json"
cp "$TMP/out" "$TMP/t1.json"
expect_exit 0 "$PERPKT" table --format json --value bucket:udp "$F/rep-a.json"
cp "$TMP/out" "$TMP/t2.json"
V table "$TMP/t1.json" "$TMP/t2.json"
jq -e '.unit == "ns" and .rows[0].mean > 10000' "$TMP/t1.json" >/dev/null ||
	fail "table latency is not in ns"
V2=$BUILDDIR/tests/fixtures/ktree/vmlinux
S=0x$(nm "$V2" | awk '$3 == "udp_sendmsg" { print $1 }')
expect_exit 1 "$PERPKT" resolve --vmlinux "$V2" --format json "$S" 0x1
V resolve "$TMP/out"
jq -e '.results[0].function == "udp_sendmsg" and .results[1].function == null' "$TMP/out" >/dev/null ||
	fail "resolve JSON results: $(cat "$TMP/out")"
python3 "$SRCDIR/tests/schema-validate.py" "$SRCDIR/docs/schema" "${queue[@]:1}" ||
	fail "JSON output does not validate against its schema (the file and the schema are named above)"
[ "$(ls "$TMP/v" | wc -l)" -ge 20 ] || fail "only $(ls "$TMP/v" | wc -l) documents were validated"
echo "ok: every JSON output validates ($(ls "$TMP/v" | wc -l) documents)"
