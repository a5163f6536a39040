# SPDX-License-Identifier: GPL-2.0-only
# bash completion for perpkt, written by docs/completion.py from each
# command's --help (its option table): do not edit, run
#     python3 docs/completion.py build/perpkt docs/perpkt-completion.bash
# Installed by 'make install' (or 'cmake --install build') as
# share/bash-completion/completions/perpkt.

_perpkt_commands='record report resolve stat serve diff annotate table sweep restore merge'

# A command's options, in REPLY (set, not printed: each $(...) is a
# fork, and a completion should not take three)
_perpkt_options()
{
	REPLY=
	case $1 in
	record) REPLY='--output --force-output --repeat --restart --turn-on --turn-off --between --window-fifo --gap-fifo --fifo-timeout --duration --warmup --count --transport --size --gap --burst --gap-mode --net --peer --peer-key --echo --flows --client-cpu --server-cpu --placement --rps-cpus --irq-cpu --busy --no-wait --pid --per --event --period --freq --call-graph --no-call-graph --user --cpus --all-cpus --ring-pages --no-fallback --no-remote --remote-cpus --kernel --accel --vmlinux --qemu-arg --qemu-timeout --append --modules --config --guest-cpus --peer-kernel --guest-perpkt --exact --no-exact-paths --cache-model --window-marks --quiet --verbose --help' ;;
	report) REPLY='--input --format --stdio --by --sort --width --limit --full --threshold --callers --all-tasks --role --cpu --pid --all-conditions --anonymize --buckets --vmlinux --kallsyms --modules --force --side --quiet --verbose --help' ;;
	resolve) REPLY='--vmlinux --kallsyms --input --text-addr --build-id --force --buckets --modules --format --quiet --verbose --help' ;;
	stat) REPLY='--duration --warmup --count --transport --size --gap --burst --gap-mode --net --peer --peer-key --echo --flows --client-cpu --server-cpu --placement --rps-cpus --irq-cpu --busy --no-wait --pid --per --repeat --confidence --event --user --cpus --all-cpus --format --no-fallback --kernel --accel --vmlinux --qemu-arg --qemu-timeout --append --modules --config --guest-cpus --peer-kernel --guest-perpkt --exact --no-exact-paths --cache-model --quiet --verbose --help' ;;
	serve) REPLY='--bind --port --key --once --max-flows --quiet --verbose --help' ;;
	diff) REPLY='--format --by --all-tasks --limit --threshold --alias --convert-cycles-ghz --fail-if --anonymize --include-partial --allow-missing --force --buckets --vmlinux --side --role --cpu --pid --width --quiet --verbose --help' ;;
	annotate) REPLY='--input --format --vmlinux --force --source --width --quiet --verbose --help' ;;
	table) REPLY='--value --label --format --buckets --include-partial --anonymize --force --side --quiet --verbose --help' ;;
	sweep) REPLY='--output --duration --warmup --repeat --jobs --plan --placements --cpu-pairs --client-cpu --server-cpu --rps-cpus --irq-cpu --gap --size --transport --flows --burst --value --format --quiet --verbose --help' ;;
	restore) REPLY='--no-wait --quiet --verbose --help' ;;
	merge) REPLY='--output --force-output --quiet --verbose --help' ;;
	esac
}

