# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tests/cli/t*.sh. ctest sets PERPKT, SRCDIR, BUILDDIR, FIXTURES.
set -u
: "${PERPKT:?run through ctest, or set PERPKT to the perpkt binary}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/perpkt-cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

# expect_exit CODE CMD...: run, keep stdout/stderr in $TMP/out, $TMP/err
expect_exit() {
	local want=$1; shift
	local got=0
	"$@" >"$TMP/out" 2>"$TMP/err" || got=$?
	[ "$got" = "$want" ] || { cat "$TMP/err" >&2; fail "'$*' exited $got, expected $want"; }
}

need_perf() {
	[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] ||
		skip "needs root or kernel.perf_event_paranoid <= 0"
}
