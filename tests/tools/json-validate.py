#!/usr/bin/python3
"""Validates JSON documents against a JSON Schema (draft 2020-12) with Debian's
python3-jsonschema: the real validator, not a look-alike of ours.
Usage: json-validate.py SCHEMA [FILE...]   (stdin without FILEs)
Exit 0 when every document is valid; else each error on stderr, exit 1."""
import json
import sys

from jsonschema import Draft202012Validator


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    sources = sys.argv[2:] or ["-"]
    bad = 0
    for src in sources:
        text = sys.stdin.read() if src == "-" else open(src).read()
        doc = json.loads(text)
        for err in validator.iter_errors(doc):
            where = "/".join(str(p) for p in err.absolute_path)
            print(f"{src}: /{where}: {err.message}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
