#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The full pristine source of KVER's line, for the builds of make
# upstream-series (upstream-kunit.sh, upstream-build.sh): extracted once
# from linux-source-<line> into BUILD/upstream-kernel/src (about 1.4 GB),
# stamped with the Debian version of the pristine tree (make prepare).
#
#   upstream-source.sh KVER BUILD
set -eu
KVER=$1 BUILD=$2
TOP=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "upstream-source: $*" >&2; exit 1; }

info=$("$TOP/scripts/kernel-line.sh" "$KVER") || exit 1
read -r LINE _ ROOT <<<"$info"
R=""
[ "$ROOT" = host ] || R=$("$TOP/scripts/buildroot.sh" dir "$ROOT")
TARBALL=$R/usr/src/linux-source-$LINE.tar.xz
ver=$(cat "$BUILD/pristine/.version") || die "no pristine tree; run: make prepare KVER=$KVER"
K=$BUILD/upstream-kernel
[ "$(cat "$K/src.version" 2>/dev/null)" = "$ver" ] && exit 0
[ -f "$TARBALL" ] || die "$TARBALL is missing; run: make deps KVER=$KVER"
# the tarball is the line's newest; it must be the pristine tree's release
sv=$(dpkg-query --admindir="$R/var/lib/dpkg" -W -f='${Version}' "linux-source-$LINE") ||
	die "linux-source-$LINE is not installed${R:+ in $R}"
[ "$sv" = "$ver" ] || die "linux-source-$LINE is $sv, the pristine tree $ver"
echo "upstream-source: extracting the full $LINE source ($TARBALL)"
rm -rf "$K/src" "$K/extract"
mkdir -p "$K/extract"
nice -n 19 tar -xJf "$TARBALL" -C "$K/extract"
mv "$K/extract/linux-source-$LINE" "$K/src"
rmdir "$K/extract"
echo "$ver" >"$K/src.version"
