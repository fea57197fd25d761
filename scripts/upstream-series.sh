#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make upstream-series: the thin-stream mechanisms as a netdev series
# against pristine 7.3 (issue 31 part 2; design and patch list in
# docs/design-upstream-series.md).  Patches 1-8 of 9 are generated.
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
# Opt-in, not run here (said in the output and in OUT/STATUS): the
# per-patch builds (UPSTREAM_BUILD=1: each patch W=1 with Debian's config,
# UPSTREAM_BUILD_OPTIONS=off: with the options off), the KUnit suite
# (UPSTREAM_KUNIT=1, UML), the final kernel, its boot and tests
# (UPSTREAM_KERNEL=1).
set -eu
KVER=$1 BUILD=$2 OUT=$3
TOP=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "upstream-series: $*" >&2; exit 1; }
say() { echo "upstream-series: $*"; }

info=$("$TOP/scripts/kernel-line.sh" "$KVER") || exit 1
read -r LINE _ ROOT <<<"$info"
[ "$LINE" = 7.3 ] || die "the series is made against the 7.3 line; $KVER is $LINE"
[ -f "$BUILD/pristine/.version" ] || die "no pristine tree in $BUILD; run: make prepare KVER=$KVER"
MAP=$TOP/upstream/series.map
R=""
[ "$ROOT" = host ] || R=$("$TOP/scripts/buildroot.sh" dir "$ROOT")
NETNS_H=$R/usr/src/linux-headers-${KVER%-amd64}-common/include/net/netns/sctp.h
[ -f "$NETNS_H" ] || die "no $NETNS_H (linux-headers-$KVER); run: make deps KVER=$KVER"
command -v filterdiff >/dev/null || die "needs filterdiff (apt-get install patchutils)"
EXTRACT=$TOP/scripts/upstream-extract.py
# Documentation/networking/ip-sysctl.rst, which make prepare does not
# extract either (the sysctl patches document their entries in it): from
# the full source if upstream-source.sh extracted that release, else once
# from the tarball (that file only), kept in BUILD/pristine-doc.
DOC=Documentation/networking/ip-sysctl.rst
DOCDIR=$BUILD/pristine-doc
if ! cmp -s "$DOCDIR/.version" "$BUILD/pristine/.version"; then
	rm -rf "$DOCDIR"
	mkdir -p "$DOCDIR/${DOC%/*}"
	if cmp -s "$BUILD/upstream-kernel/src.version" "$BUILD/pristine/.version"; then
		cp "$BUILD/upstream-kernel/src/$DOC" "$DOCDIR/$DOC"
	else
		TARBALL=$R/usr/src/linux-source-$LINE.tar.xz
		[ -f "$TARBALL" ] || die "$TARBALL is missing; run: make deps KVER=$KVER"
		say "extracting $DOC from $TARBALL"
		nice -n 19 tar -xJOf "$TARBALL" "linux-source-$LINE/$DOC" >"$DOCDIR/$DOC.tmp" ||
			die "cannot extract $DOC from $TARBALL"
		mv "$DOCDIR/$DOC.tmp" "$DOCDIR/$DOC"
	fi
	cp "$BUILD/pristine/.version" "$DOCDIR/.version"
fi
# The patches generated (all of them).
GENERATED=9
TOTAL=9
NET=tools/testing/selftests/net
"$TOP/scripts/upstream-selftests-src.sh" "$KVER" "$BUILD"

# One date for every commit (the newest change to their sources), so the
# same sources give the same patches.
date=$(git -C "$TOP" log -1 --format=%aD -- upstream net/sctp include patches \
	tests/unit/directed.c scripts/upstream-series.sh \
	scripts/upstream-extract.py scripts/hook-series.sh 2>/dev/null)
export GIT_AUTHOR_NAME="PLACEHOLDER Submitter" GIT_AUTHOR_EMAIL=placeholder@submitter.invalid
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE=${date:-now} GIT_COMMITTER_DATE=${date:-now}

