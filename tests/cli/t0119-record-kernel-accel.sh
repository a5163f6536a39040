#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# KVM or TCG, decided once per host (src/lab/accel.h), with a fake
# qemu-system-x86_64 first on PATH: no guest boots. Under -accel kvm it fails
# as nested KVM does on these VMs (an abort on an MSR, a register dump,
# a hang after "Probing EDD"; its warnings are not the reason) or
# reaches /init; under TCG it fails at once, so each run ends there.
# Checked: the fallback comes in seconds with one line that says how KVM
# failed, the answer is kept in the cache (PERPKT_CACHE) and the next
# run goes straight to TCG, a KVM guest that reached /init is kept as
# working, --accel and -accel in --qemu-arg force either with no
# fallback, the --net nic pair falls back as one guest does, a file that
# is no kernel is refused before any QEMU starts, and no fake QEMU is
# left running.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the fake QEMU stands in for qemu-system-x86_64"
mkdir -p "$TMP/bin" "$TMP/boot" "$TMP/tmp"
img=$TMP/boot/vmlinuz-9.9.9-test
head -c 1024 /dev/zero >"$img"
printf 'HdrS' | dd of="$img" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
log=$TMP/qemu-calls
cat >"$TMP/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
# t0119's QEMU: logs the accelerator it was given, then acts as FAKE_KVM
# says under kvm; under anything else it fails at once.
if [ "${1:-}" = --version ]; then
	echo "QEMU emulator version 0.0.1 (perpkt t0119 fake)"
	exit 0
fi
accel=none con= prev=
for a in "$@"; do
	case $prev in
	-accel) accel=$a ;;
	-serial) [ -n "$con" ] || con=${a#file:} ;;
	esac
	prev=$a
done
echo "$accel" >>"$FAKE_LOG"
if [ "$accel" = kvm ]; then
	case $FAKE_KVM in
	abort)
		echo "qemu-system-x86_64: -accel kvm: warning: Number of SMP cpus requested (3) exceeds the recommended cpus supported by KVM (2)" >&2
		echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
		kill -ABRT $$ ;;
	dump)
		echo 'Probing EDD (edd=off to disable)... ok' >"$con"
		echo "KVM internal error. Suberror: 1" >&2
		echo "RAX=0000000000000000 RBX=0000000000000000 RCX=0000000000000000" >&2
		echo "TR =0020 00000000fffbb000 0000206f 00008b00 DPL=0 TSS64-busy" >&2
		exec -a "$FAKE_LOG.qemu" sleep 300 ;;
	hang)
		echo 'Probing EDD (edd=off to disable)... ok' >"$con"
		exec -a "$FAKE_LOG.qemu" sleep 300 ;;
	up)
		echo 'perpkt-guest: up' >"$con"
		exit 0 ;;
	esac
fi
echo "qemu-system-x86_64: fake $accel: no guest here" >&2
exit 1
EOF
chmod +x "$TMP/bin/qemu-system-x86_64"
export FAKE_LOG=$log TMPDIR=$TMP/tmp
export PATH="$TMP/bin:$PATH"

# run NAME KVM ARGS...: record --kernel with a cache of its own (NAME),
# the fake acting as KVM says; exits 2 (the fake TCG fails)
run() {
	local cache=$TMP/cache-$1 kvm=$2
	shift 2
	: >"$log"
	PERPKT_CACHE=$cache FAKE_KVM=$kvm expect_exit 2 "$PERPKT" record --kernel "$img" \
		-d 0.2 -w 0.1 -o "$TMP/p.json" "$@"
	[ ! -e "$TMP/p.json" ] || fail "a profile from a guest that never ran"
}
calls() { tr '\n' ' ' <"$log" | sed 's/ $//'; }

# Is /dev/kvm usable here (it opens and makes a VM)? Only then is there
# anything to fall back from.
run probe abort
if grep -q "under qemu-system-x86_64 (tcg (/dev/kvm" "$TMP/err"; then
	skip "no usable /dev/kvm: $(grep -o '(/dev/kvm[^)]*)' "$TMP/err" | head -1)"
fi

# an abort on an MSR, as Debian's QEMU 7.2 does here under -cpu max
run abort abort
[ "$(calls)" = "kvm none" ] && fail "the accelerator was not named to QEMU"
[ "$(calls)" = "kvm tcg" ] || fail "QEMU ran as '$(calls)', expected kvm then tcg"
grep -q "^perpkt: KVM: QEMU was killed by signal 6 (Aborted): failed to set MSR 0x10a to 0x69 (after [0-9.]* s); using TCG (remembered for this host in '$TMP/cache-abort/accel'; --accel kvm tries KVM again)$" "$TMP/err" ||
	fail "fallback line: $(cat "$TMP/err")"
