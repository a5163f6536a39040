# SPDX-License-Identifier: GPL-2.0-only
# A diff of a quiet profile and one recorded while another job (dd from
# /dev/zero, on the workload's CPU) loads the machine: by default the
# rows are the workload's, so none of dd's functions is a row, let
# alone a marked one, and the other tasks' time is one unmarked
# [other tasks] row; --all-tasks shows dd's functions again.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
command -v taskset >/dev/null || skip "no taskset (util-linux)"

rec() {
	expect_exit 0 "$PERPKT" record -q -d 1 -w 0.3 --client-cpu 0 \
		--server-cpu 0 -C 0 -o "$1"
}
rec "$TMP/quiet.json"
taskset -c 0 dd if=/dev/zero of=/dev/null bs=64k 2>/dev/null &
dd_pid=$!
trap 'kill $dd_pid 2>/dev/null; wait $dd_pid 2>/dev/null; rm -rf "$TMP"' EXIT
rec "$TMP/loaded.json"
kill $dd_pid
wait $dd_pid 2>/dev/null

DD_FUNCS='^(read_zero|read_iter_zero|iov_iter_zero|vfs_read|ksys_read)$'
expect_exit 0 "$PERPKT" diff "$TMP/quiet.json" "$TMP/loaded.json" --limit 0 --format json
cp "$TMP/out" "$TMP/d.json"
jq -e --arg re "$DD_FUNCS" '[.functions[] | select(.name | test($re))] | length == 0' "$TMP/d.json" >/dev/null ||
	fail "dd's functions are rows by default: $(jq -c --arg re "$DD_FUNCS" '[.functions[] | select(.name | test($re)) | {name, mark}]' "$TMP/d.json")"
jq -e '[.functions[] | select(.name == "[other tasks]")] | length == 1 and all(.mark[1] == "")' "$TMP/d.json" >/dev/null ||
	fail "no unmarked [other tasks] row: $(jq -c '[.functions[] | select(.name == "[other tasks]")]' "$TMP/d.json")"
jq -e '[.functions[] | select(.name == "[other tasks]") | .per_rt[1]] | .[0] > 0' "$TMP/d.json" >/dev/null ||
	fail "dd's time is not in the other tasks' row"

expect_exit 0 "$PERPKT" diff "$TMP/quiet.json" "$TMP/loaded.json" --limit 0 --all-tasks --format json
jq -e --arg re "$DD_FUNCS" '[.functions[] | select(.name | test($re))] | length > 0' "$TMP/out" >/dev/null ||
	fail "--all-tasks does not show dd's functions: $(jq -c '[.functions[:10][].name]' "$TMP/out")"
jq -e '[.functions[] | select(.name == "[other tasks]")] | length == 0' "$TMP/out" >/dev/null ||
	fail "--all-tasks still has an [other tasks] row"
echo "ok"
