# SPDX-License-Identifier: GPL-2.0-only
# record -n N for small N: the client may finish its N round trips before
# perpkt polls the window open; the run must still succeed with exactly N.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

for n in 1 20 50; do
	# the old failure waited 5 s for a window that had closed and exited
	# 2: the exit code and the count tell it, not the time (a busy
	# machine took 21 s)
	expect_exit 0 "$PERPKT" record -q -w 0.1 -n $n -o "$TMP/n$n.json"
	got=$(jq '.workload.round_trips' "$TMP/n$n.json")
	[ "$got" = "$n" ] || fail "-n $n recorded $got round trips"
done
echo "ok: -n 1, 20, 50"
