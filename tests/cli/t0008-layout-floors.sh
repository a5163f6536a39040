# SPDX-License-Identifier: GPL-2.0-only
# The layout's floors (docs/HACKING.md, "The map"): a folder of src/
# includes only headers of the folders below it, so nothing runs back
# up a floor: the recording pipeline never reaches into a command, the
# profile and system readers never into the pipeline.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
cd "$SRCDIR" || fail "no source tree at '$SRCDIR'"

# folder: the folders its includes may name (the base headers error.h,
# escape.h, exitcode.h and parse.h, which name no folder, and base/, the
# library under symbolize/ and the program, go everywhere)
floors='
src/stats: stats
src/profile: profile stats
src/system: system profile symbolize stats
src/counters: counters system profile stats
src/workload: workload system profile stats
src/lab: lab system profile symbolize stats
src/lab/plugin: lab workload
src/record: record lab workload counters system profile symbolize stats
src/commands: commands record lab workload counters system profile reports symbolize stats
reports: reports profile symbolize stats
'

# check ROOT: every include in ROOT's folders that its floor does not
# allow, as file:line: include
check() {
	local root=$1
	echo "$floors" | while IFS=: read -r dir allowed; do
		[ -n "$dir" ] || continue
		[ -d "$root/$dir" ] || fail "no folder '$dir' under '$root'"
		pattern=$(echo $allowed | sed 's/ /|/g')
		grep -HnE '^#include "' "$root/$dir"/*.[ch] |
			grep -vE "#include \"(($pattern|base)/[a-z0-9_/-]+|error|escape|exitcode|parse)\.h\"" |
			sed "s|^$root/||"
	done
}

check . >"$TMP/up"
if [ -s "$TMP/up" ]; then
	cat "$TMP/up" >&2
	fail "an include runs up a floor, or names no folder (see docs/HACKING.md, \"The map\")"
fi
# the libraries: symbolize/ includes its own headers and base/'s, base/
# only its own: neither reaches into the program
up=$(grep -HnE '^#include "' symbolize/*.[ch] base/*.[ch] |
	grep -vE '^symbolize/[^:]*:[0-9]+:#include "(symbolize/)?[a-z-]+\.h"|^(symbolize|base)/[^:]*:[0-9]+:#include "base/[a-z0-9-]+\.h"')
[ -z "$up" ] || fail "a library includes the program's headers: $up"
# src/ itself holds only main.c and the base
extra=$(ls src/*.[ch] | grep -vE '^src/(main\.c|error\.[ch]|escape\.[ch]|exitcode\.h|parse\.[ch])$')
[ -z "$extra" ] || fail "files in src/ itself, not in a folder: $extra"

# the check can fail: a copy of the pipeline that calls up into a command
echo "$floors" | while IFS=: read -r dir allowed; do
	[ -n "$dir" ] && mkdir -p "$TMP/copy/$dir"
done
cp -r src/record src/profile "$TMP/copy/src/"
sed -i '0,/^#include "record\//s//#include "commands\/commands.h"\n&/' "$TMP/copy/src/record/window.c"
echo '#include "record/record.h"' >>"$TMP/copy/src/profile/profile.h"
check "$TMP/copy" >"$TMP/caught" 2>/dev/null
grep -q '^src/record/window.c:.*commands/commands.h' "$TMP/caught" ||
	fail "the check misses record/ including a command's header"
grep -q '^src/profile/profile.h:.*record/record.h' "$TMP/caught" ||
	fail "the check misses profile/ including the pipeline's header"
echo "ok: $(find src reports -name '*.[ch]' | wc -l) files include only their floor and below"