[ "$(grep -c '^perpkt: KVM:' "$TMP/err")" = 1 ] || fail "the fallback said twice"
grep -q "under qemu-system-x86_64 (tcg (KVM cannot run guests on this host: QEMU was killed by signal 6 (Aborted): failed to set MSR 0x10a to 0x69))" "$TMP/err" ||
	fail "the TCG boot does not say why: $(cat "$TMP/err")"
# the TCG failure is said in full, its blocks not empty
grep -A1 "^perpkt: qemu-system-x86_64 said:" "$TMP/err" | grep -q "fake tcg: no guest here" ||
	fail "QEMU's message not shown: $(cat "$TMP/err")"
grep -q "^perpkt: guest console (ttyS0): nothing, the kernel printed no line" "$TMP/err" ||
	fail "an empty console shown as a block: $(cat "$TMP/err")"
grep -q "did not boot to /init under TCG (qemu-system-x86_64 exited with status 1)" "$TMP/err" ||
	fail "TCG failure: $(cat "$TMP/err")"
grep -q "	tcg	[0-9]*	QEMU was killed by signal 6 (Aborted): failed to set MSR 0x10a to 0x69$" "$TMP/cache-abort/accel" ||
	fail "not remembered: $(cat "$TMP/cache-abort/accel")"
grep -q "^host $(uname -r) .*; QEMU emulator version 0.0.1 (perpkt t0119 fake); /dev/kvm [0-9]*:[0-9]* inode [0-9]*	" "$TMP/cache-abort/accel" ||
	fail "cache key: $(cat "$TMP/cache-abort/accel")"

# the next run, same host: straight to TCG, no KVM boot, no new line
run abort abort
[ "$(calls)" = tcg ] || fail "a known host ran QEMU as '$(calls)'"
! grep -q "^perpkt: KVM:" "$TMP/err" || fail "the fallback said again: $(cat "$TMP/err")"
grep -q "(tcg (KVM cannot run guests on this host: QEMU was killed by signal 6" "$TMP/err" ||
	fail "the cached answer is not said: $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/cache-abort/accel")" = 1 ] || fail "cache grew: $(cat "$TMP/cache-abort/accel")"
# stat --kernel takes the same answer
: >"$log"
PERPKT_CACHE=$TMP/cache-abort FAKE_KVM=abort expect_exit 2 "$PERPKT" stat --kernel "$img" -d 0.2
[ "$(calls)" = tcg ] || fail "stat --kernel ran QEMU as '$(calls)'"

# a register dump: QEMU stops the guest and stays; seen at once
run dump dump
[ "$(calls)" = "kvm tcg" ] || fail "register dump: QEMU ran as '$(calls)'"
grep -q "^perpkt: KVM: QEMU stopped the guest with a register dump: KVM internal error. Suberror: 1 (after [0-9.]* s); using TCG" "$TMP/err" ||
	fail "register dump line: $(cat "$TMP/err")"
secs=$(sed -n 's/^perpkt: KVM: .*(after \([0-9.]*\) s).*/\1/p' "$TMP/err")
[ "$(echo "$secs < 5" | bc)" = 1 ] || fail "a register dump took ${secs} s to see (the silence's 5 s or more)"

# a guest that hangs in early boot: 5 s without a console line
run hang hang
[ "$(calls)" = "kvm tcg" ] || fail "hang: QEMU ran as '$(calls)'"
grep -q "^perpkt: KVM: the guest printed nothing for 5 s after 'Probing EDD (edd=off to disable)... ok' (after [0-9.]* s); using TCG" "$TMP/err" ||
	fail "hang line: $(cat "$TMP/err")"

# a KVM guest that reaches /init: KVM works here, kept, no fallback
# even though this one ended without its files
run up up
[ "$(calls)" = kvm ] || fail "a working KVM ran QEMU as '$(calls)'"
grep -q "the guest stopped before sending its files out on ttyS1" "$TMP/err" ||
	fail "up: $(cat "$TMP/err")"
grep -q "	kvm	[0-9]*	a guest reached /init under KVM$" "$TMP/cache-up/accel" ||
	fail "KVM working not remembered: $(cat "$TMP/cache-up/accel")"
