#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A kernel git tree to build and bisect, made once in perpkt's cache:
#
#   tests/lab/kernel-tree.sh          prints the tree's path
#   tests/lab/kernel-tree.sh --build  and builds it (make check-lab starts
#                                     this beside the other lab tests, on
#                                     every CPU at nice 19, so the bisect
#                                     test finds it built)
#
# From Debian's linux-source-6.1 (/usr/src/linux-source-6.1.tar.xz, or
# PERPKT_KERNEL_SOURCE): the unpacked tree, less what kernel-tree.config
# never builds (kernel-tree-unpack.py), committed as branch `base`,
# then branch `series`, five commits on top with fixed dates (so their
# ids are the same on every machine):
#   1 a comment in net/ipv4/udp.c            harmless
#   2 a message reworded in virtio_net       harmless (no NIC in the guest)
#   3 per-datagram work in udp_sendmsg       the regression: 64 calls of a
#                                            noinline helper per datagram
#   4 udp.c's functions aligned to 64 bytes  layout only: the same
#                                            instructions, the code after
#                                            udp.o moved (other L1I
#                                            misses under --cache-model)
#   5 a line in Documentation/               harmless (nothing rebuilt)
# checked out at `series`, configured with tests/lab/kernel-tree.config
# merged onto allnoconfig. Built with --build only (ccache in
# $cache/ccache; the bisect builds what it needs). One at a time: a
# second caller waits for the first (flock), so a test started during
# the build uses it when it is done.
# Exits 77 when the source package is missing.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
cache=${PERPKT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perpkt}
tarball=${PERPKT_KERNEL_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
tree=$cache/ktree/linux
fragment=$src/tests/lab/kernel-tree.config
say() { echo "kernel-tree: $*" >&2; }

[ -r "$tarball" ] || { say "no $tarball: apt-get install linux-source-6.1 (make check-lab installs it)"; exit 77; }
mkdir -p "$cache/ktree"
exec 9>"$cache/ktree/.lock"
flock 9

export GIT_AUTHOR_NAME=perpkt GIT_AUTHOR_EMAIL=perpkt@localhost
export GIT_COMMITTER_NAME=perpkt GIT_COMMITTER_EMAIL=perpkt@localhost
commit() { # commit DATE SUBJECT
	GIT_AUTHOR_DATE=$1 GIT_COMMITTER_DATE=$1 git -C "$tree" commit -q -a -m "$2"
}

if ! git -C "$tree" rev-parse -q --verify refs/heads/base >/dev/null 2>&1; then
	say "unpacking $tarball into $tree (once; about half a minute)"
	rm -rf "$tree" "$tree.new"
	mkdir -p "$tree.new"
	# without what kernel-tree.config does not build (kernel-tree-unpack.py)
	python3 "$src/tests/lab/kernel-tree-unpack.py" "$tarball" "$tree.new"
	# Debian appends "ignore everything at the top level" for its packaging
	n=$(grep -n '^# Debian packaging' "$tree.new/.gitignore" | cut -d: -f1)
	[ -z "$n" ] || { head -n $((n - 2)) "$tree.new/.gitignore" >"$tree.new/.gi" &&
		mv "$tree.new/.gi" "$tree.new/.gitignore"; }
	git -C "$tree.new" init -q -b base
	# its objects stored as they are, not deflated (the whole tarball's
	# 78,000: 63 s against 129-190 s at load 9-11 here; 19,600 now)
	git -C "$tree.new" config core.looseCompression 0
	git -C "$tree.new" add -A
	GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
		git -C "$tree.new" commit -q -m "Linux $(make -s -C "$tree.new" kernelversion) (Debian linux-source-6.1, what kernel-tree.config builds)"
	mv "$tree.new" "$tree"
fi

# the series, made again when this script's version of it changes
want=$(sed -n '/^	# series start/,/^	# series end/p' "$0" | sha1sum | cut -c1-12)
if [ "$(git -C "$tree" log -1 --format=%b series 2>/dev/null | sed -n 's/^perpkt-series: //p')" != "$want" ]; then
	say "making branch series ($want)"
	git -C "$tree" checkout -q -f -B series base
	# series start
	perl -0pi -e 's/\nint udp_sendmsg\(struct sock \*sk, struct msghdr \*msg, size_t len\)\n/\n\/\*\n \* udp_sendmsg - send one datagram, or append to a corked one.\n \* Checks the length and the flags first.\n \*\/\nint udp_sendmsg(struct sock *sk, struct msghdr *msg, size_t len)\n/' \
		"$tree/net/ipv4/udp.c"
	commit 2026-01-02T00:00:00Z "udp: say what udp_sendmsg does first"
	perl -0pi -e 's/rx error: %d buffers out of %d missing/rx error: %d of %d buffers missing/' \
		"$tree/drivers/net/virtio_net.c"
	commit 2026-01-03T00:00:00Z "virtio_net: reword the missing-buffers message"
	perl -0pi -e 's/\n\/\*\n \* udp_sendmsg - send one datagram/\n\/\* one step of the per-datagram accounting \*\/\nstatic noinline u32 udp_sendmsg_account(u32 x)\n{\n\treturn x * 2654435761U + 1;\n}\n\n\/\*\n * udp_sendmsg - send one datagram/; s/(\n\tif \(len > 0xFFFF\)\n\t\treturn -EMSGSIZE;\n)/$1\n\t{\n\t\tu32 acct = ulen;\n\t\tint i;\n\n\t\tfor (i = 0; i < 64; i++)\n\t\t\tacct = udp_sendmsg_account(acct);\n\t\tbarrier_data(&acct);\n\t}\n/' \
		"$tree/net/ipv4/udp.c"
	commit 2026-01-04T00:00:00Z "udp: account each datagram as it is sent"
	printf '\n# padding before each function of udp.c: the code moves, not what runs\nCFLAGS_udp.o += -falign-functions=64\n' \
		>>"$tree/net/ipv4/Makefile"
	commit 2026-01-04T12:00:00Z "udp: align the functions of udp.c to 64 bytes"
	echo "UDP datagrams are accounted as they are sent." >>"$tree/Documentation/networking/udplite.rst"
	commit 2026-01-05T00:00:00Z "Documentation: say when UDP accounts a datagram

perpkt-series: $want"
	# series end
fi
# at series, and clean (a test stopped half-way may have left a change)
[ "$(git -C "$tree" rev-parse HEAD)" = "$(git -C "$tree" rev-parse series)" ] &&
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	{ say "back to series, clean"; git -C "$tree" checkout -q -f series; }

# configured from the fragment, again when it changes
conf=$(sha1sum <"$fragment" | cut -c1-12)
if [ "$(cat "$tree/.perpkt-config" 2>/dev/null)" != "$conf" ] || [ ! -s "$tree/.config" ]; then
	say "configuring from $fragment"
	make -s -C "$tree" allnoconfig >/dev/null
	(cd "$tree" && scripts/kconfig/merge_config.sh -m .config "$fragment" >/dev/null)
	make -s -C "$tree" olddefconfig >/dev/null
	# every option asked for, as asked
	while IFS= read -r line; do
		case $line in CONFIG_*=n) grep -qx "# ${line%=n} is not set" "$tree/.config" ||
			! grep -q "^${line%=n}=" "$tree/.config" || { say "$line did not hold"; exit 1; } ;;
		CONFIG_*) grep -qx "$line" "$tree/.config" || { say "$line did not hold"; exit 1; } ;;
		esac
	done <"$fragment"
	echo "$conf" >"$tree/.perpkt-config"
fi
if [ "${1:-}" = --build ]; then
	say "building bzImage at $(git -C "$tree" log -1 --format=%h) with ${PERPKT_KERNEL_JOBS:-$(nproc)} jobs ($(date -u +%T))"
	t0=$SECONDS
	# the build's identity as perpkt-bisect fixes it. Not ccache's depend
	# mode (14% less CPU a miss): it hashes no preprocessed text, so it
	# cannot see the .incbin of arch/x86/boot/compressed/piggy.S and
	# served a bzImage holding an older commit's kernel (2026-12-05)
	CCACHE_DIR=$cache/ccache KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026" \
	KBUILD_BUILD_VERSION=1 KBUILD_BUILD_USER=perpkt KBUILD_BUILD_HOST=bisect \
		make -s -C "$tree" -j"${PERPKT_KERNEL_JOBS:-$(nproc)}" \
		CC="ccache gcc" bzImage >/dev/null
	say "built in $((SECONDS - t0)) s"
fi
echo "$tree"
