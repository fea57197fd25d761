#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make upstream-series: the thin-stream mechanisms as a netdev series
# against pristine 7.3 (issue 31 part 2; design and patch list in
# docs/design-upstream-series.md).  SKELETON: only patch 1 is generated.
#
#   upstream-series.sh KVER BUILD OUT
#
# The upstream form is generated from our sources, never kept beside them:
# upstream/series.map places every top-level item (function, struct,
# define, prototype) of our thin* files in one patch of the series;
# scripts/upstream-extract.py copies the items of patches 1..N verbatim
# into the upstream file names; upstream/rewrite.pl renames what refers
# to the out-of-tree shape (the project's name, docs/, tests/).  What is
# written here by hand is glue only (a Makefile line, later the sysctl
# table, the uapi numbers, sctp_info fields), in glue_N below, and the
# commit messages in upstream/series/NNNN.msg.
#
# Steps:
#   1. a git tree of the pristine source (BUILD/pristine, from make
#      prepare) in BUILD/upstream-series;
#   2. for each generated patch N: compose the mapped files as they stand
#      after N, run glue_N, commit with upstream/series/NNNN.msg (author
#      and Signed-off-by: the placeholder, docs/upstream.md);
#   3. format-patch into OUT ([PATCH net-next N/M]);
#   4. the proof: every patch applies in order (git apply --check) to a
#      fresh copy of the pristine tree; checkpatch.pl --strict of 7.3 on
#      each.
# NOT DONE (said in the output and in OUT/STATUS): patches 2-9, the
# cover letter, the per-patch builds (W=1, options on and off; the
# KUnit test of patch 1 is generated but was never compiled), the
# selftests, the final kernel and its boot.
set -eu
KVER=$1 BUILD=$2 OUT=$3
TOP=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "upstream-series: $*" >&2; exit 1; }
say() { echo "upstream-series: $*"; }

info=$("$TOP/scripts/kernel-line.sh" "$KVER") || exit 1
read -r LINE _ _ <<<"$info"
[ "$LINE" = 7.3 ] || die "the series is made against the 7.3 line; $KVER is $LINE"
[ -f "$BUILD/pristine/.version" ] || die "no pristine tree in $BUILD; run: make prepare KVER=$KVER"
MAP=$TOP/upstream/series.map
EXTRACT=$TOP/scripts/upstream-extract.py
# The patches generated so far (the rest: NOT DONE).
GENERATED=1
TOTAL=9

# One date for every commit (the newest change to their sources), so the
# same sources give the same patches.
date=$(git -C "$TOP" log -1 --format=%aD -- upstream net/sctp/thin_core.c \
	include/net/sctp/thin_core.h scripts/upstream-series.sh \
	scripts/upstream-extract.py 2>/dev/null)
export GIT_AUTHOR_NAME="PLACEHOLDER Submitter" GIT_AUTHOR_EMAIL=placeholder@submitter.invalid
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE=${date:-now} GIT_COMMITTER_DATE=${date:-now}

# pristine NAME: a git tree of the pristine source in $BUILD/NAME.
pristine() {
	rm -rf "${BUILD:?}/$1"
	cp -a "$BUILD/pristine" "$BUILD/$1"
	rm -f "$BUILD/$1/.version"
	git -C "$BUILD/$1" init -q
	git -C "$BUILD/$1" add -A
	git -C "$BUILD/$1" commit -qm pristine
}