# What the value of command $1's option $2 is, in REPLY: its choices,
# "file", "dir" or "none" (a number, a list, a name to type); nothing
# for an option without a value
_perpkt_value()
{
	REPLY=
	case "$1 $2" in
	'record --transport') REPLY='udp tcp pipe icmp' ;;
	'record --gap-mode') REPLY='sleep spin' ;;
	'record --net') REPLY='loopback veth' ;;
	'record --placement') REPLY='same smt shared-cache cross-cache cross-socket' ;;
	'record --accel') REPLY='auto kvm tcg' ;;
	'record --cache-model') REPLY='skylake skylake-server icelake-server zen3 neoverse-n1' ;;
	'record --output'|'record -o'|'record --window-fifo'|'record --gap-fifo'|'record --peer-key'|'record --kernel'|'record --vmlinux'|'record --config'|'record --peer-kernel'|'record --guest-perpkt') REPLY=file ;;
	'record --modules') REPLY=dir ;;
	'record --repeat'|'record -r'|'record --turn-on'|'record --turn-off'|'record --between'|'record --fifo-timeout'|'record --duration'|'record -d'|'record --warmup'|'record -w'|'record --count'|'record -n'|'record --size'|'record -s'|'record --gap'|'record --burst'|'record --peer'|'record --echo'|'record --flows'|'record --client-cpu'|'record --server-cpu'|'record --rps-cpus'|'record --irq-cpu'|'record --busy'|'record --pid'|'record -p'|'record --per'|'record --event'|'record -e'|'record --period'|'record -c'|'record --freq'|'record -F'|'record --cpus'|'record -C'|'record --ring-pages'|'record --remote-cpus'|'record --qemu-arg'|'record --qemu-timeout'|'record --append'|'record --guest-cpus') REPLY=none ;;
	'report --format') REPLY='text markdown json csv folded html svg' ;;
	'report --by') REPLY='function bucket file line cpu role' ;;
	'report --sort') REPLY='samples per-rt name' ;;
	'report --input'|'report -i'|'report --buckets'|'report --vmlinux'|'report --kallsyms') REPLY=file ;;
	'report --modules') REPLY=dir ;;
	'report --width'|'report --limit'|'report --threshold'|'report --callers'|'report --role'|'report --cpu'|'report --pid'|'report --side') REPLY=none ;;
	'resolve --format') REPLY='text json csv' ;;
	'resolve --vmlinux'|'resolve --kallsyms'|'resolve --input'|'resolve -i'|'resolve --buckets') REPLY=file ;;
	'resolve --modules') REPLY=dir ;;
	'resolve --text-addr'|'resolve --build-id') REPLY=none ;;
	'stat --transport') REPLY='udp tcp pipe icmp' ;;
	'stat --gap-mode') REPLY='sleep spin' ;;
	'stat --net') REPLY='loopback veth' ;;
	'stat --placement') REPLY='same smt shared-cache cross-cache cross-socket' ;;
	'stat --format') REPLY='text json' ;;
	'stat --accel') REPLY='auto kvm tcg' ;;
	'stat --cache-model') REPLY='skylake skylake-server icelake-server zen3 neoverse-n1' ;;
	'stat --peer-key'|'stat --kernel'|'stat --vmlinux'|'stat --config'|'stat --peer-kernel'|'stat --guest-perpkt') REPLY=file ;;
	'stat --modules') REPLY=dir ;;
	'stat --duration'|'stat -d'|'stat --warmup'|'stat -w'|'stat --count'|'stat -n'|'stat --size'|'stat -s'|'stat --gap'|'stat --burst'|'stat --peer'|'stat --echo'|'stat --flows'|'stat --client-cpu'|'stat --server-cpu'|'stat --rps-cpus'|'stat --irq-cpu'|'stat --busy'|'stat --pid'|'stat -p'|'stat --per'|'stat --repeat'|'stat -r'|'stat --confidence'|'stat --event'|'stat -e'|'stat --cpus'|'stat -C'|'stat --qemu-arg'|'stat --qemu-timeout'|'stat --append'|'stat --guest-cpus') REPLY=none ;;
	'serve --key'|'serve -k') REPLY=file ;;
	'serve --bind'|'serve -b'|'serve --port'|'serve -p'|'serve --max-flows') REPLY=none ;;
	'diff --format') REPLY='text markdown json csv html folded svg' ;;
	'diff --by') REPLY='function bucket line' ;;
	'diff --alias'|'diff --buckets'|'diff --vmlinux') REPLY=file ;;
	'diff --limit'|'diff --threshold'|'diff --convert-cycles-ghz'|'diff --fail-if'|'diff --side'|'diff --role'|'diff --cpu'|'diff --pid'|'diff --width') REPLY=none ;;
	'annotate --format') REPLY='text json' ;;
	'annotate --input'|'annotate -i'|'annotate --vmlinux') REPLY=file ;;
	'annotate --source') REPLY=dir ;;
	'annotate --width') REPLY=none ;;
	'table --value') REPLY='latency latency-p50 latency-p99 total busy bucket: function:' ;;
	'table --format') REPLY='text markdown csv json' ;;
	'table --buckets') REPLY=file ;;
	'table --label'|'table --side') REPLY=none ;;
	'sweep --format') REPLY='text markdown csv json' ;;
	'sweep --output'|'sweep -o') REPLY=dir ;;
	'sweep --duration'|'sweep -d'|'sweep --warmup'|'sweep -w'|'sweep --repeat'|'sweep --jobs'|'sweep -j'|'sweep --plan'|'sweep --placements'|'sweep --cpu-pairs'|'sweep --client-cpu'|'sweep --server-cpu'|'sweep --rps-cpus'|'sweep --irq-cpu'|'sweep --gap'|'sweep --size'|'sweep --transport'|'sweep --flows'|'sweep --burst'|'sweep --value') REPLY=none ;;
	'merge --output'|'merge -o') REPLY=file ;;
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
