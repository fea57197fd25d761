#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make deb: build thin-sctp-dkms_<version>_all.deb (the module for DKMS,
# the sysctl preset and its load-time hooks, thin-stat, the uapi header)
# and thin-sctp-tools_<version>_<arch>.deb (thin-gen) with Debian's own
# tooling (dpkg-buildpackage, debhelper, dh-dkms; make deps installs them),
# then run lintian on them.
#
# The source is what git tracks in this tree, with uncommitted changes and
# files git does not ignore; the version is dkms.conf's PACKAGE_VERSION
# plus the commit: 0.1+git<commit date>.<hash>, with ".dirty" if the tree
# differs from the commit.
#
#   make-deb.sh [OUTDIR]   the .deb files go to OUTDIR (default: the top
#                          directory); the build's own files stay in build/deb
# Environment: DEB_LINTIAN=0 skips lintian.
set -eu -o pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$TOP}
DEB=$TOP/build/deb

die() { echo "make-deb: $*" >&2; exit 1; }

command -v dpkg-buildpackage >/dev/null || die "dpkg-buildpackage missing; run: make deps"
cd "$TOP"
dpkg-checkbuilddeps debian/control 2>/dev/null ||
	die "$(dpkg-checkbuilddeps debian/control 2>&1 | sed 's/^dpkg-checkbuilddeps: error: //'); run: make deps"

base=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
[ -n "$base" ] || die "no PACKAGE_VERSION in dkms.conf"
hash=$(git rev-parse --short=7 HEAD)
date=$(git log -1 --format=%cd --date=format:%Y%m%d)
dirty=""
[ -z "$(git status --porcelain --untracked-files=normal)" ] || dirty=.dirty
ver=$base+git$date.$hash$dirty

rm -rf "$DEB"
src=$DEB/thin-sctp-$ver
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
	[ -e "$f" ] || [ -L "$f" ] || continue	# deleted, not yet committed
	cp -a --parents "$f" "$src/"
done
# The snapshot's entry on top of debian/changelog.
{
	printf 'thin-sctp (%s) unstable; urgency=medium\n\n' "$ver"
	printf '  * Snapshot of commit %s%s.\n\n' "$hash" "${dirty:+, with uncommitted changes}"
	printf ' -- %s  %s\n\n' "$(sed -n 's/^Maintainer: //p' debian/control)" \
		"$(date -R -d "@$(git log -1 --format=%ct)")"
	cat debian/changelog
} >"$src/debian/changelog"

echo "make-deb: building thin-sctp $ver in $src"
(cd "$src" && dpkg-buildpackage -b -us -uc) >"$DEB/build.log" 2>&1 ||
	{ tail -n 30 "$DEB/build.log" >&2; die "dpkg-buildpackage failed; see $DEB/build.log"; }
changes=$(ls "$DEB"/thin-sctp_"$ver"_*.changes)
mkdir -p "$OUT"
debs=""
for f in "$DEB"/thin-sctp-dkms_"$ver"_all.deb "$DEB"/thin-sctp-tools_"$ver"_*.deb; do
	cp "$f" "$OUT/"
	debs="$debs $OUT/$(basename "$f")"
done
echo "make-deb: built:$debs"
if [ "${DEB_LINTIAN:-1}" = 1 ]; then
	command -v lintian >/dev/null || die "lintian missing; run: make deps"
	echo "make-deb: lintian $(basename "$changes")"
	# Errors fail make deb; warnings and the rest are printed.
	lintian --fail-on error --display-info "$changes" | tee "$DEB/lintian.txt" ||
		die "lintian reports errors (above; $DEB/lintian.txt)"
	echo "make-deb: lintian: $(grep -c '^E:' "$DEB/lintian.txt") errors, $(grep -c '^W:' "$DEB/lintian.txt") warnings"
fi
