# SPDX-License-Identifier: GPL-2.0-only
# Faults, each a real run: SIGINT and SIGTERM in the warm-up and in the
# window; 5% and 50% loss inside perpkt's namespaces;
# perf_event_paranoid=3 for an unprivileged user. After each
# run no namespace, qdisc, RPS mask or IRQ affinity is left changed.
# It holds `paranoid`: it sets kernel.perf_event_paranoid to 3 for a
# while, which fails an unprivileged perpkt run beside it (t0002's,
# t0508's; each holds the lock too), and `host`: it compares the host's
# qdiscs, RPS masks and IRQ affinities, and runs --net veth in the
# host's namespace (the system lock). Nothing else kept it alone: its
# 23 s were on make check's serial path.
# ctest-lock: host paranoid
. "$(dirname "$0")/lib.sh"
need_perf
system_state >"$TMP/state.before"

# signals, sent once perpkt says where it is (never after a fixed
# delay): in the warm-up nothing is measured (2); in the window the
# profile is kept and partial (1)
for sig in INT TERM; do
	for at in warmup window; do
		rm -f "$TMP/ready"
		if [ $at = warmup ]; then
			# -v says when the 60 s warm-up starts (the handlers set,
			# the workload running)
			spawn "$TMP/err" "$PERPKT" record -v -d 1 -w 60 -o "$TMP/sig.json"
			pid=$SPAWNED
			wait_line "$TMP/err" '^perpkt: warm-up: ' $pid
		else
			# with no warm-up a command is let go once the window is
			# open: its file says the window is open
			spawn "$TMP/err" "$PERPKT" record -q -d 60 -w 0 --per count:1 -o "$TMP/sig.json" \
				-- sh -c ": >'$TMP/ready'; exec sleep 120"
			pid=$SPAWNED
			wait_file "$TMP/ready" $pid
		fi
		kill -$sig $pid
		code=0
		wait $pid || code=$?
		if [ $at = warmup ]; then
			[ $code = 2 ] || fail "SIG$sig in the warm-up: exit $code: $(cat "$TMP/err")"
			grep -q "interrupted during warm-up" "$TMP/err" || fail "SIG$sig: $(cat "$TMP/err")"
		else
			[ $code = 1 ] || fail "SIG$sig in the window: exit $code: $(cat "$TMP/err")"
			jq -e '.workload.repeats[0].complete == false' "$TMP/sig.json" >/dev/null ||
				fail "SIG$sig in the window: not marked partial"
		fi
		rm -f "$TMP/sig.json"
		no_leftovers $pid "$TMP/state.before"
	done
done

# loss inside the namespaces: counted, never a hang
if [ "$(id -u)" = 0 ] && command -v tc >/dev/null; then
	for loss in 5 50; do
		spawn "$TMP/err" "$PERPKT" record -v -d 1.5 -w 0.5 --net veth -o "$TMP/loss$loss.json"
		pid=$SPAWNED
		# past the first round trip (-v says when the warm-up starts):
		# the window is what loses
		wait_line "$TMP/err" '^perpkt: warm-up: ' $pid
		start=$SECONDS
		# (/run/netns, not `ip netns list`, which asks netlink about each
		# one while other runs make and remove theirs)
		ns=perpkt-$pid-r
		[ -e /run/netns/$ns ] || { kill $pid; fail "no namespace $ns: $(ls /run/netns | tr "\n" " "); perpkt said: $(cat "$TMP/err")"; }
		# netem, or as t0504 does without it: a classic BPF filter that
		# sends a random share (rand < K) of the replies to lo to die
		k=$(( loss * 4294967296 / 100 ))
		tc -n "$ns" qdisc add dev veth0 root netem loss $loss% 2>/dev/null ||
			{ tc -n "$ns" qdisc add dev veth0 clsact &&
			  tc -n "$ns" filter add dev veth0 egress bpf bytecode \
				"4,32 0 0 4294963256,53 0 1 $k,6 0 0 0,6 0 0 4294967295" \
				action mirred egress redirect dev lo; } ||
			{ kill $pid; wait $pid; fail "cannot inject loss in $ns"; }
		code=0
		wait $pid || code=$?
		[ $code -le 1 ] || fail "$loss% loss: exit $code: $(grep -v 'PMU' "$TMP/err")"
		# 2 s of warm-up and window, a 1 s re-send at most after it:
		# a hang, not a slow machine, takes 30 s
		[ $((SECONDS - start)) -le 30 ] || fail "$loss% loss: took $((SECONDS - start)) s"
		# each lost reply costs a 1 s re-send: few round trips, and the
		# losses counted (at 5%, one in about 20 round trips)
		jq -e '.workload.round_trips >= 0 and
			(.conditions["replies.lost"] // "0" | test("^[1-9]"))' \
			"$TMP/loss$loss.json" >/dev/null ||
			fail "$loss% loss: $(jq -c '[.workload.round_trips, .conditions["replies.lost"]]' "$TMP/loss$loss.json")"
		no_leftovers $pid "$TMP/state.before"
	done
fi

# (a profile cut at every byte offset: unit/test-profile, in-process)

# perf_event_paranoid=3, an unprivileged user: a clear error, restored
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	old=$(cat /proc/sys/kernel/perf_event_paranoid)
	trap 'echo $old >/proc/sys/kernel/perf_event_paranoid; rm -rf "$TMP"' EXIT
	echo 3 >/proc/sys/kernel/perf_event_paranoid
	mkdir "$TMP/nobody" && chmod 777 "$TMP/nobody" "$TMP"
	code=0
	user_files
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$UPERPKT" record -q -d 0.2 -w 0.1 -o "$TMP/nobody/x.json" 2>"$TMP/err" || code=$?
	echo $old >/proc/sys/kernel/perf_event_paranoid
	[ $code = 2 ] || fail "paranoid 3: exit $code: $(cat "$TMP/err")"
	grep -q "perf_event_paranoid=3.*set kernel.perf_event_paranoid to -1 or run as root" "$TMP/err" ||
		fail "paranoid 3: $(cat "$TMP/err")"
	[ ! -e "$TMP/nobody/x.json" ] || fail "paranoid 3 wrote a profile"
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" = "$old" ] || fail "paranoid not restored"
fi
echo "ok: signals, loss, paranoid 3"
