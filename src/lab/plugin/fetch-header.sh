#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# qemu-plugin.h for the installed QEMU, which the exact-count plugin
# (src/lab/plugin/perpkt-exact.c) is built against. No Debian binary package
# ships it; Debian's source package of the installed version has it
# (qemu-X/include/qemu/qemu-plugin.h, needing only libc headers). This
# takes it from there, with a sources list of its own so the system's
# apt set-up is left alone, and keeps it in
# ${XDG_CACHE_HOME:-~/.cache}/perpkt/qemu-plugin/VERSION/.
#
#   fetch-header.sh            fetch if needed; print the folder
#   fetch-header.sh --cached   print the folder if it is there, else say
#                              why not on stderr and exit 1 (CMake: no
#                              download at configure time)
set -eu
cached_only=${1:-}
say() { echo "fetch-header.sh: $*" >&2; }

ver=$(dpkg-query -W -f='${source:Version}' qemu-system-data 2>/dev/null) || ver=
if [ -z "$ver" ]; then
	say "QEMU is not installed (apt-get install qemu-system-x86)"
	exit 1
fi
cache=${XDG_CACHE_HOME:-$HOME/.cache}/perpkt/qemu-plugin/$(echo "$ver" | tr ':' '_')
if [ -s "$cache/qemu-plugin.h" ]; then
	echo "$cache"
	exit 0
fi
if [ "$cached_only" = --cached ]; then
	say "qemu-plugin.h for QEMU $ver is not in '$cache'"
	exit 1
fi
command -v apt-get >/dev/null || { say "no apt-get: give -DPERPKT_QEMU_PLUGIN_INCLUDE=DIR"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/perpkt-qemu-src.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the mirrors and suites apt already uses, as deb-src lines
{
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" { $1 = "deb-src"; print }'
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk '
			{ v = $0; sub(/^[^:]*: */, "", v) }
			/^[Tt]ypes:/ { deb = (v ~ /(^| )deb( |$)/) }
			/^URIs:/ { uris = v } /^Suites:/ { suites = v }
			/^Components:/ { comps = v }
			/^$/ { flush() } END { flush() }
			function flush(  n, s, u, i) {
				if (deb && uris && suites) {
					n = split(suites, s, " "); split(uris, u, " ")
					for (i = 1; i <= n; i++)
						print "deb-src " u[1] " " s[i] " " comps
				}
				deb = 0; uris = suites = comps = ""
			}' "$f"
	done
} | sed 's/\[[^]]*\] *//' | sort -u >"$tmp/sources.list"
[ -s "$tmp/sources.list" ] || { say "no Debian mirror configured for apt"; exit 1; }
mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
apt_opts="-o Dir::Etc::sourcelist=$tmp/sources.list -o Dir::Etc::sourceparts=-
 -o Dir::State::Lists=$tmp/lists -o Dir::Cache=$tmp/cache -o Debug::NoLocking=1
 -o APT::Sandbox::User=root -q"
say "fetching Debian's qemu $ver source package for qemu-plugin.h (about 24 MB)"
# shellcheck disable=SC2086
apt-get $apt_opts update >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; say "apt-get update failed"; exit 1; }
# shellcheck disable=SC2086
(cd "$tmp" && apt-get $apt_opts source --download-only "qemu=$ver") >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log" >&2; say "cannot download the qemu $ver source package"; exit 1; }
orig=$(ls "$tmp"/qemu_*.orig.tar.* 2>/dev/null | head -1)
[ -n "$orig" ] || { say "no qemu_*.orig.tar.* in the source package"; exit 1; }
mkdir -p "$cache"
tar -xf "$orig" -C "$tmp" --wildcards '*/include/qemu/qemu-plugin.h' ||
	{ say "no include/qemu/qemu-plugin.h in '$orig'"; exit 1; }
cp "$tmp"/qemu-*/include/qemu/qemu-plugin.h "$cache/qemu-plugin.h.new"
mv "$cache/qemu-plugin.h.new" "$cache/qemu-plugin.h"
echo "$ver" >"$cache/VERSION"
say "qemu-plugin.h of QEMU $ver in '$cache'"
echo "$cache"
