# bash completion for rdmadiag(8)                          -*- shell-script -*-
# The candidates come from the binary itself (`rdmadiag __complete CWORD WORD...`),
# which reads its own command tables, so new commands complete without edits here.

_rdmadiag()
{
	local cur words cword
	if declare -F _init_completion >/dev/null; then
		# keep --opt=value and DEV:... in one word; we trim below
		_init_completion -n =: || return
	else
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
		cur=${COMP_WORDS[COMP_CWORD]}
	fi

	# Run the binary being completed when it was given by path (./rdmadiag/rdmadiag).
	local bin=${words[0]}
	[[ $bin == */* && -x $bin ]] || bin=rdmadiag

	local -a cands
	mapfile -t cands < <("$bin" __complete "$cword" "${words[@]:0:cword}" "$cur" 2>/dev/null)

	case ${cands[0]-} in
	:file)
		if declare -F _filedir >/dev/null; then _filedir; else mapfile -t COMPREPLY < <(compgen -f -- "$cur"); fi
		return
		;;
	:dir)
		if declare -F _filedir >/dev/null; then _filedir -d; else mapfile -t COMPREPLY < <(compgen -d -- "$cur"); fi
		return
		;;
	esac
	# A last line ":host" adds the shell's host names to the candidates
	# before it (the peers of recent path tests).
	if ((${#cands[@]})) && [[ ${cands[-1]} == :host ]]; then
		unset 'cands[-1]'
		if declare -F _known_hosts_real >/dev/null; then
			_known_hosts_real -- "$cur"
		else
			mapfile -t COMPREPLY < <(compgen -A hostname -- "$cur")
		fi
		COMPREPLY=("${cands[@]}" "${COMPREPLY[@]}")
	else
		COMPREPLY=("${cands[@]}")
	fi

	# Readline replaces only the text after the last word-break character
	# (= and : by default), so drop what comes before it from each candidate:
	# DEV:..., --opt=value, and IPv6 peers (fd00:77::2) alike.
	if [[ $cur == *[=:]* ]]; then
		local breaks=${COMP_WORDBREAKS//[^=:]/}
		if [[ -n $breaks ]]; then
			local head=${cur%"${cur##*["$breaks"]}"}
			COMPREPLY=("${COMPREPLY[@]#"$head"}")
		fi
	fi
} &&
	complete -F _rdmadiag rdmadiag

# ex: filetype=sh
