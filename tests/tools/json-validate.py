#!/usr/bin/python3
"""Validates JSON documents against a JSON Schema (draft 2020-12) with Debian's
python3-jsonschema: the real validator, not a look-alike of ours.
Usage: json-validate.py [--lines] SCHEMA [FILE...]   (stdin without FILEs)
       json-validate.py --tree SCHEMA_DIR DOC_DIR
--lines: each non-empty line is one document (the streams of the watch commands).
--tree: every DOC_DIR/NAME/FILE against SCHEMA_DIR/NAME.schema.json, a FILE
named *.jsonl as JSON lines: many schemas in one run (a start of Python costs
seconds in the TCG lab VM). An empty DOC_DIR/NAME/FILE is an error there.
A "$ref" to another file ("common.schema.json#/$defs/check") is resolved among
the *.schema.json files beside SCHEMA, loaded here: nothing is fetched. The
schema and those it refers to are checked against the metaschema first.
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


def referred(store, uri):
    """URIs of uri's schema and of every schema it refers to, transitively."""
    seen, todo = set(), [uri]
    while todo:
        u = todo.pop()
        if u in seen or u not in store:
            continue
        seen.add(u)
        stack = [store[u]]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str) and ref.split("#")[0]:
                    todo.append("file://" + os.path.join(os.path.dirname(u[len("file://"):]), ref.split("#")[0]))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return seen


def make_validator(path, store=None):
    """A validator whose relative $refs resolve to the schemas beside path:
    with `referencing` (jsonschema >= 4.18) or RefResolver (Debian 12's 4.10)."""
    store = store or sibling_schemas(path)
    uri = "file://" + os.path.abspath(path)
    schema = store[uri]
    # the metaschema check costs most of a run: the schemas this one uses only
    for u in sorted(referred(store, uri)):
        Draft202012Validator.check_schema(store[u])
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


def report(validator, src, lines):
    """Prints each error of the documents of src; returns their number."""
    bad = 0
    for where_doc, doc in documents(src, lines):
        for err in validator.iter_errors(doc):
            where = "/".join(str(p) for p in err.absolute_path)
            print(f"{where_doc}: /{where}: {err.message}", file=sys.stderr)
            bad += 1
    return bad


def tree(schema_dir, doc_dir):
    """--tree: DOC_DIR/NAME/FILE against SCHEMA_DIR/NAME.schema.json."""
    store = sibling_schemas(os.path.join(schema_dir, "x"))
    bad = 0
    for name in sorted(os.listdir(doc_dir)):
        validator = make_validator(os.path.join(schema_dir, name + ".schema.json"), store)
        for f in sorted(os.listdir(os.path.join(doc_dir, name))):
            src = os.path.join(doc_dir, name, f)
            if os.path.getsize(src) == 0:
                print(f"{src}: empty: no document", file=sys.stderr)
                bad += 1
                continue
            bad += report(validator, src, f.endswith(".jsonl"))
    return bad


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--tree":
        return 1 if tree(args[1], args[2]) else 0
    lines = bool(args) and args[0] == "--lines"
    if lines:
        args = args[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    validator = make_validator(args[0])
    bad = 0
    for src in args[1:] or ["-"]:
        bad += report(validator, src, lines)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