# pristine NAME: a git tree of the pristine source in $BUILD/NAME.
pristine() {
	rm -rf "${BUILD:?}/$1"
	cp -a "$BUILD/pristine" "$BUILD/$1"
	rm -f "$BUILD/$1/.version"
	# struct netns_sctp, which make prepare does not extract: from the
	# headers of the same Debian version (the same include/ as the source)
	mkdir -p "$BUILD/$1/include/net/netns"
	cp "$NETNS_H" "$BUILD/$1/include/net/netns/sctp.h"
	mkdir -p "$BUILD/$1/${DOC%/*}"
	cp "$DOCDIR/$DOC" "$BUILD/$1/$DOC"
	# the selftests' Makefile, which patch 9 changes
	mkdir -p "$BUILD/$1/$NET"
	cp "$BUILD/pristine-selftests/$NET/Makefile" "$BUILD/$1/$NET/Makefile"
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
}

# After each composition (every patch rewrites the mapped files whole):
# the core's functions, visible to the KUnit test module only, and the
# test's KUnit frame.
post_compose() {
	grep -q '^#include <linux/string.h>$' net/sctp/thin_core.c ||
		die "net/sctp/thin_core.c has no '#include <linux/string.h>' to add kunit/visibility.h before"
	sed -i 's,^#include <linux/string.h>$,#include <kunit/visibility.h>\n&,' net/sctp/thin_core.c
	python3 "$EXTRACT" kunit-export net/sctp/thin_core.c
	kunit_frame net/sctp/thin_core_test.c
}

