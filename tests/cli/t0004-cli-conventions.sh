# SPDX-License-Identifier: GPL-2.0-only
# perf's conventions where perpkt shares a letter, and the messages a new
# user hit: -q/-v on every command, -q silencing warnings too, -o - and
# -i -, report --stdio, stat naming the record-only option, and the
# start-up lines (no "perpkt on CPU -1", the whole span of --repeat).
# ctest-lock: none
. "$(dirname "$0")/lib.sh"

for c in record stat report diff table sweep resolve serve; do
	"$PERPKT" "$c" --help >"$TMP/h" || fail "'$c --help' failed"
	grep -q -- '-q, --quiet' "$TMP/h" && grep -q -- '-v, --verbose' "$TMP/h" ||
		fail "'perpkt $c --help' lacks -q/-v"
	expect_exit 0 "$PERPKT" "$c" -q -v --help
done

expect_exit 64 "$PERPKT" stat -c 1000
grep -q "'--period' is for perpkt record" "$TMP/err" ||
	fail "stat -c names the value, not the option: $(head -1 "$TMP/err")"
expect_exit 64 "$PERPKT" stat --ring-pages 8
grep -q "'--ring-pages' is for perpkt record" "$TMP/err" || fail "$(head -1 "$TMP/err")"

"$PERPKT" report -i "$FIXTURES/profiles/sw-clock.json" >"$TMP/text" 2>/dev/null
"$PERPKT" report --stdio -i "$FIXTURES/profiles/sw-clock.json" >"$TMP/stdio" 2>/dev/null ||
	fail "report --stdio refused"
cmp -s "$TMP/text" "$TMP/stdio" || fail "report --stdio differs from the text report"
[ -s "$TMP/text" ] || fail "empty text report"

need_perf
# -q: nothing at all on stderr, not even the no-PMU warnings
cd "$TMP"
"$PERPKT" record -q -d 0.3 -w 0.1 -o - >"$TMP/p.json" 2>"$TMP/err" ||
	fail "record -o - failed: $(cat "$TMP/err")"
[ ! -s "$TMP/err" ] || fail "record -q printed: $(cat "$TMP/err")"
jq -e '.round_trips > 0 or .workload.round_trips > 0' "$TMP/p.json" >/dev/null ||
	fail "record -o - wrote no profile to stdout"
[ ! -e "$TMP/perpkt.json" ] && [ ! -e "$TMP/-" ] || fail "-o - wrote a file"
"$PERPKT" report -q -i - <"$TMP/p.json" >"$TMP/r" 2>"$TMP/err" || fail "report -i - failed"
[ ! -s "$TMP/err" ] || fail "report -q printed: $(cat "$TMP/err")"
grep -q "round trips" "$TMP/r" || fail "report -i - printed no report"

# without -q: the start-up lines name what runs, correctly
"$PERPKT" record -d 0.2 -w 0.1 -r 3 --client-cpu 0 --server-cpu 1 \
	-o "$TMP/x.json" 2>"$TMP/err" || fail "record failed: $(cat "$TMP/err")"
! grep -q "CPU -1" "$TMP/err" || fail "'CPU -1' printed: $(grep 'CPU -1' "$TMP/err")"
grep -q "perpkt not pinned" "$TMP/err" || fail "no word that perpkt is unpinned: $(cat "$TMP/err")"
grep -q "for 3 windows of 0.2 s (0.6 s)" "$TMP/err" ||
	fail "--repeat 3 span not stated: $(grep sampling "$TMP/err")"
grep -q "warning:" "$TMP/err" || [ -e /sys/bus/event_source/devices/cpu ] ||
	fail "without -q the no-PMU warning is gone too"
echo "ok"
