#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# run.sh TARGET SECONDS: build the libFuzzer tree (clang, ASan+UBSan) in
# $BUILDDIR/fuzz and run fuzz-TARGET for SECONDS on its seed corpus.
# Exit 77 (skipped) when clang cannot build a libFuzzer program.
# New inputs go to $FUZZ_CORPUS (default: a temporary directory); a crash
# is kept under $BUILDDIR/fuzz/crashes and fails the run.
set -u
t=$1 secs=$2
: "${SRCDIR:?run through ctest or make fuzz}" "${BUILDDIR:?}"
FB=$BUILDDIR/fuzz
mkdir -p "$FB/crashes"
probe=$FB/probe
if [ ! -x "$probe" ]; then
	echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"$probe.c"
	clang -fsanitize=fuzzer,address,undefined "$probe.c" -o "$probe" 2>"$probe.err" || {
		echo "SKIP: clang cannot build libFuzzer programs: apt-get install clang libclang-rt-14-dev" >&2
		exit 77
	}
fi
if [ ! -f "$FB/CMakeCache.txt" ]; then
	CC=clang cmake -S "$SRCDIR" -B "$FB" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DPERPKT_FUZZ=ON -DBUILD_TESTING=OFF >"$FB/configure.log" 2>&1 ||
		{ cat "$FB/configure.log" >&2; exit 1; }
fi
cmake --build "$FB" -j "${JOBS:-2}" --target "fuzz-$t" >"$FB/build-$t.log" 2>&1 ||
	{ tail -30 "$FB/build-$t.log" >&2; exit 1; }
work=${FUZZ_CORPUS:-$(mktemp -d "${TMPDIR:-/tmp}/perpkt-fuzz.XXXXXX")}
mkdir -p "$work"
[ -n "${FUZZ_CORPUS:-}" ] || trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$FB/tests/fuzz/fuzz-$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-max_len=65536 -print_final_stats=1 -artifact_prefix="$FB/crashes/$t-" \
	"$work" "$SRCDIR/tests/fuzz/corpus/$t" >"$FB/run-$t.log" 2>&1
rc=$?
grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|#[0-9]+ +DONE)" "$FB/run-$t.log"
if [ $rc != 0 ]; then
	tail -40 "$FB/run-$t.log" >&2
	echo "FAIL: fuzz-$t found a crash: $(ls "$FB/crashes/$t-"* 2>/dev/null); add it to tests/fuzz/corpus/$t once fixed" >&2
	exit 1
fi
echo "ok: fuzz-$t ran $secs s without a crash"
