# SPDX-License-Identifier: GPL-2.0-only
# diff across modes, transports and sizes: refusals and warnings.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
command -v jq >/dev/null || skip "needs jq"

# software-clock ns against hardware cycles: refused, both named
expect_exit 2 "$PERPKT" diff "$P/diff-a.json" "$P/hw-mux.json"
grep -q "cannot subtract software-clock nanoseconds of '.*diff-a.json' from hardware cycles of '.*hw-mux.json': give --convert-cycles-ghz" "$TMP/err" ||
	fail "mode refusal: $(cat "$TMP/err")"
expect_exit 0 "$PERPKT" diff --convert-cycles-ghz 2 "$P/diff-a.json" "$P/hw-mux.json"
grep -q "^warning: cycles converted to ns at 2 GHz" "$TMP/out" || fail "conversion not said"
expect_exit 64 "$PERPKT" diff --convert-cycles-ghz fast "$P/diff-a.json" "$P/hw-mux.json"

# different transport and size: a warning at the top (after what differs)
jq '.workload.transport = "tcp" | .workload.message_size = 1400' "$P/diff-b.json" >"$TMP/tcp.json"
expect_exit 0 "$PERPKT" diff "$P/diff-a.json" "$TMP/tcp.json"
head -8 "$TMP/out" | grep -q "^warning: transports differ: udp in" || fail "no transport warning"
head -8 "$TMP/out" | grep -q "^warning: message sizes differ: 40 bytes" || fail "no size warning"
awk 'length > 72 { exit 1 }' "$TMP/out" || fail "warning wider than 72 columns"

# zero round trips: refused with the file named
expect_exit 2 "$PERPKT" diff "$P/zero-rt.json" "$P/hw-mux.json"
grep -q "profile '.*zero-rt.json' has no round trips" "$TMP/err" || fail "zero-rt"
# JSON: errors on stderr, stdout empty, never half a document
expect_exit 2 "$PERPKT" diff --format json "$P/diff-a.json" "$P/hw-mux.json"
[ ! -s "$TMP/out" ] || fail "stdout not empty on error"
expect_exit 64 "$PERPKT" diff --format folded "$P/rep-a.json" "$P/rep-noise.json" "$P/rep-shift.json"
expect_exit 64 "$PERPKT" diff --by cpu "$P/diff-a.json" "$P/diff-b.json"
echo ok
