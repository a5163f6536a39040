# SPDX-License-Identifier: GPL-2.0-only
# perpkt's --help read back: the commands of 'perpkt --help' and each
# command's options, as its option table printed them
# (src/commands/options.c). The generators of the man page's options
# (man-options.py) and of the bash completion (completion.py) read
# them here, so both read --help the same way.
import re
import subprocess

# "  -i, --input FILE       profile...": the value's name follows the
# long name after one space and starts upper case (a help line always
# starts lower case); a help of its own line leaves the rest empty
OPTION = re.compile(r"^ {2,6}(?:-(\w), )?--([a-z][a-z0-9-]*)"
                    r"(?: ([A-Z]\S*))?(?: +(.*))?$")


def run_help(perpkt, *cmd):
    return subprocess.run([perpkt, *cmd, "--help"], capture_output=True,
                          text=True, check=True).stdout


def command_lines(perpkt):
    """(name, summary) of each command, in --help's order"""
    out, on = [], False
    for line in run_help(perpkt).splitlines():
        if line.startswith("commands:"):
            on = True
        elif on and re.match(r"^  [a-z]", line):
            name, summary = line.split(None, 1)
            out.append((name, summary.strip()))
        elif on and not line.strip():
            break
    return out


def commands(perpkt):
    return [name for name, _ in command_lines(perpkt)]


def options(perpkt, cmd):
    """[short or None, long (without --), value name or "", help] of
    each option in cmd's --help, its help lines joined"""
    items = []
    for line in run_help(perpkt, cmd).splitlines():
        m = OPTION.match(line)
        if m:
            items.append([m.group(1), m.group(2), m.group(3) or "",
                          m.group(4) or ""])
        elif items and re.match(r"^\s{20,}\S", line):
            items[-1][3] = (items[-1][3] + " " + line.strip()).strip()
    return items
