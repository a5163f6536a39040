#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# check.sh NAME BUILDDIR [CTEST-ARGS...]: run ctest in BUILDDIR, then say
# what was skipped and why (ctest keeps a skipped test's stderr to
# itself), the slowest tests and the total (tests/summary.py, from
# ctest's JUnit file). Fails when a test failed, or when a test that
# $PERPKT_REQUIRE names skipped: space-separated regular expressions
# on test names, `label:NAME` for every test with that ctest label.
# With PERPKT_RERUN_FAILED=1 (.ci/run sets it) a failed test runs once
# more: one that passes then is named as flaky in the summary, not
# hidden, and does not fail the check (this VM has been seen to stop
# for tens of seconds, which no test's bound can absorb).
set -u
name=${1:?usage: check.sh NAME BUILDDIR [CTEST-ARGS...]}
build=${2:?usage: check.sh NAME BUILDDIR [CTEST-ARGS...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
cd "$build" || exit 2
junit=$PWD/check-$name.xml
rm -f "$junit"
start=$(date +%s)
rc=0
ctest --output-on-failure --no-tests=ignore --output-junit "$junit" "$@" || rc=$?
rerun=()
if [ "$rc" != 0 ] && [ "${PERPKT_RERUN_FAILED:-0}" = 1 ] && [ -s Testing/Temporary/LastTestsFailed.log ]; then
	echo "== $name: the failed tests once more (PERPKT_RERUN_FAILED=1)"
	rm -f "$junit.rerun"
	rc=0
	ctest --output-on-failure --no-tests=ignore --output-junit "$junit.rerun" \
		--rerun-failed -j 1 || rc=$?
	rerun=(--rerun-junit "$junit.rerun")
fi
end=$(date +%s)
python3 "$here/summary.py" --name "$name" --junit "$junit" "${rerun[@]}" --wall $((end - start)) \
	--require "${PERPKT_REQUIRE:-}" || { [ "$rc" = 0 ] && rc=1; }
exit "$rc"
