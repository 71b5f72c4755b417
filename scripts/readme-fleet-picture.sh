#!/bin/sh
# Draws the picture README.md shows: `report merge --format svg` of an 8-node
# all-pairs fleet (tests/fixtures/make-fleet.py over the lab's path test
# template) with a bad cable between node002 and node005 and a slow node006,
# rendered to PNG with librsvg's rsvg-convert.
# Usage: scripts/readme-fleet-picture.sh [BINARY]   (run from anywhere)
set -eu
cd "$(dirname "$0")/.."
bin=${1:-rdmadiag/rdmadiag}
out=Documentation/images/report-merge-fleet.png
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 tests/fixtures/make-fleet.py --kind path --template tests/fixtures/fleet/path-template.json \
	--nodes 8 --bad-pair 2:5 --slow 6 --jitter 0.03 --out "$tmp/reports"
# exit 1: the fleet has failed pairs, which is what the picture shows
"$bin" report merge --format svg "$tmp/reports" >"$tmp/fleet.svg" || [ $? -eq 1 ]
rsvg-convert "$tmp/fleet.svg" -o "$out"
echo "$out"
