#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Attach a do-nothing tc program named argv[1] by tcx (a bpf link on
the ingress of interface argv[2], Linux 6.6) and hold it until killed:
`tc filter show` does not list it, bpf(2) BPF_PROG_QUERY does. Prints
"held" once attached, exit 3 with the reason when the kernel refuses
(bpf(2) by its x86-64 number: the test runs where python has no bpf
module)."""
import ctypes, os, signal, socket, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
if os.uname().machine != "x86_64":
    print("bpf: syscall number known for x86_64 only", flush=True); sys.exit(3)


def bpf(cmd, attr):
    buf = ctypes.create_string_buffer(bytes(attr), len(attr))
    r = libc.syscall(321, cmd, buf, len(attr))
    if r < 0:
        print("bpf:", os.strerror(ctypes.get_errno()), flush=True); sys.exit(3)
    return r


# r0 = 0 (TC_ACT_OK); exit
insns = struct.pack("<BBhi", 0xb7, 0, 0, 0) + struct.pack("<BBhi", 0x95, 0, 0, 0)
ib = ctypes.create_string_buffer(insns, len(insns))
lic = ctypes.create_string_buffer(b"GPL")
attr = bytearray(128)  # union bpf_attr, BPF_PROG_LOAD: BPF_PROG_TYPE_SCHED_CLS
struct.pack_into("<IIQQ", attr, 0, 3, 2, ctypes.addressof(ib), ctypes.addressof(lic))
name = sys.argv[1].encode()[:15]
attr[48:48 + len(name)] = name
prog = bpf(5, attr)
link = bytearray(128)  # BPF_LINK_CREATE: prog_fd, target_ifindex, BPF_TCX_INGRESS
struct.pack_into("<III", link, 0, prog, socket.if_nametoindex(sys.argv[2]), 46)
bpf(28, link)
print("held", flush=True)
signal.pause()
