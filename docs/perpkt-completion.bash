# SPDX-License-Identifier: GPL-2.0-only
# bash completion for perpkt, written by docs/completion.py from each
# command's --help (its option table): do not edit, run
#     python3 docs/completion.py build/perpkt docs/perpkt-completion.bash
# Installed by 'make install' (or 'cmake --install build') as
# share/bash-completion/completions/perpkt.

_perpkt_commands='record report resolve stat serve diff annotate table sweep restore merge'

# A command's options
_perpkt_options()
{
	case $1 in
	record) echo '--output --force-output --repeat --restart --turn-on --turn-off --between --window-fifo --gap-fifo --duration --warmup --count --transport --size --gap --burst --gap-mode --net --peer --peer-key --echo --flows --client-cpu --server-cpu --placement --rps-cpus --irq-cpu --busy --no-wait --pid --per --event --period --freq --call-graph --no-call-graph --user --cpus --all-cpus --ring-pages --no-fallback --no-remote --remote-cpus --kernel --accel --vmlinux --qemu-arg --qemu-timeout --append --modules --config --guest-cpus --peer-kernel --guest-perpkt --exact --no-exact-paths --cache-model --window-marks --quiet --verbose --help' ;;
	report) echo '--input --format --stdio --by --sort --width --limit --full --threshold --callers --all-tasks --role --cpu --pid --all-conditions --anonymize --buckets --vmlinux --kallsyms --modules --force --side --quiet --verbose --help' ;;
	resolve) echo '--vmlinux --kallsyms --input --text-addr --build-id --force --buckets --modules --format --quiet --verbose --help' ;;
	stat) echo '--duration --warmup --count --transport --size --gap --burst --gap-mode --net --peer --peer-key --echo --flows --client-cpu --server-cpu --placement --rps-cpus --irq-cpu --busy --no-wait --pid --per --repeat --confidence --event --user --cpus --all-cpus --format --no-fallback --kernel --accel --vmlinux --qemu-arg --qemu-timeout --append --modules --config --guest-cpus --peer-kernel --guest-perpkt --exact --no-exact-paths --cache-model --quiet --verbose --help' ;;
	serve) echo '--bind --port --key --once --max-flows --quiet --verbose --help' ;;
	diff) echo '--format --by --all-tasks --limit --threshold --alias --convert-cycles-ghz --fail-if --anonymize --include-partial --allow-missing --force --buckets --vmlinux --side --role --cpu --pid --width --quiet --verbose --help' ;;
	annotate) echo '--input --format --vmlinux --force --source --width --quiet --verbose --help' ;;
	table) echo '--value --label --format --buckets --include-partial --anonymize --force --side --quiet --verbose --help' ;;
	sweep) echo '--output --duration --warmup --repeat --jobs --plan --placements --cpu-pairs --client-cpu --server-cpu --rps-cpus --irq-cpu --gap --size --transport --flows --burst --value --format --quiet --verbose --help' ;;
	restore) echo '--no-wait --quiet --verbose --help' ;;
	merge) echo '--output --force-output --quiet --verbose --help' ;;
	esac
}

