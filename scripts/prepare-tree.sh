#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the source tree of thin-sctp for one kernel release:
#   1. find the release's kernel line (scripts/kernel-line.sh: 6.1, 6.12,
#      ...) and check that Debian's linux-source-$LINE tarball and
#      linux-headers-$KVER are installed and of the same Debian version,
#      on this machine or in the line's build root (7.x: trixie);
#   2. extract the pristine net/sctp and headers into $BUILD/pristine;
#   3. copy them to $BUILD/tree, overlay our own files, apply the hook
#      series (patches/series, then patches/$LINE/series if there is one;
#      scripts/hook-series.sh).
#
# Usage: prepare-tree.sh KVER BUILD_DIR
set -eu
KVER=$1
BUILD=$2
TOP=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "prepare-tree: $*" >&2; exit 1; }

info=$("$TOP/scripts/kernel-line.sh" "$KVER") || exit 1
read -r LINE _ ROOT <<<"$info"
# R: where the kernel's packages are installed: this machine, or the build
# root of the line (scripts/buildroot.sh: a trixie chroot for 7.x).
R=""
[ "$ROOT" = host ] || R=$("$TOP/scripts/buildroot.sh" dir "$ROOT")
SRC=linux-source-$LINE
TARBALL=$R/usr/src/$SRC.tar.xz
if [ "$LINE" = 6.1 ]; then
	fix="apt-get install -y $SRC linux-headers-$KVER"
else
	fix="make deps KVER=$KVER"
fi

command -v dpkg-query >/dev/null || die "needs dpkg-query (a Debian system)"
[ -z "$R" ] || [ -f "$R/.thin-ready" ] || die "no $ROOT build root in $R; run: $fix"
[ -d "$R/usr/src/linux-headers-$KVER" ] ||
	die "no headers for $KVER in $R/usr/src/linux-headers-$KVER; run: $fix"
hv=$(dpkg-query --admindir="$R/var/lib/dpkg" -W -f='${Version}' "linux-headers-$KVER" 2>/dev/null) ||
	die "linux-headers-$KVER is not installed${R:+ in $R}; run: $fix"
# Sources already extracted from the headers' Debian version stay good
# when linux-source-$LINE (one package for the whole line) has since moved
# to another release of the line (make deps of a newer one).
if [ "$(cat "$BUILD/pristine/.version" 2>/dev/null)" = "$hv" ]; then
	sv=$hv
else
	[ -f "$TARBALL" ] || die "$TARBALL is missing; run: $fix"
	sv=$(dpkg-query --admindir="$R/var/lib/dpkg" -W -f='${Version}' "$SRC" 2>/dev/null) ||
		die "$SRC is not installed${R:+ in $R}; run: $fix"
	[ "$hv" = "$sv" ] ||
		die "$SRC is $sv but linux-headers-$KVER is $hv; run: ${R:+$fix (in $R)}${R:-apt-get install -y $SRC=$hv (or upgrade the headers and image)}"
fi

# Everything we take from upstream: pristine, never committed.
UPSTREAM="net/sctp include/net/sctp include/uapi/linux/sctp.h include/linux/sctp.h include/trace/events/sctp.h scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch"

stamp=$BUILD/pristine/.version
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sv" ]; then
	rm -rf "$BUILD/pristine" "$BUILD/extract"
	mkdir -p "$BUILD/extract"
	args=""
	for p in $UPSTREAM; do args="$args $SRC/$p"; done
	# shellcheck disable=SC2086
	tar -xJf "$TARBALL" -C "$BUILD/extract" $args ||
		die "cannot extract $UPSTREAM from $TARBALL"
	mv "$BUILD/extract/$SRC" "$BUILD/pristine"
	rmdir "$BUILD/extract"
	echo "$sv" >"$stamp"
fi

# Stage a fresh tree: pristine + overlay + patches.  Then sync it into
# $BUILD/tree by content, so unchanged files keep their times and kbuild
# rebuilds only what changed; build outputs there are left alone.
TREE=$BUILD/tree
STAGE=$BUILD/stage
rm -rf "$STAGE"
cp -a "$BUILD/pristine" "$STAGE"
rm -f "$STAGE/.version"
for d in net/sctp include/net/sctp include/uapi/linux; do
	[ -d "$TOP/$d" ] || continue
	for f in "$TOP/$d"/*; do
		[ -f "$f" ] || continue
		case "$f" in *.o|*.ko|*.cmd|*.mod|*.mod.c) continue ;; esac
		base=$(basename "$f")
		[ -e "$BUILD/pristine/$d/$base" ] &&
			die "$d/$base is an upstream file: change it with a hook patch in patches/, not by overlay"
		cp "$f" "$STAGE/$d/$base"
	done
done

# The line's hook series (scripts/hook-series.sh): with offsets, no fuzz,
# so a context that moved shows here instead of a hunk in the wrong place.
series=$("$TOP/scripts/hook-series.sh" "$LINE")
for p in $series; do
	if ! out=$("$TOP/scripts/hook-series.sh" "$LINE" "$p" |
		patch -d "$STAGE" -p1 --forward --no-backup-if-mismatch -F0 -r - -s 2>&1); then
		echo "prepare-tree: patch ${p#"$TOP"/} does not apply to the $LINE tree:" >&2
		echo "$out" | grep -i -e hunk -e 'can.t find' -e failed >&2 || echo "$out" >&2
		exit 1
	fi
done
mkdir -p "$TREE"
rsync -rlc --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='Module.symvers' \
	--exclude='modules.order' --exclude='.*.d' --exclude='*.a' \
	"$STAGE/" "$TREE/"
rm -rf "$STAGE"
echo "prepare-tree: $TREE ready (Debian $SRC $sv, hook series of $LINE)"
