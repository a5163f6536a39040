# SPDX-License-Identifier: GPL-2.0-only
# Every report format on the committed fixture profiles, compared with
# tests/golden/ by diff -u. The fixtures carry fixed timestamps, so the
# output is reproducible. After an intended change, regenerate with
#   UPDATE_GOLDEN=1 PERPKT=build/perpkt SRCDIR=. bash tests/cli/t0601-report-golden.sh
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
G=$SRCDIR/tests/golden

check() {
	local golden=$1; shift
	expect_exit 0 "$PERPKT" report "$@"
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$TMP/out" "$G/$golden"
		return
	fi
	diff -u "$G/$golden" "$TMP/out" || fail "report $* differs from $golden"
}

check sw-clock.txt -i "$P/sw-clock.json"
check sw-clock-by-role.txt -i "$P/sw-clock.json" --by role --width 80
check sw-clock-by-cpu.txt -i "$P/sw-clock.json" --by cpu --all-conditions
check sw-clock-full.txt -i "$P/sw-clock.json" --full
check sw-clock-callers.txt -i "$P/sw-clock.json" --callers udp_sendmsg --limit 5
check sw-clock.md -i "$P/sw-clock.json" --format markdown
check sw-clock.json -i "$P/sw-clock.json" --format json
check sw-clock.csv -i "$P/sw-clock.json" --format csv
check sw-clock.folded -i "$P/sw-clock.json" --format folded
grep -q "folded weights are ns per round trip x 1000" "$TMP/err" ||
	fail "folded scale not stated: $(cat "$TMP/err")"
check sw-clock.html -i "$P/sw-clock.json" --format html
# with repeats (record -r 4): the error column is the sd across the
# windows in every format, as docs/report.md says, not the sampling error
check rep-a.md -i "$P/rep-a.json" --format markdown
check hw-mux.txt -i "$P/hw-mux.json"
check hw-mux.json -i "$P/hw-mux.json" --format json
check hw-mux.folded -i "$P/hw-mux.json" --format folded
grep -q "no callchains" "$TMP/err" || fail "folded without stacks not said"
check zero-rt.txt -i "$P/zero-rt.json"
echo ok
