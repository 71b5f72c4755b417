#!/bin/bash
# The man pages, the completion and the command tables agree:
#  - every object, action, option, option value, keyword, keyword value and
#    check id of the tables (read with `rdmadiag __tables`; the check ids are
#    each action's "checks", the rows link check, counter check and path
#    test --list print, and the --only/--skip choices) is documented in
#    Documentation/ and offered by `rdmadiag __complete` (a keyword after the
#    words its "before" names: counter show qp lqpn);
#  - every command in a SYNOPSIS or EXAMPLES section and every option in a .TP
#    tag of the pages exists in the tables.
# Where things go: the object's page is Documentation/rdmadiag-OBJECT.8 (or any
# page whose SYNOPSIS shows "OBJECT ACTION"); an option is a .TP tag in the page
# of its action; check ids are .TP tags too; global options are .TP tags of
# rdmadiag.8;
#  - every action has the JSON Schema of its -j document,
#    Documentation/json/OBJECT-ACTION.schema.json, titled "rdmadiag -j OBJECT
#    ACTION", which the page of the action names; a form a keyword starts
#    whose document differs ("counter show qp") has its own,
#    OBJECT-ACTION-WORD.schema.json, else it shares the action's ("counter
#    mode set"); every schema there names such a command (besides
#    common.schema.json, the definitions they share). SCHEMA_PENDING lists
#    the commands whose schema is still to come.
# Usage: tests/docs-sync.sh [BINARY]. Prints one line per problem; exit 1 if any.
set -u
cd "$(dirname "$0")/.." || exit 1
BIN=${1:-rdmadiag/rdmadiag}
DOC=${RDMADIAG_DOC_DIR:-Documentation}
problems=0

problem() {
	echo "docs-sync: $*"
	problems=$((problems + 1))
}

tables=$("$BIN" __tables) || {
	echo "docs-sync: '$BIN __tables' failed"
	exit 1
}
q() { jq -r "$@" <<<"$tables"; }

# Plain text of a page, without line filling or hyphenation.
render() {
	groff -man -Tascii -rLL=2000n -rHY=0 -P-cbou "$1" 2>/dev/null
}

# Text of one section (NAME, SYNOPSIS, ...) of a rendered page.
section() {
	render "$1" | awk -v s="$2" '/^[A-Z][A-Z ]*$/ { on = ($0 == s); next } on'
}

