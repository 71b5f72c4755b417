#!/bin/sh
# Build the Debian package from a copy of the tree under build/deb-src, so that
# dpkg-buildpackage's output (it writes to ..) stays inside build/.
# Usage: scripts/build-deb.sh   -> prints the path of the .deb
set -eu
cd "$(dirname "$0")/.."
version=$(sed -n '1s/^rdmadiag (\([^)]*\)).*/\1/p' debian/changelog)
top=build/deb-src
src=$top/rdmadiag-$version
rm -rf "$top"
mkdir -p "$src"
# Tracked and new (not ignored) files only: no objects or binaries of this tree.
# -P: fixtures hold symlinks to directories (a sysfs device link), copied as links.
git ls-files -z --cached --others --exclude-standard | xargs -0 cp -P --parents -t "$src" 2>/dev/null || {
	echo "build-deb: copying the sources to $src failed" >&2
	exit 4
}
(cd "$src" && dpkg-buildpackage -us -uc -b >../build.log 2>&1) || {
	echo "build-deb: dpkg-buildpackage failed; last lines of $top/build.log:" >&2
	tail -20 "$top/build.log" >&2
	exit 1
}
ls "$top"/rdmadiag_"$version"_*.deb
