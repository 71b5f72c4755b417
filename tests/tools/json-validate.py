#!/usr/bin/python3
"""Validates JSON documents against a JSON Schema (draft 2020-12) with Debian's
python3-jsonschema: the real validator, not a look-alike of ours.
Usage: json-validate.py [--lines] SCHEMA [FILE...]   (stdin without FILEs)
--lines: each non-empty line is one document (the streams of the watch commands).
A "$ref" to another file ("common.schema.json#/$defs/check") is resolved among
the *.schema.json files beside SCHEMA, loaded here: nothing is fetched.
Exit 0 when every document is valid; else each error on stderr, exit 1."""
import json
import os
import sys

from jsonschema import Draft202012Validator


def sibling_schemas(path):
    """{file URI: schema} of every *.schema.json in the directory of path."""
    d = os.path.dirname(os.path.abspath(path))
    store = {}
    for name in sorted(os.listdir(d)):
        if name.endswith(".schema.json"):
            with open(os.path.join(d, name)) as f:
                store["file://" + os.path.join(d, name)] = json.load(f)
    return store


def make_validator(path):
    """A validator whose relative $refs resolve to the schemas beside path:
    with `referencing` (jsonschema >= 4.18) or RefResolver (Debian 12's 4.10)."""
    store = sibling_schemas(path)
    uri = "file://" + os.path.abspath(path)
    schema = store[uri]
    for s in store.values():
        Draft202012Validator.check_schema(s)
    schema = dict(schema, **{"$id": schema.get("$id", uri)})
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        registry = Registry().with_resources(
            (u, Resource.from_contents(s, default_specification=DRAFT202012)) for u, s in store.items())
        return Draft202012Validator(schema, registry=registry)
    except ImportError:
        from jsonschema import RefResolver

        return Draft202012Validator(schema, resolver=RefResolver(uri, schema, store=store))


def documents(src, lines):
    text = sys.stdin.read() if src == "-" else open(src).read()
    if not lines:
        yield src, json.loads(text)
        return
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield f"{src}:{n}", json.loads(line)


def main():
    args = sys.argv[1:]
    lines = bool(args) and args[0] == "--lines"
    if lines:
        args = args[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    validator = make_validator(args[0])
    bad = 0
    for src in args[1:] or ["-"]:
        for where_doc, doc in documents(src, lines):
            for err in validator.iter_errors(doc):
                where = "/".join(str(p) for p in err.absolute_path)
                print(f"{where_doc}: /{where}: {err.message}", file=sys.stderr)
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