# Option names and check ids in the .TP tags of a page, one a line.
tp_tags() {
	awk 'tag { print; tag = 0 } /^\.TP/ { tag = 1 }' "$1" |
		sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(..//g' |
		grep -oE '(^|[ "=])(--?[A-Za-z][A-Za-z0-9-]*|[a-z0-9_]+\.[a-z0-9_.]+)' | sed -E 's/^[ "=]//' | sort -u
}

# The page that documents OBJECT ACTION (its SYNOPSIS shows them).
page_of() {
	local obj=$1 act=$2 p
	for p in "$DOC/rdmadiag-$obj.8" "$DOC"/rdmadiag-*.8; do
		[ -f "$p" ] || continue
		if section "$p" SYNOPSIS | grep -qE "(^|[ ])$obj $act([ ]|$)"; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

offers() { # offers WORD CWORD WORDS...: __complete offers WORD
	local want=$1
	shift
	"$BIN" __complete "$@" 2>/dev/null | grep -qxF -- "$want"
}

[ -f "$DOC/rdmadiag.8" ] || problem "Documentation/rdmadiag.8 is missing"
main_text=$(render "$DOC/rdmadiag.8")
main_tags=$(tp_tags "$DOC/rdmadiag.8")

# --- tables -> pages and completion -------------------------------------------
for g in $(q '.global_options[].name'); do
	grep -qxF -- "$g" <<<"$main_tags" || problem "global option $g is not a .TP tag of Documentation/rdmadiag.8"
	offers "$g" 1 rdmadiag "${g:0:2}" || problem "global option $g is not offered by completion"
done

for obj in $(q '.objects[].name'); do
	grep -qF "rdmadiag-$obj(8)" <<<"$main_text" ||
		grep -qE "(^|[ ,])$obj([ ,]|$)" <<<"$(section "$DOC/rdmadiag.8" OBJECTS)" ||
		problem "object $obj is not listed in OBJECTS of Documentation/rdmadiag.8"
	offers "$obj" 1 rdmadiag "" || problem "object $obj is not offered by completion"
	sel=".objects[] | select(.name == \"$obj\")"
	for act in $(q "$sel | .actions[] | select(.hidden | not) | .name"); do
		a="$sel | .actions[] | select(.name == \"$act\")"
		offers "$act" 2 rdmadiag "$obj" "" || problem "action '$obj $act' is not offered by completion"
		if ! page=$(page_of "$obj" "$act"); then
			problem "action '$obj $act' is in no SYNOPSIS of Documentation/ (expected in Documentation/rdmadiag-$obj.8)"
			continue
		fi
		tags=$(tp_tags "$page")
		text=$(render "$page")
		for opt in $(q "$a | .options[].name"); do
			grep -qxF -- "$opt" <<<"$tags" ||
				problem "option $opt of '$obj $act' is not a .TP tag of $page"
			offers "$opt" 3 rdmadiag "$obj" "$act" "${opt:0:2}" ||
				problem "option $opt of '$obj $act' is not offered by completion"
			for v in $(q "$a | .options[] | select(.name == \"$opt\") | .choices[]"); do
				if [ "$(q "$a | .options[] | select(.name == \"$opt\") | .complete")" = check_id ]; then
					grep -qxF -- "$v" <<<"$tags" || problem "check id $v ('$obj $act $opt') is not a .TP tag of $page"
				else
					# any case: a page may show the tokens upper case and say so
				grep -qiwF -- "$v" <<<"$text" || problem "value $v of $opt ('$obj $act') does not appear in $page"
				fi
				offers "$v" 4 rdmadiag "$obj" "$act" "$opt" "" ||
					problem "value $v of $opt ('$obj $act') is not offered by completion"
			done
		done
		# Every check of its table (link checks, counter rules, path
		# stages: what --list prints) is a .TP tag of its page.
		for id in $(q "$a | .checks[].id"); do
			grep -qxF -- "$id" <<<"$tags" || problem "check $id of '$obj $act' is not a .TP tag of $page"
		done
		# A keyword is offered where the grammar takes it: after the words
		# "before" names ("counter show qp lqpn"), and then its values.
		while IFS='|' read -r before kw values; do
			# shellcheck disable=SC2206 # the words before it, split on purpose
			pre=($obj $act $before)
			grep -qwF -- "$kw" <<<"$text" || problem "filter keyword $kw of '$obj $act' does not appear in $page"
			offers "$kw" $((${#pre[@]} + 1)) rdmadiag "${pre[@]}" "" ||
				problem "keyword $kw of '$obj $act${before:+ $before}' is not offered by completion"
			for v in $values; do
				# any case: a page may show the tokens upper case and say so
				grep -qiwF -- "$v" <<<"$text" || problem "value $v of '$obj $act${before:+ $before} $kw' does not appear in $page"
				offers "$v" $((${#pre[@]} + 2)) rdmadiag "${pre[@]}" "$kw" "" ||
					problem "value $v of '$obj $act${before:+ $before} $kw' is not offered by completion"
			done
		done < <(q "$a | .keywords[] | [.before, .name, (.values | join(\" \"))] | join(\"|\")")
	done
done

# --- pages -> tables ------------------------------------------------------------
is_object() { q '.objects[].name' | grep -qxF -- "$1"; }
is_action() { [ "$2" = help ] || q ".objects[] | select(.name == \"$1\") | .actions[].name" | grep -qxF -- "$2"; }
object_options() { q "(.objects[] | select(.name == \"$1\") | .actions[].options[].name), .global_options[].name"; }
action_options() { q ".objects[] | select(.name == \"$1\") | .actions[] | select(.name == \"$2\") | .options[].name"; }
all_check_ids() { q '.objects[].actions[] | .checks[].id, (.options[] | select(.complete == "check_id") | .choices[])'; }

# OBJECT ACTION of a command line "rdmadiag [global options] OBJECT ACTION ...",
# printed as "OBJECT ACTION REST"; global options with a value are skipped.
parse_command() {
	local w
	# shellcheck disable=SC2086 # split the line into words on purpose
	set -- $1
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		--record | --replay | --snapshot) shift 2 ;;
		-* | \[*) shift ;;
		*) break ;;
		esac
	done
	[ $# -gt 0 ] || return 1
	w=$1
	shift
	echo "$w ${1:-} ${*:2}"
}

for page in "$DOC"/*.8; do
	base=$(basename "$page" .8)
	obj=${base#rdmadiag-}
	if [ "$base" != rdmadiag ] && ! is_object "$obj"; then
		problem "$page documents object '$obj', which the tables lack"
		continue
	fi
	# Commands in SYNOPSIS must exist.
	while read -r line; do
		# shellcheck disable=SC2046 # words on purpose
		set -- $(parse_command "$line")
		[ $# -ge 1 ] || continue
		case $1 in OBJECT | help | \<*) continue ;; esac
		is_object "$1" || { problem "$page SYNOPSIS: object '$1' is not in the tables"; continue; }
		[ $# -ge 2 ] && [[ $2 != [\[-]* ]] && ! is_action "$1" "$2" &&
			problem "$page SYNOPSIS: action '$1 $2' is not in the tables"
	done < <(section "$page" SYNOPSIS | grep -E '^ *rdmadiag ')
	# Options in .TP tags must be options of this object (or global ones).
	if [ "$base" = rdmadiag ]; then
		known=$(q '.global_options[].name')
	else
		known=$(object_options "$obj")
	fi
	for tag in $(tp_tags "$page"); do
		case $tag in
		-*) grep -qxF -- "$tag" <<<"$known" || problem "$page documents option $tag, which no action of '$obj' has" ;;
		*.*) all_check_ids | grep -qxF -- "$tag" || problem "$page documents check id $tag, which the tables lack" ;;
		esac
	done
	# Example command lines: object and action must exist, options must be the action's.
	while read -r line; do
		cmd=$(parse_command "$line") || continue
		# shellcheck disable=SC2086 # words on purpose
		set -- $cmd
		if ! is_object "$1"; then
			echo "# docs-sync: note: $page EXAMPLES: object '$1' is not in the tables yet: $line"
			continue
		fi
		if ! is_action "$1" "$2"; then
			# the overview page shows other objects' commands, maybe before they land
			if [ "$base" = rdmadiag ]; then
				echo "# docs-sync: note: $page EXAMPLES: action '$1 $2' is not in the tables yet: $line"
			else
				problem "$page EXAMPLES: action '$1 $2' is not in the tables: $line"
			fi
			continue
		fi
		opts=$(action_options "$1" "$2")
		for w in "${@:3}"; do
			case $w in
			--*) grep -qxF -- "${w%%=*}" <<<"$opts" || problem "$page EXAMPLES: '$1 $2' has no option ${w%%=*}: $line" ;;
			esac
		done
	done < <(section "$page" EXAMPLES | grep -E '^ *rdmadiag ')
done

# --- JSON Schemas -------------------------------------------------------------
JSON=${RDMADIAG_JSON_DIR:-$DOC/json}
# Commands without a schema yet ("OBJECT ACTION|..."): none today, every -j
# document has one; a command added before its schema goes here until it has it.
SCHEMA_PENDING=${SCHEMA_PENDING-""}

is_pending() { [ -n "$SCHEMA_PENDING" ] && tr '|' '\n' <<<"$SCHEMA_PENDING" | grep -qxF -- "$1"; }

# Every command with a -j document: visible actions and the forms their
# keywords start, as "OBJECT ACTION" and "OBJECT ACTION WORD".
json_commands() {
	q -r '.objects[] | .name as $o | .actions[] | select(.hidden | not) | .name as $a |
		"\($o) \($a)", (.keywords[] | select(.before == "" and (.takes_value | not) and (.values | length) == 0) |
		"\($o) \($a) \(.name)")'
}

commands=$(json_commands)
while read -r cmd; do
	[ -n "$cmd" ] || continue
	f=$JSON/${cmd// /-}.schema.json
	if is_pending "$cmd"; then
		[ -f "$f" ] && problem "'$cmd' has its schema $f: take it out of SCHEMA_PENDING in tests/docs-sync.sh"
		continue
	fi
	if [ ! -f "$f" ]; then
		[ "$(wc -w <<<"$cmd")" -eq 3 ] && continue	# a form: the action's schema unless it has its own
		problem "'$cmd' has no JSON Schema: expected $f (see Documentation/json/link-check.schema.json)"
		continue
	fi
	title=$(jq -r '.title // ""' "$f" 2>/dev/null) || { problem "$f is not JSON"; continue; }
	[ "$title" = "rdmadiag -j $cmd" ] || problem "$f: its title is '$title', not 'rdmadiag -j $cmd'"
	set -- $cmd
	if page=$(page_of "$1" "$2"); then
		grep -qF -- "${cmd// /-}.schema.json" "$page" || problem "$page does not name ${cmd// /-}.schema.json, the schema of '$cmd'"
	fi
done <<<"$commands"

for f in "$JSON"/*.schema.json; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .schema.json)
	[ "$name" = common ] && continue
	grep -qxF -- "${name//-/ }" <<<"$commands" ||
		problem "$f documents '${name//-/ }', which is no command of the tables"
done

if [ "$problems" -gt 0 ]; then
	echo "docs-sync: $problems problem(s): document each in Documentation/ (see the header of tests/docs-sync.sh) or fix the tables"
	exit 1
fi
echo "docs-sync: man pages, completion and command tables agree"