# Glue: what each patch changes in upstream files besides our items.
# Each step checks that the pristine context it edits is there, so a new
# 7.3 release that moved it fails here, not in a later patch.
glue_1() {
	# thin_core.o joins sctp-y, after the last object of the list; the
	# KUnit test is a module of its own.
	grep -q '^	  stream_interleave\.o$' net/sctp/Makefile ||
		die "net/sctp/Makefile of $LINE has no '	  stream_interleave.o' line to add thin_core.o after"
	grep -q '^sctp_diag-y := diag\.o$' net/sctp/Makefile ||
		die "net/sctp/Makefile of $LINE has no 'sctp_diag-y := diag.o' line"
	# shellcheck disable=SC2016 # $(CONFIG_...) is make's, not the shell's
	sed -i -e 's/^\(	  stream_interleave\.o\)$/\1 thin_core.o/' \
		-e 's/^\(sctp_diag-y := diag\.o\)$/\1\n\nobj-$(CONFIG_SCTP_THIN_KUNIT_TEST) += thin_core_test.o/' \
		net/sctp/Makefile
	# Its Kconfig entry, after INET_SCTP_DIAG's (inside "if IP_SCTP").
	grep -q '^	def_tristate INET_DIAG$' net/sctp/Kconfig ||
		die "net/sctp/Kconfig of $LINE has no INET_SCTP_DIAG entry to add the KUnit test after"
	sed -i "/^	def_tristate INET_DIAG$/r $TOP/upstream/series/kunit/Kconfig" net/sctp/Kconfig
	# The core's functions, visible to the test module only.
	sed -i 's,^#include <linux/string.h>$,#include <kunit/visibility.h>\n&,' net/sctp/thin_core.c
	python3 "$EXTRACT" kunit-export net/sctp/thin_core.c
	kunit_frame net/sctp/thin_core_test.c
}

# kunit_frame FILE: the generated test cases of FILE between the KUnit
# head (upstream/series/kunit/head.c) and a tail that lists every case.
kunit_frame() {
	local f=$1 cases
	cases=$(sed -n 's/^static void \(t_[a-z0-9_]*\)(struct kunit \*test)$/\1/p' "$f")
	[ -n "$cases" ] || die "$f: no test cases"
	{
		cat "$TOP/upstream/series/kunit/head.c"
		echo
		cat "$f"
		echo
		echo "static struct kunit_case sctp_thin_core_cases[] = {"
		for c in $cases; do
			echo "	KUNIT_CASE($c),"
		done
		echo "	{}"
		echo "};"
		echo
		echo "static struct kunit_suite sctp_thin_core_suite = {"
		echo "	.name = \"sctp-thin-core\","
		echo "	.test_cases = sctp_thin_core_cases,"
		echo "};"
		echo
		echo "kunit_test_suite(sctp_thin_core_suite);"
		echo
		echo "MODULE_DESCRIPTION(\"KUnit tests for the SCTP thin-stream core\");"
		echo "MODULE_LICENSE(\"GPL\");"
	} >"$f.new"
	mv "$f.new" "$f"
}

work=$BUILD/upstream-series
pristine upstream-series
for n in $(seq 1 "$GENERATED"); do
	nnnn=$(printf %04d "$n")
	msg=$TOP/upstream/series/$nnnn.msg
	[ -f "$msg" ] || die "no commit message $msg"
	python3 "$EXTRACT" compose "$MAP" "$TOP" "$n" "$work" ||
		die "patch $n: the series map is incomplete (above)"
	# Renames of the out-of-tree shape, on the files we generate.
	while read -r _ _ dest first; do
		[ "$first" -le "$n" ] || continue
		perl -0pi "$TOP/upstream/rewrite.pl" "$work/$dest"
	done < <(grep '^file ' "$MAP")
	(cd "$work" && "glue_$n")
	git -C "$work" add -A
	git -C "$work" commit -q -F "$msg"
done

rm -rf "$OUT"
mkdir -p "$OUT"
# The total is the planned series' (TOTAL), so the numbering stays when
# the other patches come.
for n in $(seq 1 "$GENERATED"); do
	git -C "$work" format-patch -q --no-signature \
		--subject-prefix="PATCH net-next" --start-number "$n" \
		-o "$OUT" -1 "HEAD~$((GENERATED - n))"
