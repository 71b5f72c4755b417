#!/usr/bin/env python3
# option-names.py TABLES.json SRC...: every option the code spells out in a
# string is one some option table declares (`rdmadiag __tables`).
#
# The code reads options by id (rdmadiag/opt_id.h), so a misspelt lookup does
# not compile; what is left in strings is text a user reads or a command line
# the code builds: "--gid-index: '%s' is neither ...", "raise --timeout, or
# leave it out", the sub-commands of system snapshot. A typo
# there sends the user to an option that does not exist. opt_id.h's own list
# is a source too: a name there that no table declares is an id left behind.
# Comments and the global options' own .name fields (their table; "--colour"
# is an alias it never lists) are skipped. Prints each unknown name with its place; exit 1 when
# there is one.
import json
import re
import sys

STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
NAME = re.compile(r'(?<![\w-])(--[a-z][a-z0-9-]*|-[a-z])(?![\w-])')
# Comments hold examples of wrong words; a table's .name field is no use.
SKIP = re.compile(r'/\*.*?\*/|//[^\n]*|\.name\s*=\s*"[^"]*"', re.S)
# Words in messages that look like an option and name none.
NOT_OPTIONS = {'--long'}	# "options are --long"

tables = json.load(open(sys.argv[1]))
known = {o['name'] for obj in tables['objects'] for a in obj['actions'] for o in a['options']}
known |= {g['name'] for g in tables['global_options']}
bad = n = 0
for path in sys.argv[2:]:
    text = SKIP.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), open(path).read())
    for s in STRING.finditer(text):
        for m in NAME.finditer(s.group(0)):
            word = m.group(1)
            # a single letter is an option only when a whole string ("-o")
            if (len(word) == 2 and s.group(0) != f'"{word}"') or word in NOT_OPTIONS:
                continue
            n += 1
            if word not in known:
                line = text.count('\n', 0, s.start()) + 1
                print(f'{path}:{line}: "{word}" is no option of any table')
                bad += 1
if n == 0:
    print('no option names found: the pattern no longer matches the code')
    sys.exit(1)
sys.exit(1 if bad else 0)
