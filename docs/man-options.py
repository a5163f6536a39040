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
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helptext  # noqa: E402


def esc(text):
    return text.replace("\\", "\\\\").replace("-", "\\-")


def summaries(perpkt):
    lines = [".SH COMMANDS"]
    for name, summary in helptext.command_lines(perpkt):
        lines += [".TP", ".B " + name, esc(summary[:1].upper() + summary[1:]) + "."]
    return lines


def section(perpkt, cmd):
    lines = [".SH %s OPTIONS" % cmd.upper()]
    for short, opt, arg, desc in helptext.options(perpkt, cmd):
        names = ("\\fB%s\\fR, " % esc("-" + short) if short else "") + "\\fB%s\\fR" % esc("--" + opt)
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
    for cmd in helptext.commands(perpkt):
        gen += section(perpkt, cmd)
    open(out, "w").write("\n".join(keep[:at] + gen + keep[at:]) + "\n")


main()