done
# format-patch numbers [PATCH n/N] only with several commits in the range;
# give each its place in the planned series.
for p in "$OUT"/*.patch; do
	n=$((10#$(basename "$p" | cut -c1-4)))
	sed -i "1,/^Subject:/s/^Subject: \[PATCH net-next\]/Subject: [PATCH net-next $n\/$TOTAL]/" "$p"
done

# The proof, as make upstream-fix's: each patch applies to a fresh
# pristine tree, in order.
check=$BUILD/upstream-series-check
pristine upstream-series-check
for p in "$OUT"/*.patch; do
	git -C "$check" apply --check "$p" ||
		die "$(basename "$p") does not apply to the pristine $LINE tree"
	git -C "$check" apply "$p"
done
rm -rf "$check"
say "every generated patch applies in order to the pristine $LINE tree ($(cat "$BUILD/pristine/.version"))"

# checkpatch --strict, as make upstream-fix runs it; FILE_PATH_CHANGES
# ("does MAINTAINERS need updating?") is left out: the new files are
# under net/sctp/ and include/net/sctp/, which SCTP PROTOCOL covers.
fail=0
for p in "$OUT"/*.patch; do
	if out=$(cd "$OUT" && perl "$BUILD/pristine/scripts/checkpatch.pl" --strict --no-tree --quiet \
		--show-types --ignore FILE_PATH_CHANGES - <"$p" 2>&1) && [ -z "$out" ]; then
		say "checkpatch --strict: ok   $(basename "$p")"
	else
		say "checkpatch --strict: FAIL $(basename "$p")"
		echo "$out"
		fail=1
	fi
done

# The cover letter: a template (its numbers are the module's, each with
# its commit, to be re-measured on the upstream-form kernel).
cp "$TOP/upstream/series/cover.msg" "$OUT/cover-letter.template.txt"

{
	echo "make upstream-series: a skeleton (docs/design-upstream-series.md)"
	echo "generated: patches 1-$GENERATED of $TOTAL"
	for p in "$OUT"/*.patch; do
		stat=$(grep -E '^ [0-9]+ files? changed' "$p" || true)
		echo "  $(basename "$p"):$stat"
	done
	echo "lines of our sources per patch as placed so far (before glue; thin.h,"
	echo "thin_hooks.h, thin_ctl.c, the uapi header and the trace header not yet placed):"
	python3 "$EXTRACT" sizes "$MAP" "$TOP" | sed 's/^/  /'
	# Patches not generated yet: their mapped files, composed on their
	# own (call-drop rule and stubs, no glue, no renames), as far as the
	# map goes; what blocks them is R1 work (the design).
	echo "dry composition of the later patches (mapped files only, in $BUILD/upstream-series-dry/N):"
	for n in $(seq $((GENERATED + 1)) $((TOTAL - 1))); do
		rm -rf "$BUILD/upstream-series-dry/$n"
		if err=$(python3 "$EXTRACT" compose "$MAP" "$TOP" "$n" "$BUILD/upstream-series-dry/$n" 2>&1); then
			echo "  $n: composed ($(cd "$BUILD/upstream-series-dry/$n" && find . -name '*.[ch]' | sort | tr '\n' ' '))"
		else
			echo "  $n: blocked:"
			printf '    %s\n' "${err//$'\n'/$'\n'    }"
		fi
	done
	echo "NOT DONE:"
	echo "  patches $((GENERATED + 1))-$TOTAL (generated: none; the map places thin.c, thin_timer.c and"
	echo "  thin_rdb.c, marked R1/R3 where our sources need a change first; the dry"
	echo "  composition does not check struct fields of later patches, R1b: lt_run, rdb,"
	echo "  rdb_cand, rdb_gate, and the trace events used from patch 2 on);"
	echo "  our sources not yet in the map (file, items to place):"
	python3 "$EXTRACT" unmapped "$MAP" "$TOP" | sed 's/^/    /'
	echo "  the cover letter: a template (cover-letter.template.txt), the module's numbers with their commits, not re-measured on the upstream-form kernel;"
	echo "  per-patch builds: make M=net/sctp W=1 with the options on and off;"
	echo "  the KUnit test: generated (patch 1) but never compiled nor run;"
	echo "  the selftests (tools/testing/selftests/net/ from tests/kernel);"
	echo "  the final kernel (virtme-ng small config, CONFIG_IP_SCTP=m), its boot and tests."
} >"$OUT/STATUS"
cat "$OUT/STATUS"
[ "$fail" = 0 ]
