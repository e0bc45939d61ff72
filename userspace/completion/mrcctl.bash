# SPDX-License-Identifier: GPL-2.0
# bash completion for mrcctl: options, objects, commands, keywords and
# their values, device names after "dev". Source it, or install it as
# /usr/share/bash-completion/completions/mrcctl.

# $1: words, $2: the word being completed.
_mrcctl_reply()
{
	mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")
}

_mrcctl_devices()
{
	local d
	for d in /sys/class/net/*; do
		[ -e "$d" ] && printf '%s\n' "${d##*/}"
	done
}

# $1: object, $2: command, $3: the keyword before the cursor.
# Prints the values that keyword takes; returns 1 when it takes none.
_mrcctl_values()
{
	case "$1:$3" in
	plane:dev) _mrcctl_devices ;;
	plane:state) echo "up down denied" ;;
	plane:mtu) echo "auto" ;;
	plane:offload) echo "on off auto" ;;
	ev-profile:state | cc-profile:state) echo "init offline online" ;;
	ev-profile:mode) echo "auto explicit generated" ;;
	ev-profile:events) echo "none good skip assumed-bad denied" ;;
	ev-profile:ev-state | path:state) echo "good assumed-bad denied" ;;
	cc-profile:algorithm) echo "uet-1.0-nscc nscc" ;;
	cc-profile:disable-qa) echo "on off" ;;
	plane:id | plane:addr | plane:addr6 | plane:port | plane:weight | \
	ev-profile:id | ev-profile:count | ev-profile:min-active | \
	ev-profile:seed | ev-profile:evs | ev-profile:ev | ev-profile:plane | \
	cc-profile:id | cc-profile:base-rtt | cc-profile:target-delay | \
	cc-profile:max-cwnd | cc-profile:eta | cc-profile:fi | \
	cc-profile:fi-scale | cc-profile:gamma | cc-profile:max-md-jump | \
	cc-profile:qa-gate | cc-profile:qa-threshold | \
	cc-profile:adjust-bytes | cc-profile:adjust-period | \
	conn:id | path:conn | path:ev | stats:plane | telemetry:conn | \
	telemetry:plane)
		echo "" ;;  # a number or address: nothing to offer
	*) return 1 ;;
	esac
}

# $1: object, $2: command. Prints the keywords of that command.
_mrcctl_keywords()
{
	local nscc="base-rtt target-delay max-cwnd eta fi fi-scale gamma max-md-jump
		qa-gate qa-threshold disable-qa adjust-bytes adjust-period"
	case "$1:$2" in
	plane:add) echo "dev id addr addr6 port weight mtu state offload" ;;
	plane:set) echo "id dev addr addr6 port weight mtu state offload" ;;
	plane:del | plane:show) echo "id dev" ;;
	ev-profile:add) echo "id mode count min-active events seed state" ;;
	ev-profile:set)
		echo "id mode count min-active events seed state evs ev plane ev-state" ;;
	ev-profile:show | ev-profile:del | cc-profile:show | cc-profile:del | conn:show)
		echo "id" ;;
	cc-profile:add | cc-profile:set) echo "id algorithm state $nscc" ;;
	path:show) echo "conn" ;;
	path:set) echo "conn ev state" ;;
	path:probe) echo "conn ev" ;;
	stats:show) echo "plane" ;;
	telemetry:show) echo "conn plane" ;;
	telemetry:rtt) echo "plane" ;;
	esac
}

_mrcctl()
{
	local cur prev words cword
	if declare -F _init_completion > /dev/null; then
		_init_completion || return
	else	# without the bash-completion package
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
	fi

	local objects="info plane ev-profile cc-profile conn path peer stats monitor telemetry help"
	local options="-json -pretty -stats -Version -help"
	local i object="" command="" object_at=0
	for ((i = 1; i < cword; i++)); do
		case "${words[i]}" in
		-*) continue ;;
		esac
		object="${words[i]}"
		object_at=$i
		break
	done

	if [ -z "$object" ]; then
		if [[ "$cur" == -* ]]; then
			_mrcctl_reply "$options" "$cur"
		else
			_mrcctl_reply "$objects" "$cur"
		fi
		return
	fi

	local commands
	case "$object" in
	plane) commands="add del set show help" ;;
	ev-profile | cc-profile) commands="add set show del help" ;;
	conn | peer) commands="show help" ;;
	path) commands="show set probe help" ;;
	stats) commands="show plane help" ;;
	telemetry) commands="show rtt link help" ;;
	info | monitor) commands="help" ;;
	*) return ;;
	esac

	if ((cword == object_at + 1)); then
		_mrcctl_reply "$commands" "$cur"
		return
	fi
	command="${words[object_at + 1]}"
	if [ "$object" = stats ] ||
	   { [ "$object" = telemetry ] && [[ "$command" != @(show|rtt|link|help) ]]; }; then
		[ "$command" = help ] && return
		command=show
	fi

	local values
	if values=$(_mrcctl_values "$object" "$command" "$prev"); then
		_mrcctl_reply "$values" "$cur"
		return
	fi
	_mrcctl_reply "$(_mrcctl_keywords "$object" "$command")" "$cur"
}
complete -F _mrcctl mrcctl
