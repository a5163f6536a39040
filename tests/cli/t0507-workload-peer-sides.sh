# SPDX-License-Identifier: GPL-2.0-only
# Two-host mode, both sides: perpkt serve in a namespace of this test's
# own records its kernel over the client's window and hands the profile
# back; the client keeps both in one profile; report shows them side by
# side, --side remote shows the responder's alone, diff compares side
# for side. Both namespaces share this machine's kernel and CPUs, so the
# remote side's time per round trip must agree with the local side's
# own samples of the responder's CPU: a cross-check of the remote
# normalisation (round trips answered in serve's window).
# Its namespaces, addresses and ports are its own, and it changes no
# host setting: it runs beside the other tests (it held `host` by
# default, 19 s on that chain at -j 5). It holds `paranoid`: it reads
# kernel.perf_event_paranoid for its unprivileged serve, which t0111
# sets to 3 for a while.
# ctest-lock: paranoid
. "$(dirname "$0")/lib.sh"
need_perf
# addresses that exist only inside these two namespaces
peer_namespaces 10.248.0.5 10.248.0.6 30

KEY=$TMP/serve.key
start_serve() {
	serve_bg "$TMP/serve.err" "$@" "${SERVE_PERPKT:-$PERPKT}" serve -b 10.248.0.5 -p 12997 --key "$KEY"
}
stop_serve() { kill "$SERVE"; wait "$SERVE" 2>/dev/null; SERVE=; }

start_serve ip netns exec $A
expect_exit 0 ip netns exec $B "$PERPKT" record -n 8000 -w 0.2 \
	--peer 10.248.0.5:12997 --peer-key "$KEY" --server-cpu 0 --client-cpu 1 -o "$TMP/both.json"
grep -q "the responder's side: [0-9]* round trips answered" "$TMP/err" ||
	fail "no word of the responder's side: $(cat "$TMP/err")"
# the remote side: its own window, counted in messages its responder
# answered (a few more or fewer than the client's: its window is a little
# later at both ends)
jq -e '.remote.format == "perpkt-profile" and .remote.remote == null and
	.remote.counters.cpus == [0] and (.remote.samples | length) > 0 and
	.remote.workload.round_trips > .workload.round_trips * 0.9 and
	.remote.workload.round_trips < .workload.round_trips * 1.5 and
	(.remote.workload.tasks[] | select(.role == "responder") | .cpu_ns) > 0 and
	(.remote.conditions["peer.side"] | startswith("remote")) and
	(.remote.kallsyms | length) > 0' "$TMP/both.json" >/dev/null ||
	fail "remote side: $(jq -c '.remote | {rt: .workload.round_trips, cpus: .counters.cpus, n: (.samples|length), tasks: .workload.tasks}' "$TMP/both.json")"
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 - "$SRCDIR/docs/schema/profile.schema.json" "$TMP/both.json" <<-'EOF' || fail "the two-sided profile does not match its schema"
	import json, sys, jsonschema
	jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
	EOF
fi

# side by side in the text report, and the remote side alone
expect_exit 0 "$PERPKT" report -i "$TMP/both.json"
grep -q '^both sides, per round trip of each' "$TMP/out" || fail "no side-by-side section: $(cat "$TMP/out")"
grep -Eq '^  service demand \(/proc/stat\) +[0-9.]+ us +[0-9.]+ us$' "$TMP/out" ||
	fail "service demand not side by side: $(grep -A12 '^both sides' "$TMP/out")"
expect_exit 0 "$PERPKT" report -i "$TMP/both.json" --side remote
grep -q 'client CPU (on the other host)' "$TMP/out" || fail "remote report: $(head -20 "$TMP/out")"
grep -q "^side: remote: the responder's host" "$TMP/out" || fail "the remote report does not say which side: $(head -12 "$TMP/out")"
grep -q '^both sides' "$TMP/out" && fail "the remote side alone shows both sides"

# the cross-check: both sides sampled CPU 0 of this one kernel over
# nearly the same window; per round trip of each they must agree
# every task on each side: the same CPU of the same kernel, sampled twice
expect_exit 0 "$PERPKT" report -i "$TMP/both.json" --format json --all-tasks
cp "$TMP/out" "$TMP/r.json"
# (other load on CPU 0 in the remote window's extra few ms shows too:
# the tolerance is for a busy machine, and still catches a side divided
# by the wrong count)
ratio=$(jq '(.remote.total.per_rt.primary) / ([.cpus[] | select(.name == "cpu 0") | .per_rt.primary][0])' "$TMP/r.json")
echo "remote side / local samples of cpu 0, per round trip: $ratio" \
	"(windows $(jq -c '[.workload.window_ns, .remote.workload.window_ns, .round_trips, .remote.round_trips]' "$TMP/r.json"))"
awk -v r="$ratio" 'BEGIN { exit !(r > 0.67 && r < 1.5) }' ||
	fail "remote side per round trip is $ratio x the local samples of the same CPU"
