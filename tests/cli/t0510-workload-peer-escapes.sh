# SPDX-License-Identifier: GPL-2.0-only
# A server that holds no key can still answer record --peer's hello with
# an error line: what it says is someone else's text, and reaches the
# terminal through the one escaping rule (src/escape.h), never as raw
# escape sequences.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

# a fake perpkt serve on a port of its own: one hello, one hostile error
python3 - "$TMP/port" <<'PY' &
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(1)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
s.settimeout(60)
c, _ = s.accept()
c.makefile("rb").readline()
c.sendall(b"error \x1b]0;owned\x07\x1b[2J\xc2\x9b31mgone\x7f\n")
c.close()
PY
FAKE=$!
wait_file "$TMP/port" $FAKE
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMP/key"
chmod 600 "$TMP/key"
expect_exit 2 "$PERPKT" record -q -n 10 --peer "127.0.0.1:$(cat "$TMP/port")" \
	--peer-key "$TMP/key" -o "$TMP/x.json"
wait $FAKE
grep -q "refused: .*owned.*gone" "$TMP/err" || fail "the server's error is not said: $(cat "$TMP/err")"
if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$TMP/err" ||
	LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$TMP/err"; then
	fail "the server's escapes reach the terminal: $(od -c "$TMP/err" | head -5)"
fi
[ ! -e "$TMP/x.json" ] || fail "a profile written after the peer refused"
echo ok
