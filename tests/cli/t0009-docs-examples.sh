# SPDX-License-Identifier: GPL-2.0-only
# Every example command in README.md and docs/*.md runs as written: each
# indented "perpkt ..." line (a "$ " prompt allowed; usage synopses with
# [optional] parts are not examples) is run in file order in one scratch
# directory, so the files an example needs must be made by an earlier
# one. perpkt is on PATH as the README says after 'make install'; record,
# stat and sweep get short windows appended (-d 0.1 -w 0.05), which
# override theirs, and a sweep one window a cell (--repeat 1: the docs'
# sweeps were three quarters of this test's time with theirs); windows
# the example asks shorter than that stay theirs (--turn-on's 0.1 s too),
# and more than 5 windows (-r, --turn-on's 20 a side) become 5, which
# still exercise every option as written. 'make TARGET' lines are
# checked with make -n. The one thing
# supplied: ./vmlinux, the test kernel image, for docs/resolve.md. Not
# run: record --kernel examples (they need a distribution kernel and
# its vmlinux, downloaded by 'make lab'; t0801 covers --kernel) and the
# lines that read what those would have written.
# The examples run in a network namespace of the test's own (RPS masks,
# sysctls, conditions and the system lock are its own there), so the
# test holds no lock: its minute of examples runs beside the others.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
: "${BUILDDIR:?}"
NS=
trap '[ -z "$NS" ] || ip netns del "$NS" 2>/dev/null; rm -rf "$TMP"' EXIT
test_namespace docs

mkdir "$TMP/bin" "$TMP/run"
cat >"$TMP/bin/perpkt" <<EOS
#!/bin/bash
cmd=\$1; shift
case \$cmd in
record|stat) short=(-d 0.1 -w 0.05) ;;
sweep) short=(-d 0.1 -w 0.05 --repeat 1) ;;
*) short=() ;;
esac
# windows no longer than the example's own (-d 0.05 stays 0.05; turns
# keep their 0.1 s), and at most 5 of them (-r 200 was 73 s of 133)
if [ \$cmd = record ] || [ \$cmd = stat ]; then
	prev= own_d=0 cap_r=0
	for a in "\$@"; do
		[ "\$a" = -- ] && break
		case \$prev in
		-d) awk "BEGIN { exit !(\$a < 0.1) }" && own_d=1 ;;
		-r|--repeat) [ "\$a" -gt 5 ] 2>/dev/null && cap_r=1 ;;
		esac
		[ "\$a" = --turn-on ] && own_d=1 cap_r=1
		prev=\$a
	done
	[ \$own_d = 0 ] || short=(-w 0.05)
	[ \$cap_r = 0 ] || short+=(-r 5)
fi
# before a "--" (the workload's own arguments), else at the end
args=(); done=0
for a in "\$@"; do
	if [ "\$a" = -- ] && [ \$done = 0 ]; then args+=("\${short[@]}"); done=1; fi
	args+=("\$a")
done
[ \$done = 1 ] || args+=("\${short[@]}")
exec "$PERPKT" "\$cmd" "\${args[@]}"
EOS
chmod +x "$TMP/bin/perpkt"
ln -s "$BUILDDIR/tests/fixtures/ktree/vmlinux" "$TMP/run/vmlinux"

n=0
for doc in "$SRCDIR/README.md" "$SRCDIR"/docs/*.md; do
	# indented code lines: 4 spaces, optional "$ ", then the command
	grep -E '^    (\$ )?(perpkt|make) ' "$doc" | sed -E 's/^    (\$ )?//' |
	while IFS= read -r line; do
		case $line in *'['*) continue ;; esac
		# output pasted from a run ("perpkt diff: instructions per ...")
		case $line in perpkt\ [a-z]*:\ *) continue ;; esac
		# drop a trailing comment (two spaces or more before the #)
		cmd=$(printf '%s' "$line" | sed -E 's/ {2,}#.*$//')
		echo "$(basename "$doc"): $cmd"
	done
done >"$TMP/examples"
[ "$(wc -l <"$TMP/examples")" -ge 10 ] || fail "found only $(wc -l <"$TMP/examples") examples"

skipped=" "
while IFS= read -r entry; do
	doc=${entry%%: *}; cmd=${entry#*: }
	n=$((n + 1))
	case $cmd in
	*\\)	# continued on the next line: a sketch of a longer command
		echo "not run (continued over lines): $cmd"
		continue ;;
	*--kernel\ *)
		out=$(printf '%s\n' "$cmd" | sed -n 's/.* -o \([^ ]*\).*/\1/p')
		skipped="$skipped$out "
		echo "not run (needs a kernel image): $cmd"
		continue ;;
	esac
	for f in $skipped; do
		case " $cmd " in *" $f "*) echo "not run (reads $f): $cmd"; continue 2 ;; esac
	done
	case $cmd in
	make\ *[!a-z\ ]*)	# a shell sketch around make, not a target
		continue ;;
	make\ *)
		(cd "$SRCDIR" && make -n ${cmd#make } >/dev/null 2>&1) ||
			fail "$doc: '$cmd' is not a make target"
		continue ;;
	esac
	code=0
	(cd "$TMP/run" && PATH="$TMP/bin:$PATH" in_ns bash -c "$cmd") \
		>"$TMP/out" 2>"$TMP/err" </dev/null || code=$?
	# 1 is a partial result or a --fail-if that held; 2 and 64 are failures
	case $code in
	0|1) ;;
	*) cat "$TMP/err" >&2; fail "$doc: '$cmd' exited $code" ;;
	esac
	! grep -q '^usage:' "$TMP/err" || fail "$doc: '$cmd' printed its usage"
	echo "ran ($code): $cmd"
done <"$TMP/examples"
# what the examples promise to leave behind
[ -s "$TMP/run/before.html" ] && grep -q '<svg' "$TMP/run/before.html" ||
	fail "README's HTML report is missing or has no chart"
[ -s "$TMP/run/cross.json" ] || fail "README's cross.json was not written"
echo "ok: $(wc -l <"$TMP/examples") examples ran"
