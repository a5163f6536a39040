# SPDX-License-Identifier: GPL-2.0-only
# Every exit code the man page's EXIT STATUS lists, triggered here, and
# no code triggered that it does not list.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
MAN=$SRCDIR/docs/perpkt.1
P=$SRCDIR/tests/fixtures/profiles
A=$P/diff-a.json B=$P/diff-b.json

documented=$(awk '/^\.SH EXIT STATUS/ { on = 1; next } on && /^\.SH/ { exit }
	on && /^\.B [0-9]+$/ { print $2 } on && /^errors exit 128/ { print 130; print 192 }' "$MAN" | sort -un)
[ -n "$documented" ] || fail "no EXIT STATUS codes in the man page"
seen=""
got() { expect_exit "$@"; seen="$seen $1"; }

got 0 "$PERPKT" report -i "$A"
got 2 "$PERPKT" report -i "$TMP/none.json"
got 64 "$PERPKT" report --no-such-option
got 64 "$PERPKT" sweep -o "$TMP/sw" --size 40,a
got 1 "$PERPKT" diff "$A" "$B" --fail-if 'total > +200'
got 130 "$PERPKT" diff "$A" "$TMP/none.json" --fail-if 'total > 0'
got 130 "$PERPKT" diff "$A" "$B" --fail-if 'function:no_such_function > 0'
got 192 "$PERPKT" diff "$A" "$B" --fail-if 'nonsense'
got 2 "$PERPKT" record -q -d 5 -o /nonexistent-dir/x.json
# 1 from record itself: SIGINT in the window, where sampling can run
if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ]; then
	# with no warm-up a command is let go once the window is open
	spawn "$TMP/err" "$PERPKT" record -q -d 60 -w 0 --per count:1 -o "$TMP/int.json" \
		-- sh -c ": >'$TMP/ready'; exec sleep 120"
	pid=$SPAWNED
	wait_file "$TMP/ready" $pid
	kill -INT $pid
	code=0
	wait $pid || code=$?
	[ $code = 1 ] || fail "record interrupted in its window: exit $code"
fi
for c in $documented; do
	case " $seen " in *" $c "*) ;; *) fail "exit code $c is documented but no test triggers it" ;; esac
done
for c in $seen; do
	echo "$documented" | grep -qx "$c" || fail "exit code $c happens but is not in EXIT STATUS"
done
echo "ok: $(echo $documented)"
