#!/usr/bin/env python3
# option-names.py TABLES.json SRC...: every option the code names in a string
# of its own ("--count" in ctx_opt_uint(ctx, "--count", 0), a check's
# needs_opt, a sub-command's option) is one some option table declares
# (`rdmadiag __tables`). Options are looked up by name, and ctx_opt() answers
# "not given" for a name no table has: a typo would silently give the
# default. Comments and the tables' .name fields are skipped. Prints each unknown name with its place; exit 1 when there is one.
import json
import re
import sys

NAME = re.compile(r'"(--?[a-z][a-z0-9-]*)"')
# Comments (examples of wrong words) and the tables' own .name fields are no uses.
SKIP = re.compile(r'/\*.*?\*/|//[^\n]*|\.name\s*=\s*"[^"]*"', re.S)

tables = json.load(open(sys.argv[1]))
known = {o['name'] for obj in tables['objects'] for a in obj['actions'] for o in a['options']}
known |= {g['name'] for g in tables['global_options']}
bad = n = 0
for path in sys.argv[2:]:
    text = SKIP.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), open(path).read())
    for m in NAME.finditer(text):
        n += 1
        if m.group(1) not in known:
            line = text.count('\n', 0, m.start()) + 1
            print(f'{path}:{line}: "{m.group(1)}" is no option of any table')
            bad += 1
if n == 0:
    print('no option names found: the pattern no longer matches the code')
    sys.exit(1)
sys.exit(1 if bad else 0)
