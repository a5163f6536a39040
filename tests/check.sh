#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# check.sh NAME BUILDDIR [CTEST-ARGS...]: run ctest in BUILDDIR, then say
# what was skipped and why (ctest keeps a skipped test's stderr to
# itself), the slowest tests and the total (tests/summary.py, from
# ctest's JUnit file). Fails when a test failed, or when a test that
# $PERPKT_REQUIRE names skipped: space-separated regular expressions
# on test names, `label:NAME` for every test with that ctest label.
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
end=$(date +%s)
python3 "$here/summary.py" --name "$name" --junit "$junit" --wall $((end - start)) \
	--require "${PERPKT_REQUIRE:-}" || { [ "$rc" = 0 ] && rc=1; }
exit "$rc"
