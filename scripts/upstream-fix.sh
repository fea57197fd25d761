#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make upstream-fix: the duplicate COOKIE-ECHO fix (patches/7.3/0012) and
# its selftest as standalone [PATCH net] patches against the pristine
# source of KVER (docs/upstream.md):
#   0001  the fix: 0012's diff, applied to the pristine tree, with the
#         commit message of upstream/fix.msg
#   0002  the selftest: upstream/selftests/net/* as
#         tools/testing/selftests/net/*, with the Makefile lines it needs
#         (message: upstream/selftest.msg)
# Both are proven to apply (git apply --check) to a fresh pristine copy
# and checked with checkpatch --strict; out/upstream-fix/selftest/ holds a
# runnable copy of the selftest (helper built for this machine).
#
#   upstream-fix.sh KVER BUILD OUT [--module]
# --module: also build sctp.ko from the pristine tree plus 0001 alone, with
# the kbuild command of make modules, in BUILD/upstream-fix-module/net/sctp
# (run the selftest on it: VM_MODDIR=that tests/vm/run ..., docs/upstream.md)
set -eu
KVER=$1 BUILD=$2 OUT=$3 MODULE=${4:-}
TOP=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "upstream-fix: $*" >&2; exit 1; }

info=$("$TOP/scripts/kernel-line.sh" "$KVER") || exit 1
read -r LINE _ ROOT <<<"$info"
FIX=$TOP/patches/7.3/0012-sctp-verify-a-duplicate-COOKIE-ECHO-on-an-accepted-s.patch
[ "$LINE" = 7.3 ] || die "the fix is made against the 7.3 line; $KVER is $LINE"
[ -f "$BUILD/pristine/.version" ] || die "no pristine tree in $BUILD; run: make prepare KVER=$KVER"
NET=tools/testing/selftests/net

# The selftest directory's pristine files (not in make prepare's subset)
ST=$BUILD/pristine-selftests
"$TOP/scripts/upstream-selftests-src.sh" "$KVER" "$BUILD"

# One date for both commits (the newest change to their sources), so the
# same sources give the same patches.
date=$(git -C "$TOP" log -1 --format=%aD -- upstream "$FIX" scripts/upstream-fix.sh 2>/dev/null)
export GIT_AUTHOR_NAME="PLACEHOLDER Submitter" GIT_AUTHOR_EMAIL=placeholder@submitter.invalid
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE=${date:-now} GIT_COMMITTER_DATE=${date:-now}

# pristine NAME: a git tree of the pristine source in $BUILD/NAME.
pristine() {
	rm -rf "${BUILD:?}/$1"
	cp -a "$BUILD/pristine" "$BUILD/$1"
	rm -f "$BUILD/$1/.version"
	mkdir -p "$BUILD/$1/$NET"
	cp "$ST/$NET/Makefile" "$BUILD/$1/$NET/Makefile"
	git -C "$BUILD/$1" init -q
	git -C "$BUILD/$1" add -A
	git -C "$BUILD/$1" commit -qm pristine
}

work=$BUILD/upstream-fix
pristine upstream-fix
cd "$work"
# 0001: the diff of 0012, as the hook series applies it (offsets, no fuzz)
"$TOP/scripts/hook-series.sh" "$LINE" "$FIX" |
	patch -p1 --forward --no-backup-if-mismatch -F0 -s ||
	die "${FIX#"$TOP"/} does not apply to the pristine $LINE tree"
git add -A
git commit -q -F "$TOP/upstream/fix.msg"
# 0002: the selftest and its two Makefile lines, beside sctp_vrf.sh and
# sctp_hello
cp "$TOP/upstream/selftests/net/sctp_dupcookie.sh" "$TOP/upstream/selftests/net/sctp_dupcookie.c" "$NET/"
chmod 755 "$NET/sctp_dupcookie.sh"
chmod 644 "$NET/sctp_dupcookie.c"
grep -q '^	sctp_vrf\.sh \\$' "$NET/Makefile" && grep -q '^	sctp_hello \\$' "$NET/Makefile" ||
	die "$NET/Makefile of $LINE has no 'sctp_vrf.sh \\' or 'sctp_hello \\' line to add ours after"
sed -i -e 's/^\(	sctp_vrf\.sh \\\)$/	sctp_dupcookie.sh \\\n\1/' \
	-e 's/^\(	sctp_hello \\\)$/\1\n	sctp_dupcookie \\/' "$NET/Makefile"
git add -A
git commit -q -F "$TOP/upstream/selftest.msg"

