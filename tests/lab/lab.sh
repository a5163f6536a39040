#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make lab: the same ping-pong inside two Debian kernels under QEMU (6.1
# and 6.12 by default). The figure that does not depend on the host:
# exact instructions per round trip, counted by the QEMU plugin (record
# --kernel --exact) on one vCPU running on QEMU's instruction clock, so
# a kernel booted again executes the same instructions: one boot per
# kernel and one repeat that perpkt checks is identical (-r 2); then
# `perpkt diff` of those by bucket and by function, each function's
# file:line from its own kernel's DWARF. The same table every run.
#   LAB_KERNELS="A B"  Debian kernel releases (linux-image-R-unsigned, -dbg)
#   LAB_ARGS           record options for both (default below)
#   LAB_BOOTS          exact-mode boots per kernel (default 2: one, and
#                      the repeat that shows the boots agree)
#   LAB_SAMPLED=1      add today's sampled times of record --kernel (they
#                      follow the host's load: they change run to run)
#   LAB_OUT            folder for the profiles (default build/lab)
#   LAB_REUSE=1        keep the profiles already in LAB_OUT, record only
#                      what is missing (to redo the comparison alone)
# Downloads, once, into ${PERPKT_CACHE:-~/.cache/perpkt}: about 27 + 34 MB
# of vmlinuz/modules and 283 + 318 MB of -dbg packages (1.2 GB unpacked).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
PERPKT=${PERPKT:-$src/build/perpkt}
read -ra kernels <<<"${LAB_KERNELS:-6.1.0-57-cloud-amd64 6.12.117+deb12-cloud-amd64}"
read -ra args <<<"${LAB_ARGS:---placement same -d 0.5 -w 0.3}"
boots=${LAB_BOOTS:-2}
out=${LAB_OUT:-$src/build/lab}
alias=$src/docs/aliases-6.1-6.12.txt
[ ${#kernels[@]} = 2 ] || { echo "lab: LAB_KERNELS names two kernels" >&2; exit 2; }
command -v qemu-system-x86_64 >/dev/null ||
	{ echo "lab: qemu-system-x86_64 missing: apt-get install qemu-system-x86 (make deps)" >&2; exit 77; }
mkdir -p "$out"
t0=$(date +%s)
quiet() { grep -v '^perpkt: warning: \(no hardware PMU\|.instructions. is not\)' >&2; }

declare -A img vml
for rel in "${kernels[@]}"; do
	root=$("$src/tests/lab/fetch-kernel.sh" "$rel" --dbg)
	img[$rel]=$root/boot/vmlinuz-$rel
	vml[$rel]=$root/usr/lib/debug/boot/vmlinux-$rel
done

reuse() { [ "${LAB_REUSE:-0}" = 1 ] && [ -s "$1" ]; }
# exact: -r N boots of each kernel, perpkt comparing them ("boot 2 is
# identical to boot 1", lab.boots_agree)
profiles=()
for rel in "${kernels[@]}"; do
	profiles+=("$out/$rel.exact.json")
	! reuse "$out/$rel.exact.json" || continue
	echo "== exact counts inside $rel, $boots boots"
	"$PERPKT" record --kernel "${img[$rel]}" --vmlinux "${vml[$rel]}" --exact \
		-r "$boots" "${args[@]}" -o "$out/$rel.exact.json" 2>&1 |
		grep -E 'identical|differs|deterministic|error|warning' >&2 || true
	[ -s "$out/$rel.exact.json" ] || { echo "lab: no profile of $rel" >&2; exit 1; }
done
# sampled, as before: -r 3 windows in one boot
sampled=()
if [ "${LAB_SAMPLED:-0}" != 0 ]; then
	for rel in "${kernels[@]}"; do
		sampled+=("$out/$rel.json")
		! reuse "$out/$rel.json" || continue
		echo "== sampled inside $rel"
		"$PERPKT" record --kernel "${img[$rel]}" --vmlinux "${vml[$rel]}" \
			"${args[@]}" -r 3 -o "$out/$rel.json" 2> >(quiet)
	done
fi
t1=$(date +%s)
echo
echo "== guests (build-id from each guest's /sys/kernel/notes, vs its vmlinux)"
for p in "${profiles[@]}"; do
	vml=$(jq -r '.conditions["lab.vmlinux"]' "$p")
	gid=$(jq -r .system.build_id "$p")
	vid=$(readelf -n "$vml" | awk '/Build ID/ { print $3; exit }')
	[ "$gid" = "$vid" ] && m=matched || m="MISMATCH ($vid)"
	printf '%s: build-id %s %s\n' "$(jq -r .system.kernel_release "$p")" "$gid" "$m"
	jq -r '"  \(.conditions["lab.accel"]); \(.conditions["lab.qemu"])
  boot to /init \(.conditions["lab.boot_s"]) s, QEMU ran \(.conditions["lab.wall_s"]) s; \(.workload.round_trips) round trips in \(.workload.repeats | length) boots, \(.counters.events[0].count) instructions, \(.conditions["kernel.config"])
  deterministic \(.conditions["lab.deterministic"] // "unknown" | split(" (")[0]); boots agree: \(.conditions["lab.boots_agree"] // "not checked")"' "$p"
	[ "$gid" = "$vid" ] || exit 1
done

echo
echo "== perpkt diff of exact instructions per round trip: by bucket, then by function (renames matched by $(basename "$alias"))"
"$PERPKT" diff --by function --alias "$alias" --limit 25 "${profiles[@]}"
if [ ${#sampled[@]} = 2 ]; then
	echo
	echo "== beside it, sampled emulated time (follows the host's load: see the note)"
	"$PERPKT" diff --by bucket --alias "$alias" "${sampled[@]}"
fi

# file:line of each function shown, from each kernel's own DWARF: its
# costliest line in that kernel's own `report --by line` (the lines the
# window ran, inline chains folded into the function they are in)
"$PERPKT" diff --format json --alias "$alias" --limit 0 "${profiles[@]}" >"$out/diff.json"
for i in 0 1; do
	"$PERPKT" report -q -i "${profiles[$i]}" --by line --limit 0 --format json >"$out/lines.$i.json"
	nm --defined-only "$(jq -r '.conditions["lab.vmlinux"]' "${profiles[$i]}")" |
		awk '{ sub(/\..*/, "", $3); print $3 }' | sort -u >"$out/names.$i"
done
where() { # where INDEX NAME: NAME's costliest file:line there, or why none
	local l
	# its own code's costliest line, else the inlined code's (innermost)
	l=$(jq -r --arg n "$2" '[.lines[] | select(.symbol == $n)] |
		([.[] | select(.inlined == null)] + .)[0] |
		if . then "\(.file | split("/") | last):\(.line)" else empty end' "$out/lines.$1.json")
	if [ -n "$l" ]; then echo "$l"
	elif grep -qxF "$2" "$out/names.$1"; then echo "(not counted)"
	else echo "(no such symbol)"; fi
}
echo
echo "== where the top functions are, from each kernel's DWARF (its costliest line)"
printf '%-34s %-26s %s\n' function "${kernels[0]%%-*}" "${kernels[1]%%-*}"
jq -r '.functions[:20][] | .name' "$out/diff.json" | while read -r f; do
	a=$(where 0 "$f")
	# a renamed function: look up its old name in the first kernel
	case $a in "("*) o=$(awk -v n="$f" '!/^#/ && $2 == n { print $1; exit }' "$alias")
		[ -z "$o" ] || a=$(where 0 "$o");; esac
	printf '%-34s %-26s %s\n' "$f" "$a" "$(where 1 "$f")"
done

echo
# A function sampled in one kernel only is either gone from the other
# (renamed, inlined, removed) or there but not sampled: the other
# kernel's symbol table (nm, suffixes such as .isra.0 folded) tells.
one_side() { # one_side INDEX_SAMPLED INDEX_OTHER LABEL
	jq -r --argjson s "$1" --argjson o "$2" '.functions[] |
		select(.present[$s] and (.present[$o] | not)) |
		"\(.name) \(.per_rt[$s] | . * 10 | round / 10) \(.bucket)"' "$out/diff.json" |
	while read -r f v b; do
		o=$(awk -v n="$f" '!/^#/ && $2 == n { print $1; exit }' "$alias")
		if grep -qxF "$f" "$out/names.$2" || { [ -n "$o" ] && grep -qxF "$o" "$out/names.$2"; }; then
			echo "  not sampled there, $3 only: $f $v insns/RT ($b): the other kernel has it, it did not run in the window"
		else
			echo "  only in $3: $f $v insns/RT ($b): no symbol of that name in the other kernel (renamed, inlined or removed)"
		fi
	done
}
echo
echo "== functions counted in one kernel only (no rename rule matched them)"
one_side 0 1 A >"$out/one-side.txt"
one_side 1 0 B >>"$out/one-side.txt"
grep '^  only in' "$out/one-side.txt" | head -40
echo "  $(grep -c '^  only in A' "$out/one-side.txt") functions of A and $(grep -c '^  only in B' "$out/one-side.txt") of B exist in one kernel only;" \
	"$(grep -c 'not sampled there' "$out/one-side.txt") more exist in both but ran in one (all in $out/one-side.txt);" \
	"$(jq '[.functions[] | select(.present == [true, true])] | length' "$out/diff.json") matched"
# Renames the alias file lacks: a function only in A and one only in B
# in the same source file whose names contain one another
# (check_preempt_wakeup, check_preempt_wakeup_fair)
for i in 0 1; do
	"$PERPKT" report -q -i "${profiles[$i]}" --limit 0 --format json |
		jq -r '.functions[] | select(.file) | "\(.name) \(.file)"' >"$out/files.$i"
done
grep '^  only in A' "$out/one-side.txt" | awk '{ print $4 }' >"$out/only.0"
grep '^  only in B' "$out/one-side.txt" | awk '{ print $4 }' >"$out/only.1"
awk 'FILENAME ~ /files.0$/ { f0[$1] = $2; next } FILENAME ~ /files.1$/ { f1[$1] = $2; next }
	FILENAME ~ /only.0$/ { a[$1] = 1; next } { b[$1] = 1 }
	END {
		for (x in a) for (y in b)
			if (f0[x] != "" && f0[x] == f1[y] && (index(y, x) || index(x, y)))
				print "  " x " " y "    # " f0[x]
	}' "$out/files.0" "$out/files.1" "$out/only.0" "$out/only.1" | sort >"$out/alias-proposals.txt"
if [ -s "$out/alias-proposals.txt" ]; then
	echo
	echo "== renames to add to $(basename "$alias")? one kernel each, same source file, close names:"
	cat "$out/alias-proposals.txt"
fi
t2=$(date +%s)
echo
echo "lab: recorded both kernels ($boots exact boots each${sampled:+, and sampled}) in $((t1 - t0)) s, compared in $((t2 - t1)) s; profiles in $out"