# mib_glue N: the SCTP MIB counters that patch N brings (series.map's
# "N include/net/sctp/thin.h name SCTP_MIB_THIN_*" lines): each one's
# line of our enum (include/net/sctp/thin.h) joins sctp.h's SCTP MIB enum
# before __SCTP_MIB_MAX, and its SNMP_MIB_ITEM line (net/sctp/thin_ctl.c,
# the module's /proc/net/sctp/thin_snmp) joins proc.c's sctp_snmp_list,
# so that /proc/net/sctp/snmp shows it.  The code that counts calls
# sctp_thin_inc_stats(), SCTP_INC_STATS() after rewrite.pl.
mib_glue() {
	local name e l
	for name in $(awk -v n="$1" '$1 == n && $2 == "include/net/sctp/thin.h" && $3 == "name" &&
			$4 ~ /^SCTP_MIB_THIN_/ { print $4 }' "$MAP"); do
		e=$(grep -P "^\t$name,\t" "$TOP/include/net/sctp/thin.h") ||
			die "patch $1: no '$name,' line in include/net/sctp/thin.h's enum"
		l=$(grep -P "^\tSNMP_MIB_ITEM\(\"\w+\", $name\),$" "$TOP/net/sctp/thin_ctl.c") ||
			die "patch $1: no SNMP_MIB_ITEM line of $name in net/sctp/thin_ctl.c"
		grep -q '^	__SCTP_MIB_MAX$' include/net/sctp/sctp.h ||
			die "include/net/sctp/sctp.h of $LINE has no '	__SCTP_MIB_MAX' line"
		grep -q '^	SNMP_MIB_ITEM("SctpInDataChunkDiscards", SCTP_MIB_IN_DATA_CHUNK_DISCARDS),$' net/sctp/proc.c ||
			die "net/sctp/proc.c of $LINE has no SctpInDataChunkDiscards line to add after"
		E=$e perl -pi -e 'print "$ENV{E}\n" if /^\t__SCTP_MIB_MAX$/' include/net/sctp/sctp.h
		# after the list's last line: the previous patch's counter, or stock's last
		L=$l perl -0pi -e 's/(static const struct snmp_mib sctp_snmp_list\[\] = \{\n(?:\tSNMP_MIB_ITEM\(.*\n)*)/$1$ENV{L}\n/' \
			net/sctp/proc.c
	done
}

# hooks N PATCH [filterdiff options]: our hook patch PATCH (patches/, as
# scripts/hook-series.sh gives it for the line), or the files of it that
# the options select, applied as the build applies it (offsets, no fuzz).
# The hook call sites exist once, in patches/.
hooks() {
	local p
	p=$(ls "$TOP"/patches/"$1"-*.patch) || die "no hook patch $1"
	shift
	"$TOP/scripts/hook-series.sh" "$LINE" "$p" | filterdiff "$@" |
		patch -p1 --forward --no-backup-if-mismatch -F0 -s ||
		die "hook patch $(basename "$p") does not apply"
}

# splice TEXT FILE LINE: TEXT's lines into FILE right before the line
# that is exactly LINE (checked first).
splice() {
	grep -qxF "$3" "$2" || die "$2 of $LINE has no line '$3' to add before"
	awk -v mark="$3" -v text="$1" '
		$0 == mark && !done { while ((getline l < text) > 0) print l; done = 1 }
		{ print }' "$2" >"$2.new"
	mv "$2.new" "$2"
}

# sysctl_entry NAME MAX [MIN]: an int entry net.sctp.NAME (MIN, default
# SYSCTL_ZERO, to MAX; data in struct netns_sctp) at the end of
# sctp_net_table.
sysctl_entry() {
	local f=net/sctp/sysctl.c min=${3:-SYSCTL_ZERO}
	{
		echo "	{"
		echo "		.procname	= \"$1\","
		echo "		.data		= &init_net.sctp.$1,"
		echo "		.maxlen		= sizeof(int),"
		echo "		.mode		= 0644,"
		echo "		.proc_handler	= proc_dointvec_minmax,"
		echo "		.extra1		= $min,"
		echo "		.extra2		= $2,"
		echo "	},"
	} >.sysctl.new
	# the table ends at the first "};" after pf_expose's entry
	grep -q '^		.data		= &init_net.sctp.pf_expose,$' $f ||
		die "$f of $LINE has no pf_expose entry to add after"
	awk 'f && $0 == "};" { while ((getline l < ".sysctl.new") > 0) print l; f = 0 }
	     /init_net\.sctp\.pf_expose,$/ { f = 1 }
	     { print }' $f >$f.new
	mv $f.new $f
	rm -f .sysctl.new
}

# doc_sysctl N: the ip-sysctl.rst entries of patch N's sysctls
# (upstream/series/glue/ip-sysctl/N.rst, written for the upstream form:
# its bounds and defaults, no module bounds or /proc file) at the end of
# the SCTP section, after l3mdev_accept's entry or the previous patch's.
doc_sysctl() {
	local text=$TOP/upstream/series/glue/ip-sysctl/$1.rst
	[ -f "$text" ] || die "no $text"
	grep -q '^l3mdev_accept - BOOLEAN$' $DOC ||
		die "$DOC of $LINE has no l3mdev_accept entry (the SCTP section's last)"
	TEXT=$text perl -0pi -e '
		BEGIN { local $/; open my $t, "<", $ENV{TEXT} or die "$ENV{TEXT}: $!\n";
			$text = <$t>; $text =~ s/\n+\z// }
		$c = s/\n\n\n(``\/proc\/sys\/net\/core\/\*``\n)/\n\n$text\n\n\n$1/g;
		END { die "the SCTP section end is there $c times\n" if $c != 1 }' $DOC ||
		die "$DOC of $LINE: the SCTP section does not end before \`\`/proc/sys/net/core/*\`\`"
}

# netns_field DECL: a field of struct netns_sctp, after the last one.
netns_field() {
	local f=include/net/netns/sctp.h last
	last=$(grep -n '^	int thin_' $f | tail -n 1 | cut -d: -f1)
	if [ -n "$last" ]; then
		sed -i "${last}a\\	$1" $f
		return
	fi
	printf '\t/* Thin streams: the defaults of new sockets (SCTP_THIN) */\n\t%s\n\n' \
		"$1" >.field.new
	splice .field.new $f '#ifdef CONFIG_NET_L3_MASTER_DEV'
	rm -f .field.new
}

# The generated uapi and trace texts (.splice/, from the series map) go
# into upstream's headers: before their last #endif the first time, in
# place of the previous patch's text after that (kept in $SPLICED).
splice_generated() {
	local name file mark
	# struct sctp_info's new fields: its generated body, without the
	# first and last lines, before the struct's end (__reserved3 is last)
	if [ -f .splice/sctp_info.h ]; then
		sed '1d;$d' .splice/sctp_info.h >.splice/sctp_info.in
		rm .splice/sctp_info.h
	fi
	for name in uapi-sctp.h trace-sctp.h sctp_info.in; do
		case $name in
		uapi-sctp.h) file=include/uapi/linux/sctp.h mark='#endif /* _UAPI_SCTP_H */' ;;
		trace-sctp.h) file=include/trace/events/sctp.h mark='#endif /* _TRACE_SCTP_H */' ;;
		sctp_info.in) file=include/uapi/linux/sctp.h mark=INFO ;;
		esac
		[ -f .splice/$name ] || continue
		if [ -f "$SPLICED/$name" ]; then
			PREV=$SPLICED/$name NEW=.splice/$name perl -0pi -e '
				BEGIN { local $/; open my $p, "<", $ENV{PREV} or die;
					$prev = <$p>; open my $n, "<", $ENV{NEW} or die;
					$new = <$n> }
				$c = s/\Q$prev\E/$new/g;
				END { die "the previous text is there $c times\n" if $c != 1 }' "$file" ||
				die "$file: the previous patch's generated text is not there once"
		elif [ "$mark" = INFO ]; then
			grep -q '^	__u32	__reserved3;$' "$file" ||
				die "$file of $LINE: struct sctp_info does not end with __reserved3"
			sed -i "/^	__u32	__reserved3;\$/r .splice/$name" "$file"
		else
			cat .splice/$name - >.splice/$name.nl </dev/null
			printf '\n' >>.splice/$name.nl
			splice .splice/$name.nl "$file" "$mark"
		fi
		cp .splice/$name "$SPLICED/$name"
	done
	rm -rf .splice
}

