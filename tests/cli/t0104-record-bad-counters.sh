# SPDX-License-Identifier: GPL-2.0-only
# Counter options that cannot work get one line naming the thing and the
# remedy, and nothing is written.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

expect_exit 2 "$PERPKT" record -q -e cpu-clock -c 5000 -o "$TMP/x.json"
grep -q "below the kernel's minimum for cpu-clock" "$TMP/err" || fail "short period: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record -q -c 100000 -F 1000 -o "$TMP/x.json"
grep -q "choose a period or a frequency" "$TMP/err" || fail "-c with -F: $(cat "$TMP/err")"
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
expect_exit 2 "$PERPKT" record -q -F $((max + 1)) -o "$TMP/x.json"
grep -q "perf_event_max_sample_rate" "$TMP/err" || fail "-F above max: $(cat "$TMP/err")"
expect_exit 2 "$PERPKT" record -q -C 0,1000 -o "$TMP/x.json"
expect_exit 64 "$PERPKT" record -q -C 0-x -o "$TMP/x.json"
[ ! -e "$TMP/x.json" ] || fail "a profile was written by a failed record"
echo ok
