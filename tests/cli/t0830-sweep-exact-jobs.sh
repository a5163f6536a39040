#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# ctest-timeout: 1500
# sweep over exact cells (one vCPU on QEMU's instruction clock): the
# same four cells recorded four ways give the same profiles, to the
# instruction and the round trip, and the same table:
#  - sweep --jobs 1, one cell after another;
#  - sweep --jobs 2, two guests side by side;
#  - sweep --plan parallel, run by GNU parallel --jobs 2;
#  - sweep --plan slurm, run as a job array by a single-node Slurm
#    (munged, slurmctld and slurmd of this test's own, on a socket and
#    ports of its own; skipped, saying why, where they cannot start).
# Then the sweep that takes a plan's profiles refuses one the plan did
# not make. Time ratios are tests/bench's (bench-exact.sh), not asserted.
. "$(dirname "$0")/lib.sh"
need_x86_guest "the exact sweep test"
[ -r "$BUILDDIR/perpkt-exact.so" ] ||
	skip "the QEMU plugin was not built: no qemu-plugin.h (make deps fetches it; then build again)"
command -v parallel >/dev/null || skip "GNU parallel not installed (apt-get install parallel)"
command -v b2sum >/dev/null || skip "no b2sum (coreutils)"
rel=${PERPKT_LAB_KERNEL:-6.1.0-57-cloud-amd64}
root=$("$SRCDIR/tests/lab/fetch-kernel.sh" "$rel" 2>"$TMP/fetch") ||
	{ cat "$TMP/fetch" >&2; skip "cannot fetch kernel $rel"; }
img=$root/boot/vmlinuz-$rel
cd "$TMP" || fail "cannot enter $TMP"
args=(-d 0.2 -w 0.1 --size 40,100,200,400 -- --kernel "$img" --exact)
cells="size40 size100 size200 size400"
counts() { jq -c '[.workload.round_trips, ([.samples[] | [.cpu, .ip, .weight]] | sort)]' "$1"; }
same_as_one() {
	local dir=$1 how=$2 c
	for c in $cells; do
		[ -s "$dir/$c.json" ] || fail "$how: no profile for cell $c: $(ls "$dir")"
		[ "$(counts "$dir/$c.json")" = "$(counts one/$c.json)" ] || {
			"$PERPKT" diff --force "one/$c.json" "$dir/$c.json" >&2
			fail "$how: cell $c counted other instructions than --jobs 1"
		}
	done
}

t0=$SECONDS
expect_exit 0 "$PERPKT" sweep -o one -j 1 "${args[@]}"
t1=$((SECONDS - t0))
cp "$TMP/out" table-one
grep -c "^size" table-one | grep -qx 4 || fail "table of --jobs 1: $(cat table-one)"
# the kernel image by content in each profile, as b2sum says it
[ "$(jq -r '.conditions["lab.kernel_blake2b"]' one/size40.json)" = "$(b2sum -l 256 "$img" | cut -d' ' -f1)" ] ||
	fail "lab.kernel_blake2b: $(jq -r '.conditions["lab.kernel_blake2b"]' one/size40.json)"

t0=$SECONDS
expect_exit 0 "$PERPKT" sweep -o two -j 2 "${args[@]}"
t2=$((SECONDS - t0))
grep -q "recorded (4 of 4 files to record)" "$TMP/err" || fail "--jobs 2 progress: $(cat "$TMP/err")"
grep -q "one cell at a time" "$TMP/err" && fail "--jobs 2 ran exact cells one at a time"
same_as_one two "--jobs 2"
diff -u table-one "$TMP/out" || fail "--jobs 2 printed another table"
echo "four exact cells: --jobs 1 ${t1} s, --jobs 2 ${t2} s (load $(cut -d' ' -f1 /proc/loadavg))"