# Patch 9, the selftests: written for the upstream form in
# upstream/series/selftests/net/ (they run on the module too: the same
# sysctls), with their Makefile lines beside sctp_vrf.sh and sctp_hello.
glue_9() {
	cp "$TOP/upstream/series/selftests/net/sctp_thin.sh" \
		"$TOP/upstream/series/selftests/net/sctp_thin.c" "$NET/"
	chmod 755 "$NET/sctp_thin.sh"
	chmod 644 "$NET/sctp_thin.c"
	grep -q '^	sctp_vrf\.sh \\$' "$NET/Makefile" && grep -q '^	sctp_hello \\$' "$NET/Makefile" ||
		die "$NET/Makefile of $LINE has no 'sctp_vrf.sh \\' or 'sctp_hello \\' line to add ours after"
	sed -i -e 's/^\(	sctp_vrf\.sh \\\)$/	sctp_thin.sh \\\n\1/' \
		-e 's/^\(	sctp_hello \\\)$/\1\n	sctp_thin \\/' "$NET/Makefile"
	splice_generated	# unchanged since patch 8: no change
}

glue_8() {
	grep -q '^	  thin_ctl\.o$' net/sctp/Makefile ||
		die "net/sctp/Makefile: patch 2's thin_ctl.o line is not there"
	sed -i 's/^	  thin_ctl\.o$/	  thin_ctl.o thin_rdb.o/' net/sctp/Makefile
	hooks 0011
	netns_field 'int thin_rdb;'
	netns_field 'int thin_rdb_max_bytes;'
	netns_field 'int thin_rdb_max_packets;'
	grep -q '^static int thin_lt_max_limit = SCTP_THIN_LT_MAX_LIMIT;$' net/sctp/sysctl.c ||
		die "net/sctp/sysctl.c: patch 7's bound is not there"
	sed -i 's/^static int thin_lt_max_limit = SCTP_THIN_LT_MAX_LIMIT;$/&\nstatic int thin_rdb_bytes_limit = SCTP_THIN_RDB_MAX_BYTES_LIMIT;\nstatic int thin_rdb_packets_limit = SCTP_THIN_RDB_MAX_PACKETS;/' \
		net/sctp/sysctl.c
	sysctl_entry thin_rdb SYSCTL_ONE
	sysctl_entry thin_rdb_max_bytes '&thin_rdb_bytes_limit'
	sysctl_entry thin_rdb_max_packets '&thin_rdb_packets_limit' SYSCTL_ONE
	doc_sysctl 8
	grep -q '^	net->sctp.thin_linear_timeouts_max = SCTP_THIN_LT_MAX_DEFAULT;$' net/sctp/protocol.c ||
		die "net/sctp/protocol.c: patch 7's default is not there"
	sed -i 's/^	net->sctp.thin_linear_timeouts_max = SCTP_THIN_LT_MAX_DEFAULT;$/&\n	net->sctp.thin_rdb_max_packets = 1;/' \
		net/sctp/protocol.c
	splice_generated
}

