# SPDX-License-Identifier: GPL-2.0-only
# perpkt serve refuses a key anyone can guess (all zeros) and a key file
# another user owns (that user could rewrite it), root's serve too,
# before it listens; its own key of 32 random bytes it serves with.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
make_test_user
trap 'drop_test_user; rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
# (a wrong key must fail at once: a serve that listens instead is
# stopped after 20 s and fails the test)
export EXPECT_TIMEOUT=20
port=$((20000 + $$ % 20000))

printf '%064d\n' 0 >"$TMP/zero.key" && chmod 600 "$TMP/zero.key"
expect_exit 2 "$PERPKT" serve -b 127.0.0.1 -p $port --key "$TMP/zero.key"
grep -q "'$TMP/zero.key' holds the key of all zeros, which anyone can guess" "$TMP/err" ||
	fail "the zero key: $(cat "$TMP/err")"
grep -q "listening" "$TMP/err" && fail "serve listened with the zero key"

mkdir -m 711 "$TMP/u" && chown "$TEST_USER" "$TMP/u"
as_test_user sh -c "umask 077; openssl rand -hex 32 >'$TMP/u/user.key' 2>/dev/null ||
	od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >'$TMP/u/user.key'" || fail "cannot make the user's key"
expect_exit 2 "$PERPKT" serve -b 127.0.0.1 -p $port --key "$TMP/u/user.key"
grep -q "the key '$TMP/u/user.key' must be a file of this user's" "$TMP/err" ||
	fail "another user's key file: $(cat "$TMP/err")"

# no key yet: serve makes one of root's own and listens (stopped once
# it says so)
"$PERPKT" serve -b 127.0.0.1 -p $port --key "$TMP/root.key" 2>"$TMP/serve.err" &
S=$!
wait_line "$TMP/serve.err" "serve: listening on 127.0.0.1:$port" $S
kill -TERM $S; wait $S 2>/dev/null
[ "$(wc -c <"$TMP/root.key")" = 65 ] || fail "serve's new key: $(wc -c <"$TMP/root.key") bytes"
echo "ok: zero key and another user's key file refused; a new key served"
