# SPDX-License-Identifier: GPL-2.0-only
# sweep checks the whole matrix before it records anything: a bad value
# in any list, or a bad --value, is a usage error (64) with nothing run.
. "$(dirname "$0")/lib.sh"

for args in "--size 40,a" "--size 40 --transport udp,carrier-pigeon" \
	    "--gap 0,soon" "--size 40 --value bogus"; do
	start=$SECONDS
	# shellcheck disable=SC2086
	expect_exit 64 "$PERPKT" sweep -o "$TMP/sw" -d 30 $args
	# before the first 30 s cell, however busy the machine
	[ $((SECONDS - start)) -le 20 ] || fail "'$args': refused only after recording"
	[ ! -e "$TMP/sw" ] || fail "'$args': made $TMP/sw: $(ls "$TMP/sw")"
	grep -q "^usage:" "$TMP/err" && fail "'$args': printed record's usage: $(head -3 "$TMP/err")"
	[ -s "$TMP/err" ] || fail "'$args': no message"
done
grep -q "unknown --value 'bogus'" "$TMP/err" || fail "no reason for --value: $(cat "$TMP/err")"

# a list's messages name sweep's own option, not the cell-name word
expect_exit 64 "$PERPKT" sweep -o "$TMP/sw" --transport udp --transport tcp
grep -q "^perpkt: --transport given twice" "$TMP/err" || fail "twice: $(head -1 "$TMP/err")"
expect_exit 64 "$PERPKT" sweep -o "$TMP/sw" --placements ,
grep -q "^perpkt: empty list for --placements" "$TMP/err" || fail "empty: $(head -1 "$TMP/err")"
expect_exit 64 "$PERPKT" sweep -o "$TMP/sw" --size "$(seq -s, 1 33)"
grep -q "^perpkt: too many values for --size: at most 32" "$TMP/err" || fail "too many: $(head -1 "$TMP/err")"
[ ! -e "$TMP/sw" ] || fail "a refused sweep made $TMP/sw"
echo ok
