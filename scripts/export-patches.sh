#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Export the whole change as an upstream-style series against the pristine
# tree: one patch adding our new files, then the line's hook series
# (scripts/hook-series.sh), in order, with this line's context.
# The result applies with `git am` or `patch -p1` to a full tree of KVER's
# kernel line.
#   export-patches.sh KVER BUILD OUT
set -eu
KVER=$1 BUILD=$2 OUT=$3
TOP=$(cd "$(dirname "$0")/.." && pwd)
info=$("$TOP/scripts/kernel-line.sh" "$KVER") || exit 1
LINE=${info%% *}
work=$BUILD/export
rm -rf "$work" "$OUT"
mkdir -p "$OUT"
cp -a "$BUILD/pristine" "$work"
rm -f "$work/.version"
cd "$work"
git init -q
git -c user.name=thin-sctp -c user.email=thin-sctp@invalid add -A
git -c user.name=thin-sctp -c user.email=thin-sctp@invalid commit -qm pristine
base=$(git rev-parse HEAD)
for d in net/sctp include/net/sctp include/uapi/linux; do
	for f in "$TOP/$d"/*; do
		[ -f "$f" ] && cp "$f" "$d/"
	done
done
# Upstream has one kernel version: resolve the compat header's
# "#if LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, c)" blocks for this
# tree's version and drop <linux/version.h>, so the series carries no
# version checks.
vc=$(awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { p = $3 } /^SUBLEVEL =/ { s = $3 }
	END { print v * 65536 + p * 256 + (s > 255 ? 255 : s) }' "$BUILD/pristine/Makefile" 2>/dev/null || true)
if [ -z "$vc" ] || [ "$vc" = 0 ]; then
	# The pristine subset has no top Makefile: the release names it.
	vc=$(echo "$KVER" | awk -F'[.+-]' '{ print $1 * 65536 + $2 * 256 + ($3 ~ /^[0-9]+$/ && $3 < 256 ? $3 : 0) }')
fi
awk -v vc="$vc" '
	function on(i) { for (i = 1; i <= n; i++) if (!keep[i]) return 0; return 1 }
	/^#if LINUX_VERSION_CODE >= KERNEL_VERSION\(/ {
		split(substr($0, index($0, "KERNEL_VERSION(") + 15), k, /[^0-9]+/)
		n++; ver[n] = 1; keep[n] = vc >= k[1] * 65536 + k[2] * 256 + k[3]; next
	}
	/^#if/ { n++; ver[n] = 0; keep[n] = 1 }
	/^#else/ && ver[n] { keep[n] = !keep[n]; next }
	/^#endif/ { if (ver[n]) { n--; next } n-- ; if (on()) print; next }
	/^#include <linux\/version.h>/ { next }
	on() { print }
' "$TOP/include/net/sctp/thin_compat.h" >include/net/sctp/thin_compat.h
git add -A
git -c user.name=thin-sctp -c user.email=thin-sctp@invalid commit -qm "sctp: add thin-stream retransmission mechanisms

New files of thin-sctp (Petlund et al., 2009): the packet-in-flight
core, its glue to lksctp, socket option and tracepoint headers.
They are wired in by the patches that follow."
series=$("$TOP/scripts/hook-series.sh" "$LINE")
for p in $series; do
	"$TOP/scripts/hook-series.sh" "$LINE" "$p" |
		git -c user.name=thin-sctp -c user.email=thin-sctp@invalid am -q
done
git format-patch -q --no-signature -o "$OUT" "$base..HEAD"
(cd "$OUT" && ls ./*.patch | sed 's,^\./,,' >series)
# The proof: the exported series on a fresh copy of the pristine tree.
check=$BUILD/export-check
rm -rf "$check"
cp -a "$BUILD/pristine" "$check"
rm -f "$check/.version"
cd "$check"
git init -q
git -c user.name=thin-sctp -c user.email=thin-sctp@invalid add -A
git -c user.name=thin-sctp -c user.email=thin-sctp@invalid commit -qm pristine
while read -r p; do
	git -c user.name=thin-sctp -c user.email=thin-sctp@invalid am -q "$OUT/$p" ||
		{ echo "patches: $p does not apply with git am to the pristine $LINE tree" >&2; exit 1; }
done <"$OUT/series"
added=$(git diff --numstat "$(git rev-list --max-parents=0 HEAD)" HEAD | awk '{ a += $1 } END { print a }')
cd "$TOP"
rm -rf "$check"
echo "patches: $(wc -l <"$OUT/series") patches against $LINE in $OUT, applied with git am to the pristine tree ($added lines added)"
