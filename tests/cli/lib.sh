# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tests/cli/t*.sh. ctest sets PERPKT, SRCDIR, BUILDDIR, FIXTURES.
set -u
: "${PERPKT:?run through ctest, or set PERPKT to the perpkt binary}"
# an empty TMP would make "$TMP/bin/qemu-system-x86_64" a system file
TMP=$(mktemp -d "${TMPDIR:-/tmp}/perpkt-cli.XXXXXX") && [ -d "$TMP" ] ||
	{ echo "FAIL: cannot create a folder under '${TMPDIR:-/tmp}'" >&2; exit 99; }
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
# unwrap [FILE]: a report's long lines go on indented; join them back
# (the file is $TMP/out unless named)
unwrap() { sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  / /g' "${1:-$TMP/out}"; }

# expect_exit CODE CMD...: run, keep stdout/stderr in $TMP/out, $TMP/err.
# A command (not a shell function) that runs past EXPECT_TIMEOUT seconds
# is stopped and named, so a hang fails here rather than as ctest's
# timeout of the whole script. timeout's path is taken now: a test may
# run a command with a PATH that has nothing on it.
TIMEOUT_BIN=$(command -v timeout)
expect_exit() {
	local want=$1; shift
	local got=0 limit=${EXPECT_TIMEOUT:-240}
	if [ "$(type -t "$1")" = function ] || [ -z "$TIMEOUT_BIN" ]; then
		"$@" >"$TMP/out" 2>"$TMP/err" || got=$?
	else
		"$TIMEOUT_BIN" -k 10 "$limit" "$@" >"$TMP/out" 2>"$TMP/err" || got=$?
		[ "$got" = 124 ] && [ "$want" != 124 ] &&
			fail "'$*' ran past ${limit} s: stopped (stderr: $(/usr/bin/tail -3 "$TMP/err"))"
	fi
	[ "$got" = "$want" ] || { cat "$TMP/err" >&2; fail "'$*' exited $got, expected $want"; }
}

# spawn ERR CMD...: CMD in the background, its stderr in ERR, its pid in
# $SPAWNED. Signal it only after it says it is ready (wait_line): bash
# starts background jobs with SIGINT ignored, so one sent before the
# program sets its handler is lost. ERR is emptied here, before CMD
# starts: a redirection in the background job would empty it only when
# that job runs, and a wait_line on ERR meanwhile could match a line of
# the previous run's (seen under load: the next step then found nothing).
spawn() {
	local err=$1; shift
	: >"$err"
	"$@" 2>>"$err" &
	SPAWNED=$!
}
# alive PID: running (not gone, not a zombie waiting for `wait`)
alive() {
	[ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | grep -q '^Z'
}
# wait_line FILE REGEX [PID]: until a line of FILE matches REGEX (grep
# -E); fails when PID ends first, or after WAIT_LINE_S seconds (300):
# a wait on a fact, with a bound only a hang reaches.
wait_line() {
	local file=$1 re=$2 pid=${3:-} end=$((SECONDS + ${WAIT_LINE_S:-300}))
	until grep -qE -- "$re" "$file" 2>/dev/null; do
		if [ -n "$pid" ] && ! alive "$pid"; then
			grep -qE -- "$re" "$file" 2>/dev/null && return 0
			fail "waited for '$re': process $pid ended first: $(tail -3 "$file" 2>/dev/null)"
		fi
		[ "$SECONDS" -lt "$end" ] ||
			fail "no line '$re' in $file within ${WAIT_LINE_S:-300} s: $(tail -3 "$file" 2>/dev/null)"
		sleep 0.05
	done
}
# wait_file FILE [PID]: until FILE exists (a workload's "I am running")
wait_file() {
	local end=$((SECONDS + ${WAIT_LINE_S:-300}))
	until [ -e "$1" ]; do
		[ -z "${2:-}" ] || alive "$2" || fail "waited for $1: process $2 ended first"
		[ "$SECONDS" -lt "$end" ] || fail "no $1 within ${WAIT_LINE_S:-300} s"
		sleep 0.05
	done
}

# serve_bg ERR CMD...: CMD, a perpkt serve (behind ip netns exec or
# setpriv as may be), in the background, its stderr added to ERR, its
# pid in $SERVE; returns once it says it listens (one more "listening"
# line in ERR than before)
serve_bg() {
	local err=$1 n end=$((SECONDS + ${WAIT_LINE_S:-300})); shift
	n=$(grep -c 'serve: listening on' "$err" 2>/dev/null) || n=0
	"$@" 2>>"$err" &
	SERVE=$!
	until [ "$(grep -c 'serve: listening on' "$err" 2>/dev/null)" -gt "$n" ]; do
		alive "$SERVE" || fail "perpkt serve ended before it listened: $(tail -3 "$err")"
		[ "$SECONDS" -lt "$end" ] || fail "perpkt serve did not listen within ${WAIT_LINE_S:-300} s"
		sleep 0.05
	done
}
# wait_port NS ADDR PORT: until a TCP connect to ADDR:PORT from netns NS
# succeeds (a listener that says nothing, such as socat)
wait_port() {
	local end=$((SECONDS + ${WAIT_LINE_S:-300}))
	until ip netns exec "$1" bash -c "exec 3<>/dev/tcp/$2/$3" 2>/dev/null; do
		[ "$SECONDS" -lt "$end" ] || fail "nothing listens on $2:$3 within ${WAIT_LINE_S:-300} s"
		sleep 0.05
	done
}

need_perf() {
	[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] ||
		skip "needs root or kernel.perf_event_paranoid <= 0"
}

# need_x86_guest WHAT: what a test that boots an x86_64 guest needs here
# (WHAT names the test's guest in the skip reason)
need_x86_guest() {
	[ "$(uname -m)" = x86_64 ] || skip "$1 boots an x86_64 guest"
	command -v qemu-system-x86_64 >/dev/null ||
		skip "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
	[ -x /bin/busybox ] || skip "no /bin/busybox (apt-get install busybox-static)"
}

# test_namespace SUFFIX: a network namespace of this test's own in $NS
# (perpkt-test-PID-SUFFIX), its lo up; in_ns CMD... runs CMD there. The
# caller's EXIT trap deletes it (ip netns del $NS): set that first.
test_namespace() {
	[ "$(id -u)" = 0 ] || skip "needs root for a network namespace"
	command -v ip >/dev/null || skip "needs ip (iproute2)"
	NS=perpkt-test-$$-$1
	ip netns add "$NS" && ip -n "$NS" link set lo up ||
		fail "cannot make a test namespace"
}
in_ns() { ip netns exec "$NS" "$@"; }

# kernel_tree [TOOL...]: tests/lab/kernel-tree.sh's tree in $tree (its cache in
# $KTREE_CACHE), held for the rest of the test: a bisect or a build in
# it by another suite on this host (two check-labs at once, each with
# its own clone of perpkt) would otherwise check out commits under this
# one ("a bisect is already running", a git index.lock). The wait counts
# against the test's time. Skips when the source package is missing.
kernel_tree() {
	local rc=0 t
	# what building the tree needs, and the exact plugin; more named
	for t in jq git make gcc flex bison bc ccache perl "$@"; do
		command -v "$t" >/dev/null || skip "needs $t (make check-lab installs what the kernel build needs)"
	done
	[ -r "$BUILDDIR/perpkt-exact.so" ] ||
		skip "the QEMU plugin was not built: no qemu-plugin.h (make deps fetches it; then build again)"
	KTREE_CACHE=${PERPKT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perpkt}
	mkdir -p "$KTREE_CACHE/ktree" || fail "cannot make $KTREE_CACHE/ktree"
	exec 8>"$KTREE_CACHE/ktree/.in-use"
	flock 8 || fail "cannot lock the kernel tree"
	# held: a bisect in it now is one a killed run left
	if [ -e "$KTREE_CACHE/ktree/linux/.git/BISECT_START" ]; then
		echo "kernel tree: a bisect left by a killed run: git bisect reset" >&2
		git -C "$KTREE_CACHE/ktree/linux" bisect reset >&2 ||
			fail "cannot reset the bisect left in $KTREE_CACHE/ktree/linux"
	fi
	tree=$("$SRCDIR/tests/lab/kernel-tree.sh" 2>"$TMP/tree") || rc=$?
	[ $rc != 77 ] || skip "$(tail -1 "$TMP/tree")"
	[ $rc = 0 ] || { cat "$TMP/tree" >&2; fail "tests/lab/kernel-tree.sh exited $rc"; }
}

# guest_kernel: the lab's cached Debian kernel (PERPKT_LAB_KERNEL, else
# 6.1), fetched once: its release in $rel, its unpacked package in
# $root, its image in $img; skips when it cannot be had or when QEMU
# cannot start a machine here at all (no /dev/kvm is fine: TCG)
guest_kernel() {
	rel=${PERPKT_LAB_KERNEL:-6.1.0-57-cloud-amd64}
	root=$("$SRCDIR/tests/lab/fetch-kernel.sh" "$rel" 2>"$TMP/fetch") ||
		{ cat "$TMP/fetch" >&2; skip "cannot fetch kernel $rel"; }
	img=$root/boot/vmlinuz-$rel
	timeout 20 qemu-system-x86_64 -accel tcg -M none -nodefaults -display none \
		-monitor none -S -daemonize -pidfile "$TMP/q.pid" >/dev/null 2>&1 ||
		skip "qemu-system-x86_64 cannot start here"
	kill "$(cat "$TMP/q.pid")" 2>/dev/null
}

# need_lo_rps: lo's RPS mask in $RPS, writable (root, CONFIG_RPS)
need_lo_rps() {
	[ "$(id -u)" = 0 ] || skip "needs root to change rps_cpus"
	RPS=/sys/class/net/lo/queues/rx-0/rps_cpus
	[ -w $RPS ] || skip "no writable $RPS (CONFIG_RPS?)"
}

# What perpkt may change outside its own namespaces, to compare before
# and after a run: qdiscs, RPS masks, IRQ affinities. (Namespaces are
# checked by name per run: other perpkt runs may be going on.)
system_state() {
	others_changed >>"$TMP/others.seen"
	tc qdisc show 2>/dev/null
	for f in /sys/class/net/*/queues/rx-*/rps_cpus; do
		[ -r "$f" ] && echo "$f $(cat "$f")"
	done
	for f in /proc/irq/*/smp_affinity_list; do
		[ -r "$f" ] && echo "$f $(cat "$f" 2>/dev/null)"
	done
}
# What other perpkt runs that are still going have changed (their notes
# in /run/perpkt): on a machine where other suites run, theirs, not
# run $1's.
others_changed() {
	local f p
	for f in /run/perpkt/state.*; do
		[ -e "$f" ] || continue
		p=${f##*/state.}; p=${p%%-*}
		[ "$p" != "${1:-}" ] && alive "$p" && cut -d' ' -f1 "$f"
	done
	return 0
}
# own_rundir "$@" (first thing after sourcing this file): the rest of
# the test runs in a mount namespace of its own with its own directory
# bound on /run/perpkt, so no other test's perpkt undoes the notes its
# killed runs leave before it reads them, and its runs undo none of
# theirs. What those notes are about (RPS masks, sysctls, namespaces)
# is still the host's: such a test holds the ctest lock `host`, which
# the ones that change it hold too (docs/HACKING.md, "Tests").
own_rundir() {
	[ -z "${PERPKT_TEST_RUNDIR:-}" ] || return 0
	[ "$(id -u)" = 0 ] || skip "needs root for a /run/perpkt of its own (a mount namespace)"
	local rc=0
	mkdir -m 700 "$TMP/rundir" && mkdir -p -m 700 /run/perpkt ||
		fail "cannot make a run directory for the test"
	PERPKT_TEST_RUNDIR=$TMP/rundir unshare -m --propagation slave bash -c \
		'mount --bind "$PERPKT_TEST_RUNDIR" /run/perpkt && exec bash "$@"' _ "$0" "$@" || rc=$?
	exit $rc
}
# run_file KIND PID: the run directory's file of that kind (state,
# output) of run PID, named KIND.PID-START-PIDNS; empty when none
run_file() {
	local f
	for f in /run/perpkt/"$1.$2"-*; do
		[ -e "$f" ] && { echo "$f"; return 0; }
	done
	return 0
}
# no_leftovers PID STATE-FILE: nothing of run PID is left behind
no_leftovers() {
	# (/run/netns, not `ip netns list`, which asks netlink about each
	# one while other runs make and remove theirs)
	! ls /run/netns 2>/dev/null | grep -q "^perpkt-$1-" ||
		fail "run $1 left namespaces: $(ls /run/netns | grep "^perpkt-$1-")"
	system_state >"$TMP/state.after"
	others_changed "$1" >>"$TMP/others.seen"
	grep -v '^$' "$TMP/others.seen" >"$TMP/others" || true
	diff -u <(grep -vFf "$TMP/others" "$2") <(grep -vFf "$TMP/others" "$TMP/state.after") >&2 ||
		fail "run $1 left the system changed"
}

# veth_pair NS_A NS_B ADDR_A ADDR_B PREFIXLEN: two namespaces of the
# test's own joined by a veth pair (veth0 in each), addresses on it that
# exist only inside them; the caller removes the namespaces.
veth_pair() {
	ip netns add "$1" && ip netns add "$2" &&
	ip link add veth0 netns "$1" type veth peer name veth0 netns "$2" &&
	ip -n "$1" addr add "$3/$5" dev veth0 && ip -n "$2" addr add "$4/$5" dev veth0 &&
	ip -n "$1" link set veth0 up && ip -n "$2" link set veth0 up &&
	ip -n "$1" link set lo up && ip -n "$2" link set lo up
}

# peer_namespaces ADDR_A ADDR_B PREFIXLEN: skip without root or ip, else
# two namespaces of the test's own in $A and $B, joined by veth_pair,
# removed at exit with $TMP, after killing $SERVE and the pids in the
# variables $KILL_VARS names (read at exit: a variable emptied when its
# process ended is skipped), and dropping the test user if one was made.
peer_namespaces() {
	[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
	command -v ip >/dev/null || skip "needs ip (iproute2)"
	A=perpkt-test-$$-a B=perpkt-test-$$-b
	trap peer_cleanup EXIT
	veth_pair "$A" "$B" "$1" "$2" "$3" || fail "cannot make test namespaces"
}
peer_cleanup() {
	local v
	for v in SERVE ${KILL_VARS:-}; do
		[ -n "${!v:-}" ] && kill "${!v}" 2>/dev/null
	done
	ip netns del "$A" 2>/dev/null; ip netns del "$B" 2>/dev/null
	[ -z "${TEST_USER:-}" ] || drop_test_user
	rm -rf "$TMP"
}

# make_test_user: an unprivileged user of the test's own in $TEST_USER
# ($TEST_UID), no home, no login; as_test_user CMD... runs CMD as it.
# The test's EXIT trap calls drop_test_user, so it goes on every path.
make_test_user() {
	[ "$(id -u)" = 0 ] || skip "needs root to add a user"
	command -v useradd >/dev/null || skip "needs useradd (passwd)"
	TEST_USER=perpkt-t$$
	useradd -M -N -g nogroup -d /nonexistent -s /usr/sbin/nologin "$TEST_USER" ||
		fail "cannot add user $TEST_USER"
	TEST_UID=$(id -u "$TEST_USER")
	user_files
}
drop_test_user() {
	[ -n "${TEST_USER:-}" ] && userdel "$TEST_USER" 2>/dev/null
	TEST_USER=
}
# user_files: $UPERPKT, a copy of $PERPKT, and in $UPYDIR the test's
# python module, where an unprivileged user may run and read them: the
# tree may lie in a folder only root may enter (a clone in mktemp -d,
# mode 0700). Skips when that user cannot reach even $TMP.
user_files() {
	local u=$TMP/user-files
	mkdir -p "$u" && cp "$PERPKT" "$u/perpkt" &&
		cp "$SRCDIR/tests/cli/perpkt_control.py" "$u/" &&
		chmod 755 "$u" "$u/perpkt" && chmod 644 "$u/perpkt_control.py" &&
		chmod a+x "$TMP" || fail "cannot copy perpkt where a user may run it"
	UPERPKT=$u/perpkt UPYDIR=$u
	setpriv --reuid=65534 --regid=65534 --clear-groups -- test -x "$UPERPKT" ||
		skip "an unprivileged user cannot run $UPERPKT (is ${TMPDIR:-/tmp} closed to others?)"
}
as_test_user() {
	setpriv --reuid="$TEST_UID" --regid="$(getent group nogroup | cut -d: -f3)" \
		--clear-groups -- "$@"
}

# need_chromium: $CHROMIUM, a headless Chromium, and python3 to read
# what it gives back; skips without them
need_chromium() {
	CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
		skip "chromium not installed (apt-get install chromium)"
	command -v python3 >/dev/null || skip "python3 not installed"
}
# flame_selftest FILE ARG: FILE (an HTML page or an SVG with flame
# graphs) in headless Chromium at #selftest=ARG, "FUNCTION;TERM": the
# page's script zooms into FUNCTION and back and searches TERM
# (reports/flame/flame-script.c); --dump-dom returns once the page has
# loaded, with what the script wrote in <pre id="flame-selftest">. That
# JSON goes to $TMP/selftest.json, Chromium's log (console messages
# included) to $TMP/chromium.log.
flame_selftest() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$TMP/chromium" --enable-logging=stderr --v=0 \
		--dump-dom "file://$1#selftest=$2" >"$TMP/dom" 2>"$TMP/chromium.log" ||
		{ tail -5 "$TMP/chromium.log" >&2; fail "chromium failed on $1"; }
	sed -n 's|.*<pre id="flame-selftest"[^>]*>\(.*\)</pre>.*|\1|p' "$TMP/dom" |
		sed 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&amp;/\&/g' >"$TMP/selftest.json"
	[ -s "$TMP/selftest.json" ] || fail "$1: the page's self-test wrote nothing (did its script run?)"
}
# console_errors: the errors Chromium's console logged, if any
console_errors() {
	grep -iE 'CONSOLE.*(error|uncaught)|Uncaught' "$TMP/chromium.log"
}
