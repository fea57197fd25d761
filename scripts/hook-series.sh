#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The hook series of one kernel line: patches/series (every line), then
# patches/LINE/series (that line's own additions, if any), each patch
# with the upstream renames of patches/renames that reach LINE applied.
#
#   hook-series.sh LINE          the line's patches, one path a line
#   hook-series.sh LINE PATCH    PATCH's text for LINE, on stdout
#
# The patches apply to every line's pristine tree with offsets and no
# fuzz (patch -F0, git am); a hunk that does not is a port to do
# (docs/kernels.md, "Adding a kernel line").
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
LINE=${1:?usage: hook-series.sh LINE [PATCH]}

# entries FILE: the patch names in a series file, without comments.
entries() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$1"
}

# reaches VERSION: LINE is VERSION or later.
reaches() {
	[ "$(printf '%s\n%s\n' "$1" "$LINE" | sort -V | head -n 1)" = "$1" ]
}

[ -f "$TOP/patches/series" ] || { echo "hook-series: no patches/series" >&2; exit 1; }
if [ $# = 1 ]; then
	entries "$TOP/patches/series" | sed "s,^,$TOP/patches/,"
	if [ -f "$TOP/patches/$LINE/series" ]; then
		entries "$TOP/patches/$LINE/series" | sed "s,^,$TOP/patches/$LINE/,"
	fi
	exit 0
fi

expr=""
while read -r since old new; do
	reaches "$since" && expr="$expr;s/\\<$old\\>/$new/g"
done < <(entries "$TOP/patches/renames")
sed -e "${expr#;}" "$2"