glue_7() {
	netns_field 'int thin_linear_timeouts;'
	netns_field 'int thin_linear_timeouts_max;'
	grep -q '^static int pf_expose_max = SCTP_PF_EXPOSE_MAX;$' net/sctp/sysctl.c ||
		die "net/sctp/sysctl.c of $LINE has no pf_expose_max to add a bound after"
	sed -i 's/^static int pf_expose_max = SCTP_PF_EXPOSE_MAX;$/&\nstatic int thin_lt_max_limit = SCTP_THIN_LT_MAX_LIMIT;/' \
		net/sctp/sysctl.c
	sysctl_entry thin_linear_timeouts SYSCTL_ONE
	sysctl_entry thin_linear_timeouts_max '&thin_lt_max_limit' SYSCTL_ONE
	doc_sysctl 7
	grep -q '^	net->sctp.thin_congestion_guard = SCTP_THIN_GUARD_DEFAULT;$' net/sctp/protocol.c ||
		die "net/sctp/protocol.c: patch 4's defaults are not there"
	sed -i 's/^	net->sctp.thin_congestion_guard = SCTP_THIN_GUARD_DEFAULT;$/&\n	net->sctp.thin_linear_timeouts_max = SCTP_THIN_LT_MAX_DEFAULT;/' \
		net/sctp/protocol.c
	splice_generated
}

glue_6() {
	hooks 0009
	netns_field 'int thin_fast_retransmit;'
	sysctl_entry thin_fast_retransmit SYSCTL_ONE
	doc_sysctl 6
	splice_generated
}

glue_5() {
	hooks 0006
	# ms, 0 = off; bounded like the other timers of the table (the
	# module bounds it by rto_max; SCTP_THIN checks a socket's against it)
	netns_field 'int thin_rto_min;'
	sysctl_entry thin_rto_min '&timer_max'
	doc_sysctl 5
	splice_generated
}

glue_4() {
	netns_field 'int thin_loss_estimation;'
	netns_field 'int thin_congestion_guard;'
	sysctl_entry thin_loss_estimation SYSCTL_ONE
	sysctl_entry thin_congestion_guard SYSCTL_ONE_HUNDRED
	doc_sysctl 4
	# their defaults: on, for whichever mechanism is switched on
	grep -q '^	net->sctp.pf_expose = SCTP_PF_EXPOSE_UNSET;$' net/sctp/protocol.c ||
		die "net/sctp/protocol.c of $LINE has no pf_expose default to add after"
	sed -i '/^	net->sctp.pf_expose = SCTP_PF_EXPOSE_UNSET;$/r '"$TOP/upstream/series/glue/defaults-4" \
		net/sctp/protocol.c
	splice_generated
	# sctp_info: filled by sctp_thin_get_info()
	grep -q '^	info->sctpi_ictrlchunks = asoc->stats.ictrlchunks;$' net/sctp/socket.c ||
		die "net/sctp/socket.c of $LINE: sctp_get_sctp_info() has no sctpi_ictrlchunks line"
	sed -i 's/^	info->sctpi_ictrlchunks = asoc->stats.ictrlchunks;$/&\n	sctp_thin_get_info(asoc, info);/' \
		net/sctp/socket.c
	grep -q '^		       struct sctp_info \*info);$' include/net/sctp/sctp.h ||
		die "include/net/sctp/sctp.h of $LINE: no sctp_get_sctp_info() prototype"
	sed -i 's/^		       struct sctp_info \*info);$/&\nvoid sctp_thin_get_info(const struct sctp_association *asoc,\n			struct sctp_info *info);/' \
		include/net/sctp/sctp.h
}