rm -rf "$OUT"
mkdir -p "$OUT"
git format-patch -q --no-signature --subject-prefix="PATCH net" -o "$OUT" -1 HEAD~1
git format-patch -q --no-signature --subject-prefix="PATCH net" --start-number 2 -o "$OUT" -1 HEAD
cd "$TOP"

# The proof: each patch applies to a fresh pristine tree, in order.
check=$BUILD/upstream-fix-check
pristine upstream-fix-check
for p in "$OUT"/*.patch; do
	git -C "$check" apply --check "$p" ||
		die "$(basename "$p") does not apply to the pristine $LINE tree"
	git -C "$check" apply "$p"
done
rm -rf "$check"

# checkpatch --strict, as make style (scripts/style.sh) runs it.
# FILE_PATH_CHANGES is ignored as in make style: the new selftest files
# fall under MAINTAINERS' tools/testing/selftests/net/ (NETWORKING
# [GENERAL]).  checkpatch checks the commit ids of the message (Fixes:
# and the others) in a kernel git repository: give one as KERNEL_GIT=DIR
# (its .git directory) and it does; without one it cannot, warns
# UNKNOWN_COMMIT_ID for every id, and that check is left out (said
# below).  The ids and subjects were checked by hand against the public
# netdev archives (docs/upstream.md).
fail=0
cpopt="--ignore FILE_PATH_CHANGES"
if [ -n "${KERNEL_GIT:-}" ]; then
	export GIT_DIR=$KERNEL_GIT
else
	cpopt="$cpopt,UNKNOWN_COMMIT_ID"
	echo "upstream-fix: checkpatch without a kernel git repository (KERNEL_GIT=...): commit ids not looked up"
fi
for p in "$OUT"/*.patch; do
	# shellcheck disable=SC2086
	if out=$(cd "$OUT" && perl "$BUILD/pristine/scripts/checkpatch.pl" --strict --no-tree --quiet \
		--show-types $cpopt - <"$p" 2>&1) && [ -z "$out" ]; then
		echo "upstream-fix: checkpatch --strict: ok   $(basename "$p")"
	else
		echo "upstream-fix: checkpatch --strict: FAIL $(basename "$p")"
		echo "$out"
		fail=1
	fi
done
unset GIT_DIR

# A runnable copy of the selftest for this machine (tests in a VM:
# docs/upstream.md)
run=$OUT/selftest
mkdir -p "$run/lib/sh"
cp "$TOP/upstream/selftests/net/sctp_dupcookie.sh" "$ST/$NET/lib.sh" "$run/"
cp "$ST/$NET/lib/sh/"* "$run/lib/sh/"
${CC:-cc} -Wall -O2 -o "$run/sctp_dupcookie" "$TOP/upstream/selftests/net/sctp_dupcookie.c" ||
	die "cannot build the selftest's helper"

for p in "$OUT"/*.patch; do
	subject=$(awk '/^Subject: / { s = substr($0, 10); getline; while (/^ /) { s = s $0; getline } print s; exit }' "$p")
	echo "upstream-fix: $(basename "$p") ($(wc -c <"$p") bytes): $subject"
done
echo "upstream-fix: both apply to the pristine $LINE tree ($(cat "$BUILD/pristine/.version")); runnable selftest in ${run#"$TOP"/}"
[ "$fail" = 0 ] || exit 1
[ "$MODULE" = --module ] || exit 0

mod=$BUILD/upstream-fix-module
rm -rf "$mod"
cp -a "$BUILD/pristine" "$mod"
rm -f "$mod/.version"
patch -d "$mod" -p1 -s --no-backup-if-mismatch <"$OUT"/0001-*.patch
kdir=/usr/src/linux-headers-$KVER
if [ "$ROOT" = host ]; then
	kdir=/lib/modules/$KVER/build
	kmake=(make)
else
	kmake=("$TOP/scripts/buildroot.sh" run "$ROOT" make)
fi
"${kmake[@]}" -C "$kdir" M="$mod/net/sctp" CONFIG_IP_SCTP=m CONFIG_INET_SCTP_DIAG=m \
	NOSTDINC_FLAGS="-I$mod/include -I$mod/include/uapi" -j"$(nproc)" modules >"$mod/build.log" 2>&1 ||
	{ tail -n 20 "$mod/build.log" >&2; die "the fix-only module does not build (log: $mod/build.log)"; }
echo "upstream-fix: fix-only module (pristine $LINE + 0001): $mod/net/sctp/sctp.ko"
