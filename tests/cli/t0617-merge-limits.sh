# SPDX-License-Identifier: GPL-2.0-only
# merge writes only what report reads back: a count the reader takes
# (at most 2^63 - 1, PROFILE_INT_MAX) summed past that is refused with
# the field named, and no file is left, rather than written for the
# reader to refuse ("must be a non-negative integer"). Three such counts
# (past 2^64, where a sum would wrap to a small number) the same.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
gzip -dc "$SRCDIR/tests/fixtures/profiles/pvm-demo.json.gz" >"$TMP/p.json" ||
	fail "cannot unpack the fixture"
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["counters"]["events"][0]["count"] = 2**63 - 1
json.dump(p, open(sys.argv[2], "w"))' "$TMP/p.json" "$TMP/big.json"

# both read, and the two plain ones merge into one report reads
expect_exit 0 "$PERPKT" report -i "$TMP/big.json"
expect_exit 0 "$PERPKT" merge -q -o "$TMP/pp.json" "$TMP/p.json" "$TMP/p.json"
expect_exit 0 "$PERPKT" report -i "$TMP/pp.json"

expect_exit 2 "$PERPKT" merge -o "$TMP/m.json" "$TMP/big.json" "$TMP/p.json"
grep -q "cannot write profile '.*m.json': field 'counters.events\[0\].count' is 9223372042858656520, more than a profile holds (at most 9223372036854775807)" "$TMP/err" ||
	fail "no reason naming the field: $(cat "$TMP/err")"
[ ! -e "$TMP/m.json" ] || fail "merge left a file report refuses"
ls "$TMP" | grep -q '^\.\?m\.json\.' && fail "a temporary file left: $(ls -a "$TMP")"

expect_exit 2 "$PERPKT" merge -o "$TMP/m3.json" "$TMP/big.json" "$TMP/big.json" "$TMP/big.json"
grep -q "field 'counters.events\[0\].count' is 18446744073709551615, more than" "$TMP/err" ||
	fail "a sum past 2^64 not refused: $(cat "$TMP/err")"
[ ! -e "$TMP/m3.json" ] || fail "merge left a file of three"
echo ok
