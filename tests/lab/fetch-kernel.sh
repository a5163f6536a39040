#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fetch-kernel.sh RELEASE [--dbg]: a Debian kernel for `perpkt record
# --kernel`, cached. Prints the folder holding boot/vmlinuz-RELEASE, the
# veth module and the emulated NICs' (virtio_net, vmxnet3 and what they
# need) under lib/modules/RELEASE and, with --dbg, the vmlinux with
# DWARF at usr/lib/debug/boot/vmlinux-RELEASE.
#
# Packages: linux-image-RELEASE-unsigned (vmlinuz and modules, about
# 27 MB for 6.1.0-*-cloud-amd64, 34 MB for 6.12) and -dbg (about 283 and
# 318 MB), fetched with apt-get download into $CACHE/debs once. A .deb
# already in one of $PERPKT_DEB_DIRS (colon-separated, default
# /var/cache/apt/archives) is used where it lies.
#   CACHE=${PERPKT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perpkt}
set -eu
rel=${1:?usage: fetch-kernel.sh RELEASE [--dbg]}
dbg=${2:-}
cache=${PERPKT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perpkt}
root=$cache/kernels/$rel
mkdir -p "$cache/debs" "$root"

# find_deb PACKAGE: path of its .deb, downloading it when absent
find_deb() {
	local d f
	IFS=: read -ra dirs <<<"${PERPKT_DEB_DIRS:-/var/cache/apt/archives}"
	for d in "$cache/debs" "${dirs[@]}"; do
		for f in "$d/$1"_*.deb; do
			[ -s "$f" ] && { echo "$f"; return 0; }
		done
	done
	echo "fetch-kernel: downloading $1 into $cache/debs" >&2
	(cd "$cache/debs" && apt-get download -q "$1" >&2) ||
		{ echo "fetch-kernel: cannot download $1 (apt-get update first?)" >&2; return 1; }
	for f in "$cache/debs/$1"_*.deb; do
		[ -s "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# Extract only what the guest needs; a marker says it is complete.
if [ ! -e "$root/.unsigned" ] || [ ! -e "$root/boot/config-$rel" ]; then
	deb=$(find_deb "linux-image-$rel-unsigned")
	echo "fetch-kernel: $(basename "$deb"): $(du -m "$deb" | cut -f1) MB" >&2
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$root" --wildcards "./boot/vmlinuz-$rel" "./boot/config-$rel" \
			"./lib/modules/$rel/kernel/drivers/net/veth.ko*"
	touch "$root/.unsigned"
fi
# the NIC modules (record --net nic), added to a folder made without them
if [ ! -e "$root/.nic" ]; then
	deb=$(find_deb "linux-image-$rel-unsigned")
	m=./lib/modules/$rel/kernel
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$root" --wildcards "$m/drivers/virtio/virtio*.ko*" \
			"$m/drivers/net/virtio_net.ko*" "$m/drivers/net/net_failover.ko*" \
			"$m/net/core/failover.ko*" "$m/drivers/net/vmxnet3/vmxnet3.ko*" \
			"./lib/modules/$rel/modules.builtin" 2>/dev/null || true
	touch "$root/.nic"
fi
if [ "$dbg" = --dbg ] && [ ! -e "$root/.dbg" ]; then
	deb=$(find_deb "linux-image-$rel-dbg")
	echo "fetch-kernel: $(basename "$deb"): $(du -m "$deb" | cut -f1) MB" >&2
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$root" --wildcards "./usr/lib/debug/boot/vmlinux-$rel"
	touch "$root/.dbg"
fi
echo "$root"
