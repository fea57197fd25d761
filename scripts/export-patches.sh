#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Export the whole change as an upstream-style series against the pristine
# tree: one patch adding our new files, then the hook patches, in order.
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
git add -A
git -c user.name=thin-sctp -c user.email=thin-sctp@invalid commit -qm "sctp: add thin-stream retransmission mechanisms

New files of thin-sctp (Petlund et al., 2009): the packet-in-flight
core, its glue to lksctp, socket option and tracepoint headers.
They are wired in by the patches that follow."
grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/patches/$LINE/series" | while read -r p; do
	git -c user.name=thin-sctp -c user.email=thin-sctp@invalid am -q "$TOP/patches/$LINE/$p"
done
git format-patch -q --no-signature -o "$OUT" "$base..HEAD"
(cd "$OUT" && ls ./*.patch | sed 's,^\./,,' >series)
echo "patches: $(wc -l <"$OUT/series") patches against $LINE in $OUT"
