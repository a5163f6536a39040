#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Load a do-nothing eBPF socket filter named argv[1] and hold it until
killed, so its JIT-ed code is listed in /proc/kallsyms as
bpf_prog_<tag>_<name> [bpf]. Prints "loaded FD" once it is, exit 3 with
the reason when the kernel refuses (bpf(2) by its x86-64 number: the
test runs where python has no bpf module)."""
import ctypes, os, struct, sys, signal
libc = ctypes.CDLL(None, use_errno=True)
# r0 = 0; exit
insns = struct.pack("<BBhi", 0xb7, 0, 0, 0) + struct.pack("<BBhi", 0x95, 0, 0, 0)
ib = ctypes.create_string_buffer(insns, len(insns))
lic = ctypes.create_string_buffer(b"GPL")
attr = bytearray(128)  # union bpf_attr, BPF_PROG_LOAD part
struct.pack_into("<IIQQ", attr, 0, 1, 2, ctypes.addressof(ib), ctypes.addressof(lic))
name = sys.argv[1].encode()[:15]
attr[48:48 + len(name)] = name
ab = ctypes.create_string_buffer(bytes(attr), len(attr))
if os.uname().machine != "x86_64":
    print("bpf: syscall number known for x86_64 only", flush=True); sys.exit(3)
fd = libc.syscall(321, 5,  # __NR_bpf, BPF_PROG_LOAD
     ab, len(attr))
if fd < 0:
    print("bpf:", os.strerror(ctypes.get_errno()), flush=True); sys.exit(3)
print("loaded", fd, flush=True)
signal.pause()
