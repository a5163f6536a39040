#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Bisect kernel revisions with perpkt: record each under QEMU
# (record --kernel, exact instruction counts by default), compare it with
# the good end (perpkt diff --fail-if), and narrow to the first bad one.
#
#   tests/lab/bisect.sh REVISIONS --fail-if EXPR [options] [-- RECORD OPTIONS]
#
# REVISIONS: one revision a line, in order, "NAME IMAGE VMLINUX|- [KERNEL
# ARGS]" (# comments and blank lines skipped): the name to print, the
# kernel image, its vmlinux (DWARF for the diffs' file:line; - for none)
# and what to add to its kernel command line (record --append).
#   --good N         index of the good revision (default 0, the first)
#   --bad N          index of the bad revision (default the last)
#   --fail-if EXPR   diff's condition for "bad", against the good end
#                    (repeatable; e.g. 'bucket:udp > +2%',
#                    'function:its_return_thunk > +100')
#   --out DIR        profiles, diffs and the log (default build/bisect)
#   --modules DIR    record --modules for every revision
# RECORD OPTIONS default to exact counts on one vCPU, deterministic (the
# same kernel booted twice executes the same instructions, so a total
# decides): --exact --placement same -d 0.5
# -w 0.3. A profile already in DIR is reused (a rerun records only what
# is missing). Prints "first bad: N NAME"; exits 0 then, 1 when the bad
# end does not fail, 2 on errors.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
PERPKT=${PERPKT:-$src/build/perpkt}
die() { echo "bisect: $*" >&2; exit 2; }

revs=${1:-}
[ -n "$revs" ] && [ "${revs#-}" = "$revs" ] || die "usage: bisect.sh REVISIONS --fail-if EXPR [--good N] [--bad N] [--out DIR] [--modules DIR] [-- RECORD OPTIONS]"
shift
good=0 bad= out=$src/build/bisect modules=
failif=()
while [ $# -gt 0 ]; do
	case $1 in
	--good) good=$2; shift 2 ;;
	--bad) bad=$2; shift 2 ;;
	--fail-if) failif+=(--fail-if "$2"); shift 2 ;;
	--out) out=$2; shift 2 ;;
	--modules) modules=$2; shift 2 ;;
	--) shift; break ;;
	*) die "unknown option '$1'" ;;
	esac
done
[ ${#failif[@]} -gt 0 ] || die "give --fail-if EXPR: what makes a revision bad"
record_opts=("$@")
[ ${#record_opts[@]} -gt 0 ] || record_opts=(--exact --placement same -d 0.5 -w 0.3)
[ -r "$revs" ] || die "cannot read revisions file '$revs'"

names=() imgs=() vmls=() appends=()
while read -r name img vml rest; do
	case $name in ''|'#'*) continue ;; esac
	[ -n "$img" ] && [ -n "$vml" ] || die "'$revs': a line is NAME IMAGE VMLINUX|- [KERNEL ARGS], not '$name $img'"
	[ -r "$img" ] || die "revision $name: cannot read image '$img'"
	[ "$vml" = - ] || [ -r "$vml" ] || die "revision $name: cannot read vmlinux '$vml'"
	names+=("$name") imgs+=("$img") vmls+=("$vml") appends+=("$rest")
done <"$revs"
n=${#names[@]}
[ "$n" -ge 2 ] || die "'$revs' has $n revisions: a bisect needs two or more"
bad=${bad:-$((n - 1))}
[ "$good" -ge 0 ] && [ "$bad" -lt "$n" ] && [ "$good" -lt "$bad" ] ||
	die "--good $good and --bad $bad: need 0 <= good < bad < $n"
mkdir -p "$out"
log=$out/bisect.log
say() { echo "$*" | tee -a "$log"; }
say "== bisect of $n revisions in '$revs', good $good ${names[$good]}, bad $bad ${names[$bad]}, $(date -u +%FT%TZ)"
say "   fail-if: ${failif[*]}; record: ${record_opts[*]}"

profile() { echo "$out/rev-$1.json"; }
record() { # record INDEX: its profile, recorded once
	local i=$1 p
	p=$(profile "$i")
	if [ -s "$p" ]; then
		say "   $i ${names[$i]}: reusing $p"
		return
	fi
	local opts=(--kernel "${imgs[$i]}")
	[ "${vmls[$i]}" = - ] || opts+=(--vmlinux "${vmls[$i]}")
	[ -z "${appends[$i]}" ] || opts+=(--append "${appends[$i]}")
	[ -z "$modules" ] || opts+=(--modules "$modules")
	say "   $i ${names[$i]}: recording (${appends[$i]:-no kernel args})"
	"$PERPKT" record -q "${opts[@]}" "${record_opts[@]}" -o "$p.tmp" 2>>"$log" ||
		die "revision $i ${names[$i]}: record failed (see $log)"
	mv "$p.tmp" "$p"
}
verdict() { # verdict INDEX: "good" or "bad" against the good end
	local i=$1 rc=0
	"$PERPKT" diff --allow-missing "${failif[@]}" "$(profile "$good")" "$(profile "$i")" \
		>"$out/diff-$good-$i.txt" 2>"$out/diff-$good-$i.err" || rc=$?
	cat "$out/diff-$good-$i.err" >>"$log"
	case $rc in
	0) echo good ;;
	1) echo bad ;;
	*) die "perpkt diff of $good and $i exited $rc: $(head -3 "$out/diff-$good-$i.err")" ;;
	esac
}

record "$good"
record "$bad"
v=$(verdict "$bad")
say "   $bad ${names[$bad]}: $v ($(grep -h "holds for" "$out/diff-$good-$bad.err" | head -1 || true))"
if [ "$v" != bad ]; then
	say "bisect: the bad end $bad ${names[$bad]} does not fail against the good end: nothing to bisect (diff in $out/diff-$good-$bad.txt)"
	exit 1
fi
lo=$good hi=$bad
while [ $((hi - lo)) -gt 1 ]; do
	mid=$(((lo + hi) / 2))
	record "$mid"
	v=$(verdict "$mid")
	if [ "$v" = bad ]; then
		say "   $mid ${names[$mid]}: bad ($(grep -h "holds for" "$out/diff-$good-$mid.err" | head -1))"
		hi=$mid
	else
		say "   $mid ${names[$mid]}: good"
		lo=$mid
	fi
done
say "first bad: $hi ${names[$hi]}"
say "   diff against the good end: $out/diff-$good-$hi.txt; profiles and this log in $out"
