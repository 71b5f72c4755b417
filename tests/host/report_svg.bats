#!/usr/bin/env bats
# report merge --format svg|html: the fleet as a picture. Each picture must
# parse as XML, render to PNG with librsvg's rsvg-convert at the size it
# declares, and show the faults where the model has them: the PNG's pixels
# are sampled at every cell of the pair matrix (tests/host/fleet_picture.py)
# and read back as a matrix of verdicts. Fleets come from
# tests/fixtures/make-fleet.py over real lab reports, as in report.bats.

load helpers
bats_require_minimum_version 1.5.0

TEMPLATE=$FIXTURES/fleet/path-template.json
PICTURE=$BATS_TEST_DIRNAME/fleet_picture.py

fleet() { # fleet KIND DIR ARGS...
	local kind=$1 dir=$2
	shift 2
	python3 "$FIXTURES/make-fleet.py" --kind "$kind" --out "$dir" "$@"
}

# draw DIR [ARGS...]: $BATS_TEST_TMPDIR/p.svg, its PNG, and the facts of both in $facts
draw() {
	local t=$BATS_TEST_TMPDIR
	run --separate-stderr rd report merge --format svg "$@"
	[ "$status" -le 1 ] || fail "report merge --format svg exited $status: $stderr"
	printf '%s\n' "$output" >"$t/p.svg"
	rsvg-convert "$t/p.svg" -o "$t/p.png" || fail "rsvg-convert refused the picture"
	facts=$(python3 "$PICTURE" "$t/p.svg" "$t/p.png") || fail "fleet_picture.py failed"
}

facts() {
	jq -e "$@" <<<"$facts"
}

@test "8 nodes with a bad cable and a slow node: the PNG's cells show the two failed pairs and the slow row and column" {
	fleet path "$BATS_TEST_TMPDIR/f" --template "$TEMPLATE" --nodes 8 --bad-pair 2:5 --slow 6 --jitter 0.03
	draw "$BATS_TEST_TMPDIR/f"
	assert_equal "$status" 1
	assert_equal "$stderr" ""
	facts '.svg == .png and .png[0] > 300 and .png[1] > 200'
	# the legend's red is red, its blue blue: what a person sees
	facts '.legend.fail | test("^#[c-f][0-9a-f][0-3][0-9a-f][0-3][0-9a-f]$")'
	facts '.legend.pass | test("^#[0-3][0-9a-f][0-9a-f]{2}[a-f][0-9a-f]$")'
	# the cable's ends head the matrix; node006's pairs pass at 60 % of the median
	facts '.rows == ["node002","node005","node000","node001","node003","node004","node006","node007"]'
	run jq -r '.matrix[]' <<<"$facts"
	assert_output "$(printf '%s\n' '\F....2.' 'F\....2.' '..\...2.' '...\..2.' '....\.2.' '.....\2.' '222222\2' \
		'......2\')"
	# up to 64 nodes every cell has a tooltip; the failing ones name the failed stage
	facts '(.pairs | length) == 56 and ([.pairs[] | select(.verdict == "fail")] ==
		[{"from":"node002","to":"node005","verdict":"fail","stage":"path.control","fill":.legend.fail},
		 {"from":"node005","to":"node002","verdict":"fail","stage":"path.control","fill":.legend.fail}])'
}

