#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The pristine files of tools/testing/selftests/net that make prepare's
# subset leaves out and our selftests need (make upstream-fix,
# make upstream-series' patch 9): the Makefile the patches change, lib.sh
# and lib/sh/ to run a test here.  Extracted once from linux-source-<line>
# into BUILD/pristine-selftests.
#
#   upstream-selftests-src.sh KVER BUILD
set -eu
KVER=$1 BUILD=$2
TOP=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "upstream-selftests-src: $*" >&2; exit 1; }

info=$("$TOP/scripts/kernel-line.sh" "$KVER") || exit 1
read -r LINE _ ROOT <<<"$info"
R=""
[ "$ROOT" = host ] || R=$("$TOP/scripts/buildroot.sh" dir "$ROOT")
TARBALL=$R/usr/src/linux-source-$LINE.tar.xz
NET=tools/testing/selftests/net
ST=$BUILD/pristine-selftests
[ -f "$BUILD/pristine/.version" ] || die "no pristine tree in $BUILD; run: make prepare KVER=$KVER"
if [ ! -f "$ST/.version" ] || ! cmp -s "$ST/.version" "$BUILD/pristine/.version"; then
	[ -f "$TARBALL" ] || die "$TARBALL is missing; run: make deps KVER=$KVER"
	echo "upstream-selftests-src: extracting $NET/{Makefile,lib.sh,lib/sh} from $TARBALL"
	rm -rf "$ST" "$ST.tmp"
	mkdir -p "$ST.tmp"
	tar -xJf "$TARBALL" -C "$ST.tmp" "linux-source-$LINE/$NET/Makefile" \
		"linux-source-$LINE/$NET/lib.sh" "linux-source-$LINE/$NET/lib/sh" ||
		die "cannot extract the selftest files from $TARBALL"
	mv "$ST.tmp/linux-source-$LINE" "$ST"
	rmdir "$ST.tmp"
	cp "$BUILD/pristine/.version" "$ST/.version"
fi
