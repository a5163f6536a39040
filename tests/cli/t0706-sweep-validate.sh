# SPDX-License-Identifier: GPL-2.0-only
# sweep checks the whole matrix before it records anything: a bad value
# in any list, or a bad --value, is a usage error (64) with nothing run.
# ctest-lock: none
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

# after --: options every record takes, none that sweep sets itself or
# sweeps, and what record refuses among them refused before any cell
expect_exit 64 "$PERPKT" sweep -o "$TMP/sw" --size 40 -- -d 3
grep -q "^perpkt: '-d' after --: sweep gives each record its -d itself" "$TMP/err" || fail "-- -d: $(head -1 "$TMP/err")"
expect_exit 64 "$PERPKT" sweep -o "$TMP/sw" --rps-cpus 0,1 -- --rps-cpus=2
grep -q "^perpkt: '--rps-cpus=2' after --: sweep gives each record its --rps-cpus from --rps-cpus" "$TMP/err" ||
	fail "-- --rps-cpus: $(head -1 "$TMP/err")"
expect_exit 64 "$PERPKT" sweep -o "$TMP/sw" --size 40 -- --guest-cpus 3
grep -q "go with --kernel" "$TMP/err" || fail "-- --guest-cpus: $(cat "$TMP/err")"
# a guest's CPUs are checked against the guest, not this host
expect_exit 64 "$PERPKT" sweep -o "$TMP/sw" --irq-cpu 1,3 -- --kernel /nonexistent --net nic --guest-cpus 3
grep -q "cell irq3: record refuses these settings" "$TMP/err" || fail "--irq-cpu 3 of 3: $(cat "$TMP/err")"
grep -q "the guest has CPUs 0 to 2" "$TMP/err" || fail "--irq-cpu 3 of 3: $(cat "$TMP/err")"
[ ! -e "$TMP/sw" ] || fail "a refused sweep made $TMP/sw"
echo ok