# What the value of command $1's option $2 is: its choices, "file",
# "dir" or "none" (a number, a list, a name to type); nothing for an
# option without a value
_perpkt_value()
{
	case "$1 $2" in
	'record --transport') echo 'udp tcp pipe icmp' ;;
	'record --gap-mode') echo 'sleep spin' ;;
	'record --net') echo 'loopback veth' ;;
	'record --placement') echo 'same smt shared-cache cross-cache cross-socket' ;;
	'record --accel') echo 'auto kvm tcg' ;;
	'record --cache-model') echo 'skylake skylake-server icelake-server zen3 neoverse-n1' ;;
	'record --output'|'record -o'|'record --window-fifo'|'record --gap-fifo'|'record --peer-key'|'record --kernel'|'record --vmlinux'|'record --config'|'record --peer-kernel'|'record --guest-perpkt') echo file ;;
	'record --modules') echo dir ;;
	'record --repeat'|'record -r'|'record --turn-on'|'record --turn-off'|'record --between'|'record --duration'|'record -d'|'record --warmup'|'record -w'|'record --count'|'record -n'|'record --size'|'record -s'|'record --gap'|'record --burst'|'record --peer'|'record --echo'|'record --flows'|'record --client-cpu'|'record --server-cpu'|'record --rps-cpus'|'record --irq-cpu'|'record --busy'|'record --pid'|'record -p'|'record --per'|'record --event'|'record -e'|'record --period'|'record -c'|'record --freq'|'record -F'|'record --cpus'|'record -C'|'record --ring-pages'|'record --remote-cpus'|'record --qemu-arg'|'record --qemu-timeout'|'record --append'|'record --guest-cpus') echo none ;;
	'report --format') echo 'text markdown json csv folded html svg' ;;
	'report --by') echo 'function bucket file line cpu role' ;;
	'report --sort') echo 'samples per-rt name' ;;
	'report --input'|'report -i'|'report --buckets'|'report --vmlinux'|'report --kallsyms') echo file ;;
	'report --modules') echo dir ;;
	'report --width'|'report --limit'|'report --threshold'|'report --callers'|'report --role'|'report --cpu'|'report --pid'|'report --side') echo none ;;
	'resolve --format') echo 'text json csv' ;;
	'resolve --vmlinux'|'resolve --kallsyms'|'resolve --input'|'resolve -i'|'resolve --buckets') echo file ;;
	'resolve --modules') echo dir ;;
	'resolve --text-addr'|'resolve --build-id') echo none ;;
	'stat --transport') echo 'udp tcp pipe icmp' ;;
	'stat --gap-mode') echo 'sleep spin' ;;
	'stat --net') echo 'loopback veth' ;;
	'stat --placement') echo 'same smt shared-cache cross-cache cross-socket' ;;
	'stat --format') echo 'text json' ;;
	'stat --accel') echo 'auto kvm tcg' ;;
	'stat --cache-model') echo 'skylake skylake-server icelake-server zen3 neoverse-n1' ;;
	'stat --peer-key'|'stat --kernel'|'stat --vmlinux'|'stat --config'|'stat --peer-kernel'|'stat --guest-perpkt') echo file ;;
	'stat --modules') echo dir ;;
	'stat --duration'|'stat -d'|'stat --warmup'|'stat -w'|'stat --count'|'stat -n'|'stat --size'|'stat -s'|'stat --gap'|'stat --burst'|'stat --peer'|'stat --echo'|'stat --flows'|'stat --client-cpu'|'stat --server-cpu'|'stat --rps-cpus'|'stat --irq-cpu'|'stat --busy'|'stat --pid'|'stat -p'|'stat --per'|'stat --repeat'|'stat -r'|'stat --confidence'|'stat --event'|'stat -e'|'stat --cpus'|'stat -C'|'stat --qemu-arg'|'stat --qemu-timeout'|'stat --append'|'stat --guest-cpus') echo none ;;
	'serve --key'|'serve -k') echo file ;;
	'serve --bind'|'serve -b'|'serve --port'|'serve -p'|'serve --max-flows') echo none ;;
	'diff --format') echo 'text markdown json csv html folded svg' ;;
	'diff --by') echo 'function bucket line' ;;
	'diff --alias'|'diff --buckets'|'diff --vmlinux') echo file ;;
	'diff --limit'|'diff --threshold'|'diff --convert-cycles-ghz'|'diff --fail-if'|'diff --side'|'diff --role'|'diff --cpu'|'diff --pid'|'diff --width') echo none ;;
	'annotate --format') echo 'text json' ;;
	'annotate --input'|'annotate -i'|'annotate --vmlinux') echo file ;;
	'annotate --source') echo dir ;;
	'annotate --width') echo none ;;
	'table --value') echo 'latency latency-p50 latency-p99 total busy bucket: function:' ;;
	'table --format') echo 'text markdown csv json' ;;
	'table --buckets') echo file ;;
	'table --label'|'table --side') echo none ;;
	'sweep --format') echo 'text markdown csv json' ;;
	'sweep --output'|'sweep -o') echo dir ;;
	'sweep --duration'|'sweep -d'|'sweep --warmup'|'sweep -w'|'sweep --repeat'|'sweep --jobs'|'sweep -j'|'sweep --plan'|'sweep --placements'|'sweep --cpu-pairs'|'sweep --client-cpu'|'sweep --server-cpu'|'sweep --rps-cpus'|'sweep --irq-cpu'|'sweep --gap'|'sweep --size'|'sweep --transport'|'sweep --flows'|'sweep --burst'|'sweep --value') echo none ;;
	'merge --output'|'merge -o') echo file ;;
	esac
}

_perpkt()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]}
	local prev=${COMP_WORDS[COMP_CWORD-1]} val i

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
	val=$(_perpkt_value "$cmd" "$prev")
	case $val in
	'')
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_perpkt_options "$cmd")" -- "$cur"))
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
