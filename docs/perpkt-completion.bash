# SPDX-License-Identifier: GPL-2.0-only
# bash completion for perpkt. Commands, options and option values are read
# from 'perpkt --help' and 'perpkt CMD --help' when completing, so they
# cannot drift from the program. Installed by 'make install' (or
# 'cmake --install build') as share/bash-completion/completions/perpkt.

_perpkt_commands()
{
	perpkt --help 2>/dev/null |
		awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'
}

# The values an option's help lists, for options whose placeholder names
# a choice (FMT, KEY, NAME, MODE, REL, V): "--format FMT  text (default,
# 72 columns), markdown, json ... or html" gives text markdown json ...
# html. A colon in the first item ends a prefix ("table format: text"),
# in a later one the list ("veth: two namespaces ...");
# "bucket:NAME" is offered as "bucket:". Nothing for other options.
_perpkt_values()
{
	perpkt "$1" --help 2>/dev/null | awk -v opt="$2" '
		function word(w) {
			if (w ~ /^[a-z][a-z0-9-]*:?$/ && w !~ /^(a|an|the)$/)
				out = out " " w
		}
		function flush(  n, i, w, k, parts, ws, stop) {
			if (done++)
				return
			gsub(/\([^)]*\)/, "", d)
			sub(/;.*/, "", d)		# "cpu or role; or two keys"
			gsub(/ or /, ",", d)
			n = split(d, parts, ",")
			for (i = 1; i <= n && !stop; i++) {
				w = parts[i]
				if (w ~ /[a-z]:[A-Z]/) {	# bucket:NAME
					sub(/:.*/, ":", w)
					gsub(/ /, "", w)
					word(w)
					continue
				}
				if (w ~ /: / && i == 1)		# "table format: text"
					sub(/^.*: /, "", w)
				else if (w ~ /: /) {		# "veth: two namespaces"
					stop = 1
					sub(/:.*/, "", w)
				}
				k = split(w, ws, " ")
				if (k == 0)
					continue
				if (i == 1)
					word(ws[k])
				else if (k == 1 || i == n || stop)
					word(ws[1])
			}
			if (split(out, ws, " ") >= 2)
				print out
		}
		/^  +(-[a-zA-Z0-9], )?--/ && match($0, /[^ ]/) <= 7 {
			if (on) { flush(); exit }
			line = $0
			sub(/^ *(-[a-zA-Z0-9], )?/, "", line)
			split(line, f, " ")
			if (f[1] == opt && f[2] ~ /^(FMT|KEY|NAME|MODE|REL|V)$/) {
				on = 1
				d = line
				sub(/^[^ ]+ +[^ ]+ +/, "", d)
			}
			next
		}
		on && match($0, /[^ ]/) > 10 { x = $0; sub(/^ +/, " ", x); d = d x; next }
		on { flush(); exit }
		END { if (on) flush() }'
}

_perpkt()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]}
	local prev=${COMP_WORDS[COMP_CWORD-1]} vals

	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$(_perpkt_commands) --help --version" -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(perpkt "$cmd" --help 2>/dev/null |
			grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)" -- "$cur"))
		return
	fi
	case $prev in
	-i|--input)
		# profiles are JSON: offer those and directories to descend into
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
		return ;;
	--*)
		vals=$(_perpkt_values "$cmd" "$prev")
		if [ -n "$vals" ]; then
			COMPREPLY=($(compgen -W "$vals" -- "$cur"))
			return
		fi ;;
	esac
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _perpkt perpkt