@test "200 nodes with a bad node and a bad cable: a red row and column, the cable's cells red, nothing else" {
	fleet path "$BATS_TEST_TMPDIR/f" --template "$TEMPLATE" --nodes 200 --bad 17 --bad-pair 40:120 --slow 90 \
		--jitter 0.03
	draw "$BATS_TEST_TMPDIR/f"
	assert_equal "$status" 1
	facts '.svg == .png and (.rows | length) == 200 and ([.matrix[] | length] | unique) == [200]'
	facts '.rows[:3] == ["node017","node040","node120"]'
	# row 0 and column 0 all red but the diagonal; the cable at (1,2) and (2,1)
	facts '.matrix[0] == "\\" + ("F" * 199) and ([.matrix[1:][] | .[0:1]] | unique) == ["F"]'
	facts '.matrix[1][2:3] == "F" and .matrix[2][1:2] == "F"'
	facts '[.matrix[] | scan("F")] | length == 400'
	# the slow node passes at 60 %: its row and column shaded, nothing else
	slow=$(jq '.rows | index("node090")' <<<"$facts")
	facts --argjson s "$slow" '[.matrix[$s] | scan("2")] | length == 198'
	facts --argjson s "$slow" '[.matrix[] | .[$s:$s+1]] | map(select(. == "2")) | length == 198'
	facts '[.matrix[] | scan("[^.2F\\\\]")] | length == 0'
	# the failing cells carry their tooltips: 400, all with the bad node or the cable
	facts '[.pairs[] | select(.verdict == "fail" and .fill == $f and .stage == "path.control")] | length == 400' \
		--arg f "$(jq -r .legend.fail <<<"$facts")"
	facts '[.pairs[] | select(.from != "node017" and .to != "node017")
		| [.from, .to] | sort] | unique == [["node040","node120"]]'
	# the marked nodes, listed beside the matrix: the bad node and the cable's ends, no other
	facts '[.texts[] | select(test("^ *[0-9]+: node"))] ==
		["   0: node017 398 failed, 0 warn","   1: node040 4 failed, 0 warn","   2: node120 4 failed, 0 warn"]'
	# the same pairs as -j
	run --separate-stderr rd -j report merge "$BATS_TEST_TMPDIR/f"
	run jq -e '.summary.pairs_failed == 400' <<<"$output"
	assert_success
}

@test "link check fleet: nodes x failing check ids, red and orange where the reports fail and warn" {
	rd -j --replay "$FIXTURES/lab-rxe" link check >"$BATS_TEST_TMPDIR/lc.json" || true
	fleet link "$BATS_TEST_TMPDIR/l" --template "$BATS_TEST_TMPDIR/lc.json" --nodes 64 --bad 42 --bad 7
	jq -c '.checks |= map(if .id == "port.mtu" then .verdict = "warn" else . end)' \
		"$BATS_TEST_TMPDIR/l/node003.json" >"$BATS_TEST_TMPDIR/n3" && mv "$BATS_TEST_TMPDIR/n3" "$BATS_TEST_TMPDIR/l/node003.json"
	draw "$BATS_TEST_TMPDIR/l"
	assert_equal "$status" 1
	facts '.svg == .png'
	facts '.checks == [
		{"node":"node007","id":"port.state","verdict":"fail","fill":.legend.fail,"pixel":.legend.fail},
		{"node":"node042","id":"port.state","verdict":"fail","fill":.legend.fail,"pixel":.legend.fail},
		{"node":"node003","id":"port.mtu","verdict":"warn","fill":.legend.warn,"pixel":.legend.warn}]'
	facts '.texts | index("check reports: 64, 2 nodes with failing checks") and index("61 other nodes: every check passed")'
	facts '.rows == [] and .legend.fail'
}

@test "html: the same picture in one page that fetches nothing" {
	fleet path "$BATS_TEST_TMPDIR/f" --template "$TEMPLATE" --nodes 8 --bad 3
	rd report merge --format svg "$BATS_TEST_TMPDIR/f" >"$BATS_TEST_TMPDIR/p.svg" || [ $? = 1 ]
	run --separate-stderr rd report merge --format html "$BATS_TEST_TMPDIR/f"
	assert_equal "$status" 1
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/p.html"
	python3 - "$BATS_TEST_TMPDIR/p.html" "$BATS_TEST_TMPDIR/p.svg" <<-'PY'
		import html.parser, sys
		text, svg = open(sys.argv[1]).read(), open(sys.argv[2]).read()
		class Page(html.parser.HTMLParser):
		    tags, refs = [], []
		    def handle_starttag(self, tag, attrs):
		        self.tags.append(tag)
		        self.refs += [(tag, k, v) for k, v in attrs if k in ("src", "href", "xlink:href", "data", "action")
		                      or (v and ("url(" in v or "://" in v) and k != "xmlns")]
		p = Page()
		p.feed(text)
		assert text.startswith("<!DOCTYPE html>\n"), text[:40]
		assert not p.refs, p.refs
		assert not {"script", "link", "img", "iframe", "object", "style"} & set(p.tags), p.tags
		assert p.tags.count("svg") == 1 and p.tags.count("title") >= 1
		# the page holds the SVG as it is, less its XML declaration
		body = svg.split("\n", 1)[1]
		assert svg.startswith("<?xml ") and body in text, "the SVG is not in the page"
	PY
}

