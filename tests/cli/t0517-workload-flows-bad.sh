# SPDX-License-Identifier: GPL-2.0-only
# --flows: bad input is refused with a reason before anything runs (no
# profile written, no child started), by record, stat and sweep alike.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"

refused() {
	local code=$1 msg=$2; shift 2
	expect_exit "$code" "$PERPKT" "$@" -o "$TMP/bad.json"
	grep -qF -- "$msg" "$TMP/err" || fail "'$*': $(cat "$TMP/err")"
	[ ! -e "$TMP/bad.json" ] || fail "'$*' wrote a profile"
}
refused 64 "invalid --flows '0': must be between 1 and 64" record --flows 0
refused 64 "invalid --flows '65': must be between 1 and 64" record --flows 65
refused 64 "invalid --flows 'two'" record --flows two
refused 2 "--burst needs a transport that pipelines requests (udp or tcp), not 'pipe'" \
	record --flows 2 --burst 2 --transport pipe
refused 2 "--flows and -n exclude each other" record --flows 2 -n 100
cpus=$(nproc)
refused 2 "flow 1's CPU $cpus is not online" record --flows 2 --client-cpu 0,$cpus
refused 2 "flow 1's CPU $cpus is not online" record --flows 2 --server-cpu 0,$cpus
refused 64 "invalid CPU list '0-x'" record --flows 2 --client-cpu 0-x
# a command of one's own brings its own traffic
expect_exit 64 "$PERPKT" record --flows 2 --per udp-datagrams -o "$TMP/bad.json" -- true
grep -q "flows" "$TMP/err" || fail "-- CMD: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" stat --flows 0
grep -qF "invalid --flows '0'" "$TMP/err" || fail "stat: $(cat "$TMP/err")"
echo ok
