#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make upstream-series UPSTREAM_KUNIT=1: run the KUnit tests that the
# generated series carries (patch 1: sctp-thin-core) in a User Mode Linux
# kernel built from the full pristine 7.3 source with the series applied
# (tools/testing/kunit/kunit.py, the kernel's own runner).  Debian's
# kernels have KUnit off, so the tests cannot load there
# (ENGINEERING.md); UML needs no VM.
#
#   upstream-kunit.sh KVER BUILD SERIES_DIR
#
# Needs linux-source-<line> (the tarball, in the line's build root),
# extracted once (scripts/upstream-source.sh); each run copies it,
# applies SERIES_DIR/*.patch in order with git apply (the same check as
# make upstream-series) and runs kunit.py with the kunitconfig of
# upstream/series/kunit/kunitconfig, out of tree (O=) in
# BUILD/upstream-kernel/kunit.  The copy is a hard-link farm (cp -al)
# with the patched files broken out, so it costs seconds, not a second
# 1.4 GB.  CPU: a UML kernel with the network stack, about 10-20 min on
# 2 cores the first time (nice -n 19, -j2), incremental after.
set -eu
KVER=$1 BUILD=$2 SERIES=$3
TOP=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "upstream-kunit: $*" >&2; exit 1; }
say() { echo "upstream-kunit: $*"; }

ls "$SERIES"/*.patch >/dev/null 2>&1 || die "no patches in $SERIES; run: make upstream-series"
"$TOP/scripts/upstream-source.sh" "$KVER" "$BUILD"
K=$BUILD/upstream-kernel

# The patched tree: hard links to the pristine source; git apply writes
# new files (it replaces a file, it does not write through the link).
rm -rf "$K/series"
cp -al "$K/src" "$K/series"
# A repository of its own: inside ours (build/ is in our work tree) git
# apply would take the paths as ours and skip them all, silently.
git -C "$K/series" init -q
for p in "$SERIES"/*.patch; do
	git -C "$K/series" apply "$p" ||
		die "$(basename "$p") does not apply to the full source"
done
[ -f "$K/series/net/sctp/thin_core_test.c" ] ||
	die "the series is applied, but net/sctp/thin_core_test.c is not there"
say "applied: $(find "$SERIES" -name '*.patch' -printf '%f\n' | sort | tr '\n' ' ')"

mkdir -p "$K/kunit"
cd "$K/series"
# kunit.py's own exit status: 0 when every test passed.
nice -n 19 python3 tools/testing/kunit/kunit.py run --arch=um --jobs=2 \
	--build_dir="$K/kunit" \
	--kunitconfig="$TOP/upstream/series/kunit/kunitconfig" \
	2>&1 | tee "$K/kunit.log" | tail -n 80
status=${PIPESTATUS[0]}
say "log: $K/kunit.log"
exit "$status"
