#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Rewrite the COMMANDS and "<COMMAND> OPTIONS" sections of docs/perpkt.1
# from each command's --help, which is printed from its option table
# (src/commands/options.c), the one source of option text:
#     python3 docs/man-options.py build/perpkt docs/perpkt.1 [OUT]
# The build makes build/perpkt.1 so (the page installed); with OUT the
# page is written there, else rewritten in place.
# tests/cli/t0003-help-man-sync.sh fails when docs/perpkt.1 is not what
# this makes.
import re
import subprocess
import sys


def commands(perpkt):
    out = subprocess.run([perpkt, "--help"], capture_output=True, text=True).stdout
    names, on = [], False
    for line in out.splitlines():
        if line.startswith("commands:"):
            on = True
        elif on and re.match(r"^  [a-z]", line):
            names.append(line.split()[0])
        elif on and not line.strip():
            break
    return names


def esc(text):
    return text.replace("\\", "\\\\").replace("-", "\\-")


def summaries(perpkt):
    out = subprocess.run([perpkt, "--help"], capture_output=True, text=True).stdout
    lines = [".SH COMMANDS"]
    for line in out.splitlines():
        m = re.match(r"^  ([a-z]+)\s+(.*)$", line)
        if m:
            lines += [".TP", ".B " + m.group(1), esc(m.group(2)[:1].upper() + m.group(2)[1:]) + "."]
    return lines


def section(perpkt, cmd):
    out = subprocess.run([perpkt, cmd, "--help"], capture_output=True, text=True).stdout
    items = []
    for line in out.splitlines():
        m = re.match(r"^ {2,6}(-\w, )?(--[a-z][a-z0-9-]*)( [A-Z][A-Z\[\]:|,]*)?\s+(.*)$", line)
        if m:
            items.append([m.group(1), m.group(2), (m.group(3) or "").strip(), m.group(4)])
        elif items and re.match(r"^\s{20,}\S", line):
            items[-1][3] += " " + line.strip()
    lines = [".SH %s OPTIONS" % cmd.upper()]
    for short, opt, arg, desc in items:
        names = ("\\fB%s\\fR, " % esc(short.rstrip(", ")) if short else "") + "\\fB%s\\fR" % esc(opt)
        lines += [".TP", names + (" \\fI%s\\fR" % esc(arg) if arg else ""), esc(desc)]
    return lines


def main():
    perpkt, man = sys.argv[1], sys.argv[2]
    out = sys.argv[3] if len(sys.argv) > 3 else man
    text = open(man).read().splitlines()
    keep, skipping = [], False
    for line in text:
        if re.match(r"^\.SH ([A-Z]+ OPTIONS|COMMANDS)$", line):
            skipping = True
            continue
        if skipping and line.startswith(".SH "):
            skipping = False
        if not skipping:
            keep.append(line)
    # generated sections go right after DESCRIPTION
    desc = next(i for i, l in enumerate(keep) if l == ".SH DESCRIPTION")
    at = next(i for i, l in enumerate(keep) if i > desc and l.startswith(".SH "))
    gen = summaries(perpkt)
    for cmd in commands(perpkt):
        gen += section(perpkt, cmd)
    open(out, "w").write("\n".join(keep[:at] + gen + keep[at:]) + "\n")


main()
