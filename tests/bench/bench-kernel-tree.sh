#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel tree's preparation (tests/lab/kernel-tree.sh), side by side:
# the whole tarball unpacked by tar against kernel-tree-unpack.py (less
# what kernel-tree.config never builds), each then committed as the
# script does (`git add -A`, loose objects stored as they are). Not part
# of `make bench` (it measures the test set-up, not perpkt); alone:
#
#   tests/bench/bench-kernel-tree.sh [PASSES] [TARBALL]
#
# PASSES (2) alternate the two; each line gives the files, the size of
# the tree with its .git, the unpacking's and the commit's wall time and
# the CPU time of both (children's user + system). Then the ratios of
# the means, pruned / whole. Scratch trees go under $TMPDIR (on the
# cache's file system when that is where it lies: /tmp here).
set -eu
passes=${1:-2}
tarball=${2:-/usr/src/linux-source-6.1.tar.xz}
here=$(cd "$(dirname "$0")" && pwd)
[ -r "$tarball" ] || { echo "no $tarball: apt-get install linux-source-6.1" >&2; exit 77; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/bench-kernel-tree.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@localhost
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@localhost

# the CPU ticks of process $1 and the children it has waited for
cpu() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat"; }
now() { date +%s.%N; }

one() { # MODE: prints "MODE files MB unpack_s commit_s cpu_s"
	local d=$scratch/$1 me=$BASHPID s m e c0 c1 n
	rm -rf "$d" && mkdir -p "$d" && sync
	s=$(now) c0=$(cpu "$me")
	if [ "$1" = whole ]; then
		tar -xf "$tarball" -C "$d" --strip-components=1
	else
		python3 "$here/../lab/kernel-tree-unpack.py" "$tarball" "$d" 2>/dev/null
	fi
	m=$(now)
	n=$(grep -n '^# Debian packaging' "$d/.gitignore" | cut -d: -f1 || true)
	[ -z "$n" ] || { head -n $((n - 2)) "$d/.gitignore" >"$d/.gi" && mv "$d/.gi" "$d/.gitignore"; }
	(git -C "$d" init -q -b base && git -C "$d" config core.looseCompression 0 &&
	 git -C "$d" add -A && git -C "$d" commit -q -m base)
	e=$(now) c1=$(cpu "$me")
	echo "$1 $(git -C "$d" ls-files | wc -l) $(du -sm "$d" | cut -f1) $(echo "$m - $s" | bc)" \
	     "$(echo "$e - $m" | bc) $(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc)"
	rm -rf "$d"
}

for ((i = 0; i < passes; i++)); do
	one whole
	one pruned
done | awk '
	{ printf "%-6s %6d files %5d MB  unpack %5.1f s  commit %5.1f s  CPU %3d s\n", $1, $2, $3, $4, $5, $6
	  n[$1]++; u[$1] += $4; c[$1] += $5; p[$1] += $6; mb[$1] = $3 }
	END { if (n["whole"] && n["pruned"])
		printf "pruned / whole: unpack %.2f, commit %.2f, wall %.2f, CPU %.2f, disk %.2f\n",
			(u["pruned"] / n["pruned"]) / (u["whole"] / n["whole"]),
			(c["pruned"] / n["pruned"]) / (c["whole"] / n["whole"]),
			((u["pruned"] + c["pruned"]) / n["pruned"]) / ((u["whole"] + c["whole"]) / n["whole"]),
			(p["pruned"] / n["pruned"]) / (p["whole"] / n["whole"]), mb["pruned"] / mb["whole"] }'
