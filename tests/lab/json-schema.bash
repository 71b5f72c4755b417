# shellcheck shell=bash
# Live -j documents against their published schemas (Documentation/json,
# issue #21), with the real validator tests/host/json_schema.bats uses
# (tests/tools/json-validate.py, Debian's python3-jsonschema, seen in the VM
# through the host's root). Lab .bats files `load ../json-schema`.
# A start of Python with jsonschema costs seconds in the TCG VM: a test
# validates once, at its end (validate_output, validate_json), or keeps its
# documents and validates them all in one run (json_keep, json_check_kept).

JSON_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JSON_SCHEMAS=$JSON_REPO/Documentation/json
JSON_VALIDATE=$JSON_REPO/tests/tools/json-validate.py

# validate_json [--lines] SCHEMA FILE...: each FILE (one document; JSON lines
# with --lines) against Documentation/json/SCHEMA.schema.json. Fails with the
# validator's errors; an empty FILE fails too (nothing was validated).
validate_json() {
	local lines='' schema f err
	[ "$1" != --lines ] || { lines=--lines; shift; }
	schema=$JSON_SCHEMAS/$1.schema.json
	shift
	[ -f "$schema" ] || { echo "validate_json: no schema $schema" >&2; return 1; }
	[ $# -gt 0 ] || { echo "validate_json: no file" >&2; return 1; }
	for f; do
		[ -s "$f" ] || { echo "validate_json: $f is empty: no document to validate" >&2; return 1; }
	done
	err=$(python3 "$JSON_VALIDATE" $lines "$schema" "$@" 2>&1) ||
		{ echo "against $(basename "$schema"): $err" >&2; return 1; }
}

# validate_output [--lines] SCHEMA: bats' $output the same way ($output and
# $status stay as they were)
validate_output() {
	local f
	[ -n "$output" ] || { echo "validate_output: \$output is empty: no document to validate" >&2; return 1; }
	f=$(mktemp "$BATS_TEST_TMPDIR/doc.XXXXXX")
	printf '%s\n' "$output" >"$f"
	validate_json "$@" "$f"
}

# json_keep SCHEMA [FILE]: keeps $output (or a copy of FILE) for
# json_check_kept; FILE named *.jsonl holds JSON lines
json_keep() {
	local dir=$BATS_TEST_TMPDIR/json-kept/$1 n ext=json
	[ -f "$JSON_SCHEMAS/$1.schema.json" ] || { echo "json_keep: no schema $1" >&2; return 1; }
	mkdir -p "$dir"
	n=$(find "$dir" -type f | wc -l)
	if [ $# -gt 1 ]; then
		[[ "$2" != *.jsonl ]] || ext=jsonl
		cp "$2" "$dir/$n.$ext"
	else
		printf '%s' "$output" >"$dir/$n.json"
	fi
}

# json_check_kept: every document json_keep kept, against its schema, in one
# run of the validator (an empty one fails); then forgets them
json_check_kept() {
	local err
	[ -d "$BATS_TEST_TMPDIR/json-kept" ] || { echo "json_check_kept: nothing kept" >&2; return 1; }
	err=$(python3 "$JSON_VALIDATE" --tree "$JSON_SCHEMAS" "$BATS_TEST_TMPDIR/json-kept" 2>&1) ||
		{ echo "$err" >&2; return 1; }
	rm -rf "$BATS_TEST_TMPDIR/json-kept"
}
