#!/usr/bin/python3
# Format check of rdmadiag's metrics output (stdin).
#   promcheck.py openmetrics   strict OpenMetrics 1.0 parser of python3-prometheus-client
#   promcheck.py prometheus    text format 0.0.4 as node_exporter's textfile collector reads it
# Both also get a line-by-line grammar check written here, so a missing
# parser package still leaves a real check. Exit 0 when valid; prints why not.
import re
import sys

flavor = sys.argv[1]
text = sys.stdin.read()
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(r"^(%s)(\{%s(?:,%s)*\})? (-?[0-9.e+]+|NaN|[+-]Inf)$" % (NAME, LABEL, LABEL))
META = re.compile(r"^# (HELP|TYPE) (%s) (.*)$" % NAME)


def fail(msg):
    print("promcheck: %s" % msg)
    sys.exit(1)


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

try:
    if flavor == "openmetrics":
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
    else:
        from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    print("promcheck: python3-prometheus-client missing; grammar check only")
else:
    families = list(text_string_to_metric_families(text))
    if not families:
        fail("no metric families")
print("promcheck: %s ok, %d families, %d series" % (flavor, len(types), len(series)))
