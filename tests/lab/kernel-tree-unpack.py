#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unpack a kernel source tarball without what the test tree never builds.

    kernel-tree-unpack.py TARBALL DIR

The members go into DIR with the tarball's top directory stripped, less
what no build of tests/lab/kernel-tree.config reads: the other
architectures, the drivers and tools it does not build, sound, samples
and the documentation. Every Kconfig, Makefile and Kbuild file stays
(kconfig and kbuild read them all), and so does the documentation file
the series changes. One pass over the tarball, and those members are
never written: of Debian's linux-source-6.1, 19,600 of 78,600 files.
Measured side by side here, quiet (2026-12-06): unpacking takes 16-18 s
against tar's 10-16 s, but git then commits in 7-9 s against 17-24 s,
23-26 CPU-s in all against 30-46, and the tree with its git objects
takes 0.5 GB against 2.9. A configuration that builds more names its
directories here.
"""
import sys
import tarfile

BUILT = {"arch/x86", "drivers/base", "drivers/char", "drivers/clocksource",
         "drivers/firmware", "drivers/net", "drivers/pci", "drivers/rtc",
         "drivers/tty", "drivers/virtio", "tools/arch", "tools/build",
         "tools/include", "tools/lib", "tools/objtool", "tools/scripts"}
NOT_BUILT = {"Documentation", "samples", "sound"}
CHANGED = {"Documentation/networking/udplite.rst"}  # by the series
READ_ALL = ("Kconfig", "Makefile", "Kbuild")


def built(path):
    parts = path.split("/")
    if parts[0] in NOT_BUILT:
        return False
    if parts[0] in ("arch", "drivers", "tools") and len(parts) > 2:
        if "/".join(parts[:2]) not in BUILT:
            return False
        # drivers/net: its own files (veth, virtio_net), no subdirectory
        if parts[:2] == ["drivers", "net"] and len(parts) > 3:
            return False
    return True


def keep(path):
    return (built(path) or path in CHANGED or
            path.rsplit("/", 1)[-1].startswith(READ_ALL))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: kernel-tree-unpack.py TARBALL DIR")
    kept = total = 0
    with tarfile.open(sys.argv[1], "r|*") as tf:
        for m in tf:
            _, _, name = m.name.partition("/")
            if not name or m.isdir():
                continue  # directories are made for the files in them
            total += 1
            if keep(name):
                m.name = name
                tf.extract(m, sys.argv[2])
                kept += 1
    print(f"kernel-tree: {kept} of {total} files unpacked "
          "(the rest is not built)", file=sys.stderr)


if __name__ == "__main__":
    main()
