# SPDX-License-Identifier: GPL-2.0-only
# bash completion for perpkt. Commands and options are read from
# 'perpkt --help' and 'perpkt CMD --help' when completing, so they cannot
# drift from the program. Install: source it, or copy it to
# /usr/share/bash-completion/completions/perpkt.

_perpkt_commands()
{
	perpkt --help 2>/dev/null |
		awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'
}

# The values of --format: the renderer table, as 'perpkt CMD --help' lists it.
_perpkt_formats()
{
	perpkt "$1" --help 2>/dev/null | awk '
		/^ +--format FMT/ { on = 1; sub(/^ +--format FMT +/, ""); print; next }
		on && /^                    / { print; next }
		{ on = 0 }' | sed 's/([^)]*)//g; s/,/ /g; s/ or / /g'
}

_perpkt()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]}
	local prev=${COMP_WORDS[COMP_CWORD-1]}

	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$(_perpkt_commands) --help --version" -- "$cur"))
		return
	fi
	if [ "$prev" = --format ]; then
		COMPREPLY=($(compgen -W "$(_perpkt_formats "$cmd")" -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(perpkt "$cmd" --help 2>/dev/null |
			grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _perpkt perpkt
