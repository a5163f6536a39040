#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Write perpkt's bash completion from each command's --help, which is
# printed from its option table (src/commands/options.c), the one
# source of option text:
#     python3 docs/completion.py build/perpkt OUT
# The build makes build/perpkt-completion.bash so (the file installed
# as share/bash-completion/completions/perpkt); docs/perpkt-completion.bash
# is the tree's copy, which tests/cli/t0003-help-man-sync.sh keeps
# what this makes. Each command's options, which take a value, and the
# values an option's help names as its choices (--format's come from
# its renderer table) are written out, so completing runs nothing.
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helptext  # noqa: E402

# value names whose help lists the choices ("--net NAME  loopback
# (default) or veth: ..."), and those that name a file or a directory
CHOICE_ARGS = ("FMT", "KEY", "NAME", "MODE", "MODEL", "REL", "V")
FILE_ARGS = ("FILE", "IMAGE|DIR", "CTL[,ACK]")
DIR_ARGS = ("DIR",)


def word(w):
    return re.match(r"^[a-z][a-z0-9-]*:?$", w) and w not in ("a", "an", "the")


def choices(desc):
    """The values a help line names: "text (default, 72 columns),
    markdown, json ... or html" gives text markdown json ... html. A
    colon in the first item ends a prefix ("table format: text"), in a
    later one the list ("veth: two namespaces ..."); "bucket:NAME" is
    offered as "bucket:". Fewer than two: none."""
    d = re.sub(r"\([^)]*\)", "", desc)
    d = d.split(";")[0]                 # "cpu or role; or two keys"
    parts = d.replace(" or ", ",").split(",")
    out = []
    for i, w in enumerate(parts):
        stop = False
        if re.search(r"[a-z]:[A-Z]", w):    # bucket:NAME
            out.append(w[:w.index(":") + 1].replace(" ", ""))
            continue
        if ": " in w and i == 0:            # "table format: text"
            w = w[w.rindex(": ") + 2:]
        elif ": " in w:                     # "veth: two namespaces"
            stop = True
            w = w[:w.index(":")]
        ws = w.split()
        if ws and i == 0:
            out.append(ws[-1])
        elif ws and (len(ws) == 1 or i == len(parts) - 1 or stop):
            out.append(ws[0])
        if stop:
            break
    out = [w for w in out if word(w)]
    return out if len(out) >= 2 else []


def quote(words):
    return "'" + " ".join(words) + "'"


def pattern(cmd, forms):
    return "|".join("'%s %s'" % (cmd, f) for f in forms)


def main():
    perpkt, out = sys.argv[1], sys.argv[2]
    cmds = helptext.commands(perpkt)
    opts, values = [], []
    for cmd in cmds:
        names, files, dirs, none = [], [], [], []
        for short, name, arg, desc in helptext.options(perpkt, cmd):
            names.append("--" + name)
            if not arg:
                continue
            forms = ["--" + name] + (["-" + short] if short else [])
            vals = choices(desc) if arg in CHOICE_ARGS else []
            if vals:
                values.append("\t%s) REPLY=%s ;;" % (pattern(cmd, forms), quote(vals)))
            elif arg in FILE_ARGS:
                files += forms
            elif arg in DIR_ARGS:
                dirs += forms
            else:
                none += forms
        opts.append("\t%s) REPLY=%s ;;" % (cmd, quote(names)))
        for kind, forms in (("file", files), ("dir", dirs), ("none", none)):
            if forms:
                values.append("\t%s) REPLY=%s ;;" % (pattern(cmd, forms), kind))
    text = TEMPLATE % {"commands": " ".join(cmds), "options": "\n".join(opts),
                       "values": "\n".join(values)}
    with open(out + ".tmp", "w") as f:
        f.write(text)
    os.rename(out + ".tmp", out)


TEMPLATE = r"""# SPDX-License-Identifier: GPL-2.0-only
# bash completion for perpkt, written by docs/completion.py from each
# command's --help (its option table): do not edit, run
#     python3 docs/completion.py build/perpkt docs/perpkt-completion.bash
# Installed by 'make install' (or 'cmake --install build') as
# share/bash-completion/completions/perpkt.

_perpkt_commands='%(commands)s'

# A command's options, in REPLY (set, not printed: each $(...) is a
# fork, and a completion should not take three)
_perpkt_options()
{
	REPLY=
	case $1 in
%(options)s
	esac
}

# What the value of command $1's option $2 is, in REPLY: its choices,
# "file", "dir" or "none" (a number, a list, a name to type); nothing
# for an option without a value
_perpkt_value()
{
	REPLY=
	case "$1 $2" in
%(values)s
	esac
}

_perpkt()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]}
	local prev=${COMP_WORDS[COMP_CWORD-1]} val i REPLY

	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$_perpkt_commands --help --version" -- "$cur"))
		return
	fi
	# after "--", a command of one's own and its arguments
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = -- ]; then
			if [ $((i + 1)) -eq "$COMP_CWORD" ]; then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return
		fi
	done
	_perpkt_value "$cmd" "$prev"
	val=$REPLY
	case $val in
	'')
		if [[ $cur == -* ]]; then
			_perpkt_options "$cmd"
			COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
			return
		fi ;;
	file)
		case $prev in
		-i|--input)
			# profiles are JSON: offer those and directories to descend into
			COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
			return ;;
		esac ;;
	dir)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	none)
		COMPREPLY=()
		return ;;
	*)
		COMPREPLY=($(compgen -W "$val" -- "$cur"))
		return ;;
	esac
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _perpkt perpkt
"""

main()
