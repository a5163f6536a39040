# SPDX-License-Identifier: GPL-2.0-only
# Every transport over loopback, same CPU and across CPUs, with -n: the
# window holds exactly that many round trips, the profile names the
# transport, and report reads it. Then the option errors.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

ncpu=$(nproc)
for t in udp tcp pipe icmp; do
	for place in same cross; do
		if [ $place = cross ]; then
			[ "$ncpu" -ge 2 ] || continue
			cpus="--client-cpu 1 --server-cpu 0"
		else
			cpus="--client-cpu 0 --server-cpu 0"
		fi
		# shellcheck disable=SC2086
		expect_exit 0 "$PERPKT" record -q -n 3000 -w 0.1 --transport $t $cpus \
			-o "$TMP/$t.json"
		rt=$(jq '.round_trips // .workload.round_trips' "$TMP/$t.json")
		[ "$rt" = 3000 ] || fail "$t $place: $rt round trips, expected 3000"
		tr=$(jq -r '.transport // .workload.transport' "$TMP/$t.json")
		[ "$tr" = $t ] || fail "$t $place: profile says transport '$tr'"
		jq -e '.conditions["replies.lost"] == "0" and
			(.conditions.placement | test("^client [0-9]+, server [0-9]+: "))' \
			"$TMP/$t.json" >/dev/null || fail "$t $place: conditions: $(jq -c .conditions "$TMP/$t.json")"
		expect_exit 0 "$PERPKT" report -i "$TMP/$t.json"
		grep -q "$t" "$TMP/out" || fail "$t: report does not name the transport"
	done
done
# icmp has no responder process: no task with that role
jq -e '[.workload.tasks[]? | select(.role == "responder")] | length == 0' "$TMP/icmp.json" >/dev/null ||
	fail "icmp profile has a responder task"

# a gap in sleep mode makes a round trip last at least the gap
expect_exit 0 "$PERPKT" record -q -n 200 -w 0.1 --gap 200us -o "$TMP/gap.json"
jq -e '.conditions["workload.gap"] == "200000 ns (sleep)"' "$TMP/gap.json" >/dev/null ||
	fail "gap not recorded: $(jq -c '.conditions["workload.gap"]' "$TMP/gap.json")"

expect_exit 64 "$PERPKT" record --transport carrier-pigeon
grep -q "unknown transport 'carrier-pigeon'" "$TMP/err" || fail "bad transport message"
expect_exit 64 "$PERPKT" record --gap 5parsecs
expect_exit 64 "$PERPKT" record --gap-mode nap
expect_exit 64 "$PERPKT" record --net token-ring
expect_exit 64 "$PERPKT" record --placement sideways
expect_exit 2 "$PERPKT" record -q -n 10 --transport pipe --peer 127.0.0.1
grep -q "pipe" "$TMP/err" || fail "pipe with --peer: $(cat "$TMP/err")"
echo "ok"