glue_3() {
	netns_field 'int thin_sack_immediately;'
	sysctl_entry thin_sack_immediately SYSCTL_ONE
	doc_sysctl 3
	splice_generated
}

glue_2() {
	# the objects
	grep -q '^	  stream_interleave\.o thin_core\.o$' net/sctp/Makefile ||
		die "net/sctp/Makefile: patch 1's thin_core.o line is not there"
	sed -i 's/^\(	  stream_interleave\.o thin_core\.o\)$/\1 thin.o thin_timer.o \\\n	  thin_ctl.o/' \
		net/sctp/Makefile
	# the hooks: state in the structs (0002), life cycle (0003; not the
	# module's init, exit and /proc file), the option (0004; not
	# SCTP_THIN_INFO), packets and SACKs (0005), the restart (0007), the
	# clock (0008), the outqueue purge (0010)
	hooks 0002
	hooks 0003 -x '*/protocol.c' -x '*/proc.c'
	hooks 0004
	grep -q '^	case SCTP_THIN_INFO:$' net/sctp/socket.c ||
		die "socket.c: no SCTP_THIN_INFO case to take out"
	sed -i '/^	case SCTP_THIN_INFO:$/d' net/sctp/socket.c
	hooks 0005
	hooks 0007
	hooks 0008
	hooks 0010
	# the option number, after upstream's last
	grep -q '^#define SCTP_PLPMTUD_PROBE_INTERVAL	133$' include/uapi/linux/sctp.h ||
		die "include/uapi/linux/sctp.h of $LINE does not end its options with 133"
	sed -i 's/^#define SCTP_PLPMTUD_PROBE_INTERVAL	133$/&\n#define SCTP_THIN	134/' \
		include/uapi/linux/sctp.h
	splice_generated
	grep -q '^#include <linux/tracepoint.h>$' include/trace/events/sctp.h ||
		die "include/trace/events/sctp.h of $LINE has no tracepoint.h include"
	sed -i 's,^#include <linux/tracepoint.h>$,&\n#include <net/sctp/thin_core.h>,' \
		include/trace/events/sctp.h
	# the sysctl
	netns_field 'int thin_restart_timer;'
	sysctl_entry thin_restart_timer SYSCTL_ONE
	doc_sysctl 2
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

# What the series leaves out (the tail probe, the time-based loss rule;
# the module's name, thin_objects counter, /proc file, SCTP_THIN_INFO and
# docs/) must not be named in a generated file after the renames: a
# comment of ours that names it needs a rule in upstream/rewrite.pl (or
# its text left out through the map).
LEFT_OUT='thin-sctp|thin_probe|tail.probe|SCTP_THIN_RACK|SCTP_THIN_TAIL_PROBE|RFC 8985|rack_allows|thin_objects|/proc/net/sctp/thin|SCTP_THIN_INFO|docs/'
left_out_text() {
	local hits
	hits=$(grep -n -i -E "$LEFT_OUT" "$1") || return 0
	printf '%s\n' "$hits" | sed "s|^|  $2:|" >&2
	die "patch $n: $2 names what the series leaves out (above); add a rename to upstream/rewrite.pl"
}

work=$BUILD/upstream-series
SPLICED=$BUILD/upstream-series.spliced
rm -rf "$SPLICED"
mkdir -p "$SPLICED"
pristine upstream-series
for n in $(seq 1 "$GENERATED"); do
	nnnn=$(printf %04d "$n")
	msg=$TOP/upstream/series/$nnnn.msg
	[ -f "$msg" ] || die "no commit message $msg"
	python3 "$EXTRACT" compose "$MAP" "$TOP" "$n" "$work" ||
		die "patch $n: the series map is incomplete (above)"
	# Renames of the out-of-tree shape, on the files we generate.
	while read -r _ _ dest first _; do
		[ "$first" != oot ] && [ "$first" -le "$n" ] || continue
		[ -f "$work/$dest" ] || continue
		SCTP_THIN_PATCH=$n perl -0pi "$TOP/upstream/rewrite.pl" "$work/$dest"
		left_out_text "$work/$dest" "$dest"
	done < <(grep '^file ' "$MAP")
	(cd "$work" && post_compose && "glue_$n" && mib_glue "$n")
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
# under net/sctp/ and include/net/sctp/, which SCTP PROTOCOL covers.  In
# include/trace/events/ the TRACE_EVENT idiom (TP_STRUCT__entry( at a
# line's end, TP_PROTO under TRACE_EVENT() trips OPEN_ENDED_LINE and
# PARENTHESIS_ALIGNMENT, as upstream's own sctp.h there does; make style
# leaves them out for our trace header too.  Those two, in that
# directory only, are dropped from the report.
cp_filter() {
	perl -00 -ne 'next if /^total: /m;
		next if /^CHECK:(OPEN_ENDED_LINE|PARENTHESIS_ALIGNMENT):.*\n#\d+: FILE: include\/trace\/events\//;
		print'
}
fail=0
for p in "$OUT"/*.patch; do
	out=$(cd "$OUT" && perl "$BUILD/pristine/scripts/checkpatch.pl" --strict --no-tree --quiet \
		--show-types --ignore FILE_PATH_CHANGES - <"$p" 2>&1 | cp_filter)
	if [ -z "$out" ]; then
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
	echo "make upstream-series: patches 1-$GENERATED of $TOTAL (docs/design-upstream-series.md)"
	echo "generated: patches 1-$GENERATED of $TOTAL"
	for p in "$OUT"/*.patch; do
		stat=$(grep -E '^ [0-9]+ files? changed' "$p" || true)
		echo "  $(basename "$p"):$stat"
	done
	echo "lines of our sources per patch as placed (before glue and hook hunks):"
	python3 "$EXTRACT" sizes "$MAP" "$TOP" | sed 's/^/  /'
	# Patches not generated yet: their mapped files, composed on their
	# own (call-drop rule and stubs, no glue, no renames), as far as the
	# map goes (the design's R1/R1b).
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
	echo "  patch 9's selftest covers three mechanisms; the module's mechanism tests run on the final kernel"
	echo "  (UPSTREAM_KERNEL=1: tests/kernel/mechanisms.sh, thin-send built for the series' API), its other"
	echo "  in-guest tests (safety, multi-homing, lifecycle) do not (thin-gen and /proc/net/sctp/thin, the module's);"
	echo "  our sources not in the map (file, items):"
	python3 "$EXTRACT" unmapped "$MAP" "$TOP" | sed 's/^/    /'
	echo "  the cover letter: a template (cover-letter.template.txt), the module's numbers"
	echo "  with their commits, not re-measured on the upstream-form kernel;"
	echo "  opt-in, not run by this target alone: the bisect proof, UPSTREAM_BUILD=1 (each patch W=1,"
	echo "  Debian's config; UPSTREAM_BUILD_OPTIONS=off: with the options off), UPSTREAM_KUNIT=1"
	echo "  (the KUnit suite in UML), UPSTREAM_KERNEL=1 (the final kernel, virtme-ng's small config"
	echo "  with CONFIG_IP_SCTP=m, booted in the VM: selftest, lksctp-tools, mechanisms.sh)."
} >"$OUT/STATUS"
cat "$OUT/STATUS"
[ "$fail" = 0 ]