# GNU parallel runs the plan; the sweep then takes the profiles
expect_exit 0 "$PERPKT" sweep -o par --plan parallel "${args[@]}"
[ "$(wc -l <par/plan)" = 4 ] || fail "plan lines: $(wc -l <par/plan)"
ls par/*.json 2>/dev/null && fail "--plan recorded"
grep -q "parallel --jobs [0-9]* < $TMP/par/plan" "$TMP/err" || fail "--plan's advice: $(cat "$TMP/err")"
parallel --jobs 2 <par/plan >par.out 2>&1 || fail "parallel: $(tail -5 par.out)"
expect_exit 0 "$PERPKT" sweep -o par "${args[@]}"
[ "$(grep -c "kept (recorded from the plan on $(hostname))" "$TMP/err")" = 4 ] ||
	fail "the plan's profiles: $(cat "$TMP/err")"
same_as_one par "GNU parallel"
diff -u table-one "$TMP/out" || fail "the plan run by GNU parallel gave another table"
# a line checks the image by content: another file at its path is refused
cp "$img" img && sed "s|$img|$TMP/img|g" par/plan >par/plan2 &&
	printf 'x' >>img && rm -f par/size40.json || fail "cannot make the changed plan"
sh -c "$(head -1 par/plan2)" 2>line.err && fail "a line ran on another kernel image"
grep -q "another perpkt or kernel image than the plan's" line.err || fail "image check: $(cat line.err)"
# a profile in the folder the plan did not make (other options) is refused
"$PERPKT" record -q --kernel "$img" --exact -d 0.2 -w 0.1 --size 40 --gap 1us \
	-o par/size40.json 2>/dev/null || fail "cannot record the odd cell"
expect_exit 1 "$PERPKT" sweep -o par "${args[@]}"
grep -q "cell size40: .*its command line is not the plan's; remove it to record it again" "$TMP/err" ||
	fail "odd profile kept: $(cat "$TMP/err")"
grep -q "1 of 4 cells have a profile the plan did not make" "$TMP/err" || fail "summary: $(cat "$TMP/err")"

# a single-node Slurm of this test's own runs the array
slurm_skip=
for b in munged slurmctld slurmd sbatch sinfo; do
	command -v $b >/dev/null || slurm_skip="no $b (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || slurm_skip="a Slurm of its own needs root"
if [ -z "$slurm_skip" ]; then
	pids=()
	stop_slurm() {
		[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null
		munged --socket="$TMP/munge.sock" --stop >/dev/null 2>&1
		wait 2>/dev/null
	}
	trap 'stop_slurm; rm -rf "$TMP"' EXIT
	dd if=/dev/urandom of=munge.key bs=1024 count=1 2>/dev/null && chmod 400 munge.key
	mkdir -p state spool
	munged --socket="$TMP/munge.sock" --key-file="$TMP/munge.key" --pid-file="$TMP/munged.pid" \
		--log-file="$TMP/munged.log" --seed-file="$TMP/munged.seed" --force ||
		slurm_skip="munged did not start: $(tail -2 munged.log 2>/dev/null)"
fi
if [ -z "$slurm_skip" ]; then
	# two free ports in a range of their own
	port=$((20000 + RANDOM % 20000))
	while ss -ltn | grep -qE ":($port|$((port + 1))) "; do port=$((port + 2)); done
	node=$(hostname -s)
	cat >slurm.conf <<CONF
ClusterName=perpkt-test
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$TMP/munge.sock
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=perpkt Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
	export SLURM_CONF=$TMP/slurm.conf
	slurmctld -D -i -f "$SLURM_CONF" >ctld.out 2>&1 & pids+=($!)
	slurmd -D -f "$SLURM_CONF" -N "$node" >slurmd.out 2>&1 & pids+=($!)
	# ready when the node is idle (a bound only a hang reaches)
	end=$((SECONDS + 120))
	until [ "$(sinfo -h -N -o %T 2>/dev/null)" = idle ]; do
		for p in "${pids[@]}"; do
			alive "$p" || { slurm_skip="Slurm did not start: $(tail -2 ctld.out slurmd.out slurmctld.log slurmd.log 2>/dev/null | tr '\n' ' ')"; break 2; }
		done
		[ $SECONDS -lt $end ] || { slurm_skip="the Slurm node was not idle in 120 s: $(sinfo -N 2>&1 | tail -1)"; break; }
		sleep 0.2
	done
fi
if [ -n "$slurm_skip" ]; then
	echo "the Slurm part skipped: $slurm_skip" >&2
	skip "Slurm: $slurm_skip (--jobs 2 and GNU parallel passed)"
fi
expect_exit 0 "$PERPKT" sweep -o slurm --plan slurm "${args[@]}"
grep -q "^#SBATCH --array=1-4$" slurm/plan.sbatch || fail "sbatch array: $(cat slurm/plan.sbatch)"
grep -q "^#SBATCH --cpus-per-task=1$" slurm/plan.sbatch || fail "exact cells take one CPU a task: $(cat slurm/plan.sbatch)"
EXPECT_TIMEOUT=900 expect_exit 0 sbatch --wait slurm/plan.sbatch
[ "$(ls slurm/slurm-*.out | wc -l)" = 4 ] || fail "array tasks: $(ls slurm)"
expect_exit 0 "$PERPKT" sweep -o slurm "${args[@]}"
[ "$(grep -c "kept (recorded from the plan on $(hostname))" "$TMP/err")" = 4 ] ||
	fail "the array's profiles: $(cat "$TMP/err")"
same_as_one slurm "a Slurm job array"
diff -u table-one "$TMP/out" || fail "the Slurm array gave another table"
echo "the same four exact cells by --jobs 1, --jobs 2, GNU parallel and a Slurm job array"
