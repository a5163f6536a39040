# SPDX-License-Identifier: GPL-2.0-only
# sweep checks every CPU list against the machine before the first
# cell (a CPU that is not online is a usage error with nothing
# recorded), and a cell whose record fails, here killed by a signal, is
# noted as failed while the sweep goes on: the table of the others,
# then a summary naming the failed cell, exit 1; the next sweep tries
# that cell again and keeps the others.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
cleanup() {
	[ -n "${SWEEP:-}" ] && kill "$SWEEP" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# CPUs that are not there: refused before anything is recorded
for args in "--client-cpu 0,99" "--server-cpu 1,77" "--cpu-pairs 0:0,1:88"; do
	# shellcheck disable=SC2086
	expect_exit 64 "$PERPKT" sweep -o "$TMP/cpus" -d 0.2 $args
	[ ! -e "$TMP/cpus" ] || fail "'$args': recorded cells before the bad CPU: $(ls "$TMP/cpus")"
	bad=${args##*[,:]}
	grep -q "CPU $bad is not online" "$TMP/err" || fail "'$args': no word of CPU $bad: $(cat "$TMP/err")"
done

# the middle cell's record is killed: the sweep goes on
"$PERPKT" sweep -o "$TMP/sw" -d 0.3 --size 40,41,42 --format csv >"$TMP/sw.out" 2>"$TMP/sw.err" &
SWEEP=$!
victim=""
end=$((SECONDS + 240))	# a hang, not a busy machine, takes this long
while alive $SWEEP && [ $SECONDS -lt $end ]; do
	victim=$(ps -o pid=,args= --ppid $SWEEP | awk '/ record .*--size 41/ { print $1 }')
	[ -n "$victim" ] && break
	sleep 0.05
done
[ -n "$victim" ] || fail "the cell of size 41 never started: $(cat "$TMP/sw.err")"
kill -KILL "$victim"
rc=0; wait $SWEEP || rc=$?; SWEEP=
[ $rc = 1 ] || { cat "$TMP/sw.err" >&2; fail "sweep with a killed cell: exit $rc, expected 1"; }
[ -s "$TMP/sw/size40.json" ] && [ -s "$TMP/sw/size42.json" ] ||
	fail "the other cells were not recorded: $(ls "$TMP/sw")"
[ ! -e "$TMP/sw/size41.json" ] || fail "the killed cell has a profile"
grep -q "killed by signal 9" "$TMP/sw/size41.failed" || fail "failure not noted: $(ls "$TMP/sw")"
grep -q "^perpkt: 1 of 3 cells failed" "$TMP/sw.err" && grep -q "size41: record was killed by signal 9" "$TMP/sw.err" ||
	fail "no summary: $(tail -5 "$TMP/sw.err")"
grep -q "size40" "$TMP/sw.out" && grep -q "size42" "$TMP/sw.out" ||
	fail "the table lacks the recorded cells: $(cat "$TMP/sw.out")"
grep -q "size41" "$TMP/sw.out" && fail "the table has the failed cell: $(cat "$TMP/sw.out")"

# the next sweep records the failed cell only
expect_exit 0 "$PERPKT" sweep -o "$TMP/sw" -d 0.3 --size 40,41,42 --format csv
grep -c "kept (already recorded)" "$TMP/err" | grep -qx 2 || fail "resume: $(cat "$TMP/err")"
[ -s "$TMP/sw/size41.json" ] && [ ! -e "$TMP/sw/size41.failed" ] || fail "the failed cell was not redone: $(ls "$TMP/sw")"
echo "ok: CPU lists checked first; a killed cell noted, the sweep went on"
