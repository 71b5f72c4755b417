#!/usr/bin/env python3
# Runs every malformed invocation of tests/host/bad_cli.table against the
# binary, once as written and once with -j in front, and checks that each one
# is a plain usage error: exit 2, exactly one short printable line on stderr
# starting "rdmadiag: " (and containing the table's expected text), nothing on
# stdout, or with -j nothing or one valid JSON document. Prints a TAP-ish line
# per failure and a summary; exits 1 when any case failed.
#
# Table syntax, one invocation per line (the words after "rdmadiag"):
#   words are separated by blanks; '' is an empty word
#   \xNN one byte, \s a blank inside a word, \\ a backslash
#   {N*TEXT} TEXT repeated N times inside one word (100 kB words)
#   {N#WORD} N separate words WORD (too many arguments)
#   @FIX     the fixtures directory (for --replay @FIX/lab-rxe)
#   "=> TEXT" at the end: TEXT must appear in the error line (taken literally)
#   blank lines and lines starting with # are ignored
import json
import os
import re
import subprocess
import sys

BOUND_LINE = 1100  # bytes: long words are elided in the error line


def decode_word(word, fixtures):
    if word == "''":
        return [b""]
    m = re.fullmatch(r"\{(\d+)#(.*)\}", word)
    if m:
        return [m.group(2).encode()] * int(m.group(1))
    word = word.replace("@FIX", fixtures)
    word = re.sub(r"\{(\d+)\*([^}]*)\}", lambda m: m.group(2) * int(m.group(1)), word)
    out = bytearray()
    i = 0
    while i < len(word):
        c = word[i]
        if c == "\\" and word[i + 1:i + 2] == "x":
            out.append(int(word[i + 2:i + 4], 16))
            i += 4
        elif c == "\\" and word[i + 1:i + 2] == "s":
            out += b" "
            i += 2
        elif c == "\\" and word[i + 1:i + 2] == "\\":
            out += b"\\"
            i += 2
        else:
            out += c.encode()
            i += 1
    return [bytes(out)]


def parse_table(path, fixtures):
    cases = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            expect = None
            if " => " in line:
                line, expect = line.split(" => ", 1)
            args = []
            for w in line.split():
                args += decode_word(w, fixtures)
            cases.append((lineno, line.strip(), args, expect))
    return cases


def check_one(binary, args, expect, json_mode):
    argv = [binary.encode()] + ([b"-j"] if json_mode else []) + args
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        return "hung (no exit within 20 s)"
    problems = []
    if p.returncode != 2:
        problems.append("exit %d, want 2" % p.returncode)
    lines = p.stderr.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if len(lines) != 1:
        problems.append("%d lines on stderr, want 1" % len(lines))
    first = lines[0] if lines else b""
    if not first.startswith(b"rdmadiag: "):
        problems.append("stderr does not start with 'rdmadiag: '")
    if len(first) > BOUND_LINE:
        problems.append("error line is %d bytes" % len(first))
    if any(b < 0x20 or b > 0x7e for b in first):
        problems.append("unprintable bytes in the error line")
    if expect is not None and expect.encode() not in first:
        problems.append("error line lacks %r" % expect)
    if p.stdout:
        if not json_mode:
            problems.append("stdout not empty: %r" % p.stdout[:80])
        else:
            try:
                json.loads(p.stdout)
            except ValueError:
                problems.append("stdout is not one JSON document: %r" % p.stdout[:80])
    if problems:
        shown = p.stderr[:300].decode("ascii", "backslashreplace")
        return "; ".join(problems) + "\n#   stderr: " + shown.replace("\n", "\n#   ")
    return None


def main():
    binary, table = sys.argv[1], sys.argv[2]
    fixtures = os.path.join(os.path.dirname(os.path.abspath(table)), "..", "fixtures")
    cases = parse_table(table, os.path.normpath(fixtures))
    failed = 0
    for lineno, text, args, expect in cases:
        for json_mode in (False, True):
            why = check_one(binary, args, expect, json_mode or b"-j" in args)
            if why:
                failed += 1
                print("not ok line %d%s: %s\n#   %s" % (lineno, " (-j)" if json_mode else "", text[:120], why))
    print("cases: %d, runs: %d, failed runs: %d" % (len(cases), 2 * len(cases), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
