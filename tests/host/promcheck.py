#!/usr/bin/python3
# What promtool does not check in rdmadiag's metrics output (stdin); run by
# tests/tools/promtool-check.sh after `promtool check metrics`, which parses
# the 0.0.4 text and lints the names.
#   promcheck.py openmetrics   strict OpenMetrics 1.0 parser of python3-prometheus-client
#                              (promtool reads only 0.0.4), '# EOF' last
#   promcheck.py prometheus    no '# EOF' (OpenMetrics only)
# For both: every series once and every family in one block (promtool
# accepts a repeated series and a family split in two; node_exporter's
# textfile collector then fails the whole scrape), the rdmadiag_ prefix, and
# _total on counter samples. Reads stdin, or each FILE given after the
# flavour. Exit 0 when valid; prints why not.
import re
import sys

flavor = sys.argv[1]
where = "stdin"
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(r"^(%s)(\{%s(?:,%s)*\})? (-?[0-9.e+]+|NaN|[+-]Inf)$" % (NAME, LABEL, LABEL))
META = re.compile(r"^# (HELP|TYPE) (%s) (.*)$" % NAME)


def fail(msg):
    print("promcheck: %s: %s" % (where, msg))
    sys.exit(1)


def check(text):
    lines = text.split("\n")
    if lines[-1] != "":
        fail("output does not end with a newline")
    lines = lines[:-1]
    if flavor == "openmetrics":
        if not lines or lines[-1] != "# EOF":
            fail("OpenMetrics must end with '# EOF'")
        lines = lines[:-1]
    elif "# EOF" in lines:
        fail("'# EOF' belongs to OpenMetrics only")

    types, seen_families, series = {}, [], set()
    current = None
    for n, line in enumerate(lines, 1):
        m = META.match(line)
        if m:
            kind, name, rest = m.groups()
            if kind == "TYPE":
                if rest not in ("counter", "gauge"):
                    fail("line %d: unexpected type %s" % (n, rest))
                if name in types:
                    fail("line %d: family %s declared twice" % (n, name))
                types[name] = rest
            if name != current:
                if name in seen_families:
                    fail("line %d: family %s is not contiguous" % (n, name))
                seen_families.append(name)
                current = name
            continue
        if line.startswith("#"):
            fail("line %d: unexpected comment %r" % (n, line))
        m = SAMPLE.match(line)
        if not m:
            fail("line %d: not a sample: %r" % (n, line))
        name = m.group(1)
        if not name.startswith("rdmadiag_"):
            fail("line %d: metric %s lacks the rdmadiag_ prefix" % (n, name))
        family = name
        if flavor == "openmetrics" and name.endswith("_total") and types.get(name[:-6]) == "counter":
            family = name[:-6]
        if family != current or family not in types:
            fail("line %d: sample %s outside its family (TYPE of %s)" % (n, name, current))
        if types[family] == "counter" and not name.endswith("_total"):
            fail("line %d: counter sample %s without _total" % (n, name))
        key = (name, m.group(2))
        if key in series:
            fail("line %d: duplicate series %s%s" % (n, name, m.group(2) or ""))
        series.add(key)

    if flavor == "openmetrics":
        from prometheus_client.openmetrics.parser import text_string_to_metric_families

        try:
            families = list(text_string_to_metric_families(text))
        except ValueError as e:
            fail("OpenMetrics parser: %s" % e)
        if series and not families:
            fail("the parser found no metric family in %d series" % len(series))
    return len(types), len(series)


if len(sys.argv) > 2:
    for where in sys.argv[2:]:
        with open(where, encoding="utf-8") as f:
            check(f.read())
    print("promcheck: %s ok, %d files" % (flavor, len(sys.argv) - 2))
else:
    nfam, nser = check(sys.stdin.read())
    print("promcheck: %s ok, %d families, %d series" % (flavor, nfam, nser))
