#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make lab: the same ping-pong inside two Debian kernels under QEMU (6.1
# and 6.12 by default). First the figure that does not depend on the
# host: exact instructions per round trip, counted by the QEMU plugin
# (record --kernel --exact), one boot per window, the kernels' boots
# interleaved A B A B ... so the spread is across boots at different
# times; then `perpkt diff` of those by bucket and by function, each
# function's file:line from its own kernel's DWARF, and beside them the
# sampled times of today's record --kernel, with their caveat.
#   LAB_KERNELS="A B"  Debian kernel releases (linux-image-R-unsigned, -dbg)
#   LAB_ARGS           record options for both (default below)
#   LAB_BOOTS          exact-mode boots per kernel (default 3)
#   LAB_SAMPLED=0      leave out the sampled run
#   LAB_OUT            folder for the profiles (default build/lab)
# Downloads, once, into ${PERPKT_CACHE:-~/.cache/perpkt}: about 27 + 34 MB
# of vmlinuz/modules and 283 + 318 MB of -dbg packages (1.2 GB unpacked).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
PERPKT=${PERPKT:-$src/build/perpkt}
read -ra kernels <<<"${LAB_KERNELS:-6.1.0-57-cloud-amd64 6.12.117+deb12-cloud-amd64}"
read -ra args <<<"${LAB_ARGS:---placement same -d 2 -w 0.5}"
boots=${LAB_BOOTS:-3}
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

# exact: one boot per window, A B A B ..., then each kernel's merged
profiles=()
for b in $(seq 1 "$boots"); do
	for rel in "${kernels[@]}"; do
		echo "== exact counts inside $rel, boot $b of $boots"
		"$PERPKT" record -q --kernel "${img[$rel]}" --vmlinux "${vml[$rel]}" --exact \
			"${args[@]}" -o "$out/$rel.exact.$b.json" 2> >(quiet)
	done
done
for rel in "${kernels[@]}"; do
	"$PERPKT" merge -q -o "$out/$rel.exact.json" "$out/$rel.exact."[0-9]*.json
	profiles+=("$out/$rel.exact.json")
done
# sampled, as before: -r 3 windows in one boot
sampled=()
if [ "${LAB_SAMPLED:-1}" != 0 ]; then
	for rel in "${kernels[@]}"; do
		echo "== sampled inside $rel"
		"$PERPKT" record --kernel "${img[$rel]}" --vmlinux "${vml[$rel]}" \
			"${args[@]}" -r 3 -o "$out/$rel.json" 2> >(quiet)
		sampled+=("$out/$rel.json")
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
  boot to /init \(.conditions["lab.boot_s"]) s, QEMU ran \(.conditions["lab.wall_s"]) s; \(.workload.round_trips) round trips in \(.workload.repeats | length) boots, \(.counters.events[0].count) instructions, \(.conditions["kernel.config"])"' "$p"
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

# file:line of each function shown, from each kernel's own DWARF: the
# address of the function's symbol in that guest, resolved by perpkt
# resolve against the profile (KASLR offset and vmlinux from it)
"$PERPKT" diff --format json --alias "$alias" --limit 0 "${profiles[@]}" >"$out/diff.json"
where() { # where PROFILE NAME: file:line of NAME's entry, or "-"
	local a
	a=$(jq -r --arg n "$2" '[.kallsyms[] | select(.name == $n or (.name | startswith($n + ".")))][0].addr // empty' "$1")
	[ -n "$a" ] || { echo "-"; return; }
	"$PERPKT" resolve -i "$1" --format json "$a" 2>/dev/null |
		jq -r '.results[0] | if .file then "\(.file):\(.line)" else "-" end'
}
echo
echo "== where the top functions are, from each kernel's DWARF"
printf '%-34s %-26s %s\n' function "${kernels[0]%%-*}" "${kernels[1]%%-*}"
jq -r '.functions[:20][] | .name' "$out/diff.json" | while read -r f; do
	a=$(where "${profiles[0]}" "$f")
	# a renamed function: look up its old name in the first kernel
	[ "$a" != - ] || { o=$(awk -v n="$f" '!/^#/ && $2 == n { print $1; exit }' "$alias"); [ -z "$o" ] || a=$(where "${profiles[0]}" "$o"); }
	printf '%-34s %-26s %s\n' "$f" "$a" "$(where "${profiles[1]}" "$f")"
done

echo
# A function sampled in one kernel only is either gone from the other
# (renamed, inlined, removed) or there but not sampled: the other
# kernel's symbol table (nm, suffixes such as .isra.0 folded) tells.
for i in 0 1; do
	nm --defined-only "$(jq -r '.conditions["lab.vmlinux"]' "${profiles[$i]}")" |
		awk '{ sub(/\..*/, "", $3); print $3 }' | sort -u >"$out/names.$i"
done
one_side() { # one_side INDEX_SAMPLED INDEX_OTHER LABEL
	jq -r --argjson s "$1" --argjson o "$2" '.functions[] |
		select(.present[$s] and (.present[$o] | not)) |
		"\(.name) \(.per_rt[$s] | . * 10 | round / 10) \(.bucket)"' "$out/diff.json" |
	while read -r f v b; do
		o=$(awk -v n="$f" '!/^#/ && $2 == n { print $1; exit }' "$alias")
		if grep -qxF "$f" "$out/names.$2" || { [ -n "$o" ] && grep -qxF "$o" "$out/names.$2"; }; then
			echo "  only counted in $3: $f $v insns/RT ($b): in the other kernel too, not run there in the window"
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
	"$(grep -c 'only counted' "$out/one-side.txt") more exist in both but ran in one (all in $out/one-side.txt);" \
	"$(jq '[.functions[] | select(.present == [true, true])] | length' "$out/diff.json") matched"
t2=$(date +%s)
echo
echo "lab: recorded both kernels ($boots exact boots each${sampled:+, and sampled}) in $((t1 - t0)) s, compared in $((t2 - t1)) s; profiles in $out"
