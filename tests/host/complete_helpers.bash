# Drives the real bash and zsh completion functions of completions/ the way the
# shells do: bash with COMP_WORDS/COMP_CWORD/COMP_LINE split like readline
# (spaces, and "=" ":" as separate words), zsh with words/CURRENT under compinit.
REPO=$BATS_TEST_DIRNAME/../..
PATH=$REPO/rdmadiag:$PATH
export PATH

# bash_complete LINE: prints COMPREPLY, one a line, for the cursor at the end of LINE.
bash_complete() {
	bash -c '
		source /usr/share/bash-completion/bash_completion
		source "$1/completions/rdmadiag.bash"
		line=$2
		COMP_WORDS=()
		word=""
		for ((i = 0; i < ${#line}; i++)); do
			c=${line:i:1}
			if [[ $c == " " ]]; then
				[[ -n $word ]] && COMP_WORDS+=("$word")
				word=""
			elif [[ $c == [=:] ]]; then
				[[ -n $word ]] && COMP_WORDS+=("$word")
				COMP_WORDS+=("$c")
				word=""
			else
				word+=$c
			fi
		done
		COMP_WORDS+=("$word")	# the word at the cursor, maybe empty
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$line
		COMP_POINT=${#line}
		_rdmadiag rdmadiag "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"
	' _ "$REPO" "$1"
}

# zsh_complete LINE: prints what _rdmadiag hands to compadd (or _files/_hosts),
# one a line. compinit is loaded for _call_program; compadd, _files and _hosts
# are recorded instead of displayed (they only work inside a live widget).
zsh_complete() {
	zsh -f -c '
		autoload -U compinit && compinit -u -d "$TMPDIR/zcompdump.$$"
		fpath=("$1/completions" $fpath)
		compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; print -l -- "$@"; }
		_files() { print -- ":file $*"; }
		_hosts() { print -- ":host"; }
		autoload -U _rdmadiag
		words=(${(z)2})
		[[ $2 == *" " ]] && words+=("")
		CURRENT=${#words}
		_rdmadiag
	' _ "$REPO" "$1"
}