run up abort
[ "$(calls)" = "kvm tcg" ] || fail "a host whose KVM stopped working ran QEMU as '$(calls)'"
[ "$(tail -1 "$TMP/cache-up/accel" | cut -f2)" = tcg ] || fail "the new answer not kept"

# forced: --accel kvm fails under KVM with QEMU's words, no fallback,
# nothing remembered; --accel tcg and -accel in --qemu-arg boot as told
run forced abort --accel kvm
[ "$(calls)" = kvm ] || fail "--accel kvm ran QEMU as '$(calls)'"
grep -A2 "qemu-system-x86_64 said:" "$TMP/err" | grep -q "failed to set MSR" ||
	fail "--accel kvm: $(cat "$TMP/err")"
grep -q "did not boot to /init under KVM (qemu-system-x86_64 was killed by signal 6 (Aborted))" "$TMP/err" ||
	fail "--accel kvm failure: $(cat "$TMP/err")"
[ ! -e "$TMP/cache-forced/accel" ] || fail "a forced run remembered: $(cat "$TMP/cache-forced/accel")"
run forced abort --accel tcg
[ "$(calls)" = tcg ] || fail "--accel tcg ran QEMU as '$(calls)'"
grep -q "under qemu-system-x86_64 (tcg (--accel tcg))" "$TMP/err" || fail "--accel tcg: $(cat "$TMP/err")"
run forced abort --qemu-arg=-accel --qemu-arg=tcg
[ "$(calls)" = tcg ] || fail "--qemu-arg -accel tcg ran QEMU as '$(calls)'"
expect_exit 64 "$PERPKT" record --kernel "$img" --accel tcg --qemu-arg=-accel --qemu-arg=kvm
grep -q "choose one" "$TMP/err" || fail "--accel with -accel: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --kernel "$img" --accel bogus
grep -q "unknown --accel 'bogus': use auto, kvm or tcg" "$TMP/err" || fail "$(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --kernel "$img" --exact --accel kvm
grep -q "cannot go with --accel kvm" "$TMP/err" || fail "$(cat "$TMP/err")"

# the --net nic pair: its responder is the probe, then both go under TCG
: >"$log"
PERPKT_CACHE=$TMP/cache-nic FAKE_KVM=abort expect_exit 2 "$PERPKT" record --kernel "$img" \
	--net nic -d 0.2 -w 0.1 -o "$TMP/p.json"
[ "$(calls)" = "kvm tcg" ] || fail "the pair ran QEMU as '$(calls)'"
grep -q "^perpkt: KVM: QEMU was killed by signal 6 (Aborted)" "$TMP/err" || fail "pair: $(cat "$TMP/err")"
grep -q "joined by an emulated virtio NIC" "$TMP/err" || fail "pair boot line: $(cat "$TMP/err")"
grep -q "under qemu-system-x86_64 (tcg (KVM cannot run guests" "$TMP/err" || fail "pair under TCG: $(cat "$TMP/err")"
: >"$log"
PERPKT_CACHE=$TMP/cache-nic FAKE_KVM=abort expect_exit 2 "$PERPKT" record --kernel "$img" \
	--net nic -d 0.2 -w 0.1 -o "$TMP/p.json"
[ "$(calls)" = tcg ] || fail "a known host's pair ran QEMU as '$(calls)'"

# not a kernel: said before any QEMU starts
: >"$log"
expect_exit 2 "$PERPKT" record --kernel /etc/passwd -o "$TMP/p.json"
grep -q "'/etc/passwd' is not a kernel QEMU can boot: neither an x86 bzImage" "$TMP/err" ||
	fail "not a kernel: $(cat "$TMP/err")"
expect_exit 2 "$PERPKT" record --kernel "$PERPKT" -o "$TMP/p.json"
grep -q "is not a kernel QEMU can boot: an ELF file but no Linux kernel" "$TMP/err" ||
	fail "an ELF program as a kernel: $(cat "$TMP/err")"
[ ! -s "$log" ] || fail "QEMU started for a file that is no kernel: $(calls)"

# nothing left: no fake QEMU (sleep) running, no guest folder
# (named after this run's log: another run's or anyone's sleep is not it)
[ -z "$(pgrep -f "^$log.qemu ")" ] || fail "a stopped QEMU is still running: $(pgrep -af "^$log.qemu ")"
[ -z "$(ls -A "$TMP/tmp")" ] || fail "left behind: $(ls -A "$TMP/tmp")"
echo "ok: abort, register dump, hang and a working KVM; forced both ways; the pair"