@test "--format: json is -j, text the default, svg with -j a usage error" {
	fleet path "$BATS_TEST_TMPDIR/f" --template "$TEMPLATE" --nodes 5 --bad 1
	run --separate-stderr rd -j report merge "$BATS_TEST_TMPDIR/f"
	j=$output
	run --separate-stderr rd report merge --format json "$BATS_TEST_TMPDIR/f"
	assert_equal "$status" 1
	assert_equal "$output" "$j"
	run --separate-stderr rd report merge "$BATS_TEST_TMPDIR/f"
	t=$output
	run --separate-stderr rd report merge --format text "$BATS_TEST_TMPDIR/f"
	assert_equal "$output" "$t"
	run --separate-stderr rd -j report merge --format svg "$BATS_TEST_TMPDIR/f"
	assert_equal "$status" 2
	assert_equal "$stderr" "rdmadiag: -j/--json and --format svg contradict each other; give one of them"
	run --separate-stderr rd report merge --format png "$BATS_TEST_TMPDIR/f"
	assert_equal "$status" 2
}

@test "names, ids and file names from the reports are escaped: the picture stays well-formed and says them" {
	d=$BATS_TEST_TMPDIR/h
	rd -j --replay "$FIXTURES/lab-rxe" link check >"$BATS_TEST_TMPDIR/lc.json" || true
	fleet link "$d" --template "$BATS_TEST_TMPDIR/lc.json" --nodes 2 --bad 1
	jq -c '.host = "<b>&\"x'"'"'</b>" | .checks[5].id = "]]><!--&lt;"' "$d/node001.json" >"$d/node001.x"
	mv "$d/node001.x" "$d/node001.json"
	printf '<svg onload="alert(1)">' >"$d/$(printf 'e\001\377<&>.json')"
	draw "$d"
	assert_equal "$status" 1
	facts '.checks[0] | .node == "<b>&\"x'"'"'</b>" and .id == "]]><!--&lt;" and .verdict == "fail"'
	facts '.texts | map(select(startswith("skipped "))) | length == 1 and (.[0] | contains("e??<&>.json: not JSON"))'
	facts '.texts | index("<b>&\"x'"'"'</b>")'
	# no element came from a file: only what rdmadiag draws
	run python3 -c 'import sys, xml.etree.ElementTree as E
tags = {e.tag.split("}")[1] for e in E.parse(sys.argv[1]).iter()}
print(" ".join(sorted(tags)))' "$BATS_TEST_TMPDIR/p.svg"
	assert_output "g path rect svg text title"
}

@test "1,000 nodes, all pairs, bandwidth spread by 30 %: the picture stays under 4 MB and renders" {
	fleet path "$BATS_TEST_TMPDIR/f" --template "$TEMPLATE" --nodes 1000 --bad 17 --bad-pair 40:120 --slow 90 \
		--jitter 0.3 --no-stages
	s=$SECONDS
	rd report merge --format svg "$BATS_TEST_TMPDIR/f" >"$BATS_TEST_TMPDIR/p.svg" || [ $? = 1 ]
	merge_s=$((SECONDS - s)) s=$SECONDS
	rsvg-convert "$BATS_TEST_TMPDIR/p.svg" -o "$BATS_TEST_TMPDIR/p.png"
	render_s=$((SECONDS - s))
	size=$(stat -c %s "$BATS_TEST_TMPDIR/p.svg")
	facts=$(python3 "$PICTURE" "$BATS_TEST_TMPDIR/p.svg" "$BATS_TEST_TMPDIR/p.png" --no-pixels)
	echo "# 1000 nodes: SVG $size bytes, merge ${merge_s}s, rsvg-convert ${render_s}s, PNG $(jq -c .png <<<"$facts")" >&3
	[ "$size" -lt 4000000 ]
	facts '.svg == .png and (.rows | length) == 1000 and .rows[:3] == ["node017","node040","node120"]'
	facts '[.pairs[] | select(.verdict == "fail")] | length == 2000'
}
