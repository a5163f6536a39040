#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fetch-guest.sh ARCH: what a `perpkt record --kernel` guest of another
# architecture needs from Debian beside the cross-built perpkt: a static
# busybox (busybox-static:arm64 does not co-install with the host's, so
# its .deb is fetched with apt-get download and unpacked), into
# $CACHE/busybox/ARCH/busybox, where perpkt looks for it. Prints that path.
#   CACHE=${PERPKT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perpkt}
# Needs `dpkg --add-architecture arm64 && apt-get update` (make cross-arm64).
set -eu
arch=${1:?usage: fetch-guest.sh ARCH (aarch64)}
case $arch in
aarch64|arm64) arch=aarch64 deb=arm64 ;;
*) echo "fetch-guest: no guest files for '$arch' (aarch64 only)" >&2; exit 2 ;;
esac
cache=${PERPKT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perpkt}
out=$cache/busybox/$arch/busybox
if [ ! -x "$out" ]; then
	mkdir -p "$cache/debs" "$(dirname "$out")"
	f=$(ls "$cache/debs"/busybox-static_*_"$deb".deb 2>/dev/null | head -1 || true)
	if [ -z "$f" ]; then
		echo "fetch-guest: downloading busybox-static:$deb into $cache/debs" >&2
		(cd "$cache/debs" && apt-get download -q "busybox-static:$deb" >&2) ||
			{ echo "fetch-guest: cannot download busybox-static:$deb (dpkg --add-architecture $deb && apt-get update first?)" >&2; exit 1; }
		f=$(ls "$cache/debs"/busybox-static_*_"$deb".deb | head -1)
	fi
	dpkg-deb --fsys-tarfile "$f" | tar -xO ./bin/busybox >"$out.tmp"
	chmod 755 "$out.tmp"
	mv "$out.tmp" "$out"
fi
echo "$out"