jq -e '(.sides | length) > 5 and (.sides[] | select(.label == "service demand (/proc/stat)") |
	(.local > 0 and .remote > 0 and .unit == "ns"))' "$TMP/r.json" >/dev/null ||
	fail "JSON sides: $(jq -c .sides "$TMP/r.json")"

# diff compares a side with the same side, and says which
expect_exit 0 "$PERPKT" diff "$TMP/both.json" "$TMP/both.json" --side remote
[ "$(grep -c ', the remote side (--side remote)$' "$TMP/out")" = 2 ] || fail "diff header: $(head -6 "$TMP/out")"
expect_exit 0 "$PERPKT" diff "$TMP/both.json" "$TMP/both.json" --side remote --format json
jq -e --argjson rt "$(jq .remote.workload.round_trips "$TMP/both.json")" \
	'(.profiles | length) == 2 and (.buckets | length) > 0 and
	([.buckets[].delta[1]] | all(. == 0)) and
	(.profiles[0].round_trips // $rt) == $rt' "$TMP/out" >/dev/null ||
	fail "diff --side remote: $(jq -c '[.profiles, [.buckets[].delta]]' "$TMP/out" | head -c 600)"

# table takes a side too: the remote side's busy time per round trip
expect_exit 0 "$PERPKT" table "$TMP/both.json" --side remote --value busy --format json
jq -e --argjson b "$(jq '.remote.busy.per_rt.primary' "$TMP/r.json")" \
	'(.rows[0].mean - $b) | fabs < 0.01 * $b' "$TMP/out" >/dev/null ||
	fail "table --side remote: $(jq -c .rows "$TMP/out") against $(jq .remote.busy.per_rt.primary "$TMP/r.json")"

# --remote-cpus: serve samples the CPUs asked; one it lacks is said
expect_exit 0 ip netns exec $B "$PERPKT" record -q -n 500 -w 0.1 \
	--peer 10.248.0.5:12997 --peer-key "$KEY" --server-cpu 0 --remote-cpus all -o "$TMP/all.json"
jq -e --argjson n "$(nproc)" '(.remote.counters.cpus | length) == $n' "$TMP/all.json" >/dev/null ||
	fail "--remote-cpus all: $(jq -c .remote.counters.cpus "$TMP/all.json")"
expect_exit 0 ip netns exec $B "$PERPKT" record -n 500 -w 0.1 \
	--peer 10.248.0.5:12997 --peer-key "$KEY" --remote-cpus 1000 -o "$TMP/bad.json"
jq -e '.remote == null and (.remote_missing | test("CPU 1000 of --remote-cpus is not online"))' \
	"$TMP/bad.json" >/dev/null || fail "--remote-cpus 1000: $(jq -c .remote_missing "$TMP/bad.json")"
expect_exit 64 "$PERPKT" record --remote-cpus 0-x --peer 10.248.0.5:12997 --peer-key "$KEY" -o "$TMP/x.json"
expect_exit 64 "$PERPKT" record --remote-cpus all -n 10 -o "$TMP/x.json"

# --no-remote: nothing asked, nothing missing
expect_exit 0 ip netns exec $B "$PERPKT" record -q -n 500 -w 0.1 \
	--peer 10.248.0.5:12997 --peer-key "$KEY" --no-remote -o "$TMP/local.json"
jq -e '.remote == null and .remote_missing == null' "$TMP/local.json" >/dev/null ||
	fail "--no-remote still holds a remote side"
expect_exit 2 "$PERPKT" report -i "$TMP/local.json" --side remote
grep -q "has no remote side" "$TMP/err" || fail "no remote side: $(cat "$TMP/err")"
expect_exit 2 "$PERPKT" diff "$TMP/both.json" "$TMP/local.json" --side remote
expect_exit 64 "$PERPKT" record --no-remote -n 10 -o "$TMP/x.json"
stop_serve

# a serve that may not sample says why; the profile keeps its own side
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$paranoid" -ge 1 ] && command -v setpriv >/dev/null; then
	# its own key, in a directory it may write (root may read it)
	chmod 711 "$TMP" && mkdir "$TMP/nobody" && chown 65534:65534 "$TMP/nobody"
	KEY=$TMP/nobody/serve.key
	user_files
	SERVE_PERPKT=$UPERPKT start_serve ip netns exec $A setpriv --reuid=65534 --regid=65534 --clear-groups
	[ -s "$KEY" ] || fail "serve listens but made no key: $(cat "$TMP/serve.err")"
	expect_exit 0 ip netns exec $B "$PERPKT" record -n 500 -w 0.1 \
		--peer 10.248.0.5:12997 --peer-key "$KEY" -o "$TMP/unpriv.json"
	grep -q "warning: the responder's side is not in the profile: perpkt serve may not sample" "$TMP/err" ||
		fail "unprivileged serve: $(cat "$TMP/err")"
	jq -e '.remote == null and (.remote_missing | test("CAP_PERFMON"))' "$TMP/unpriv.json" >/dev/null ||
		fail "remote_missing: $(jq -c .remote_missing "$TMP/unpriv.json")"
	stop_serve
else
	echo "perf_event_paranoid is $paranoid: the unprivileged serve is not tested" >&2
fi
echo ok
