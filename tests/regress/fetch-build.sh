#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fetch Debian's lksctp-tools source package with `apt-get source` and build
# its functional tests (src/func_tests) into build/lksctp-tools/ (ignored by
# git: upstream code is never committed).  Run as root on Debian 12; only
# Debian's package archive has to be reachable.
#
# Idempotent: a stamp (build/lksctp-tools/.built) records a finished build;
# with the stamp present and every test program listed in tests.txt still
# executable, nothing is done.  REGRESS_REBUILD=1 forces a rebuild.
#
# Output:
#   build/lksctp-tools/current            -> the unpacked, built source tree
#   build/lksctp-tools/tests.txt          test programs, one a line, as the
#                                         generated Makefile lists them
#   build/lksctp-tools/build.log          bootstrap/configure/make output
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
DST=$TOP/build/lksctp-tools
STAMP=$DST/.built
SRCLIST=/etc/apt/sources.list.d/thin-sctp-src.sources
# Bump when the build recipe below changes, so old builds are redone.
RECIPE=2
# Debian packages the fetch and the build need (also in tests/regress/DEPS,
# which scripts/deps.sh installs).
PKGS="build-essential dpkg-dev autoconf automake libtool pkg-config xz-utils"

log() { echo "fetch-build: $*"; }
die() { echo "fetch-build: error: $*" >&2; exit 1; }

# up_to_date: stamp of this recipe and every listed program still there.
up_to_date() {
	local t
	[ -f "$STAMP" ] && [ -f "$DST/tests.txt" ] || return 1
	[ "$(sed -n 's/^recipe //p' "$STAMP")" = "$RECIPE" ] || return 1
	[ -s "$DST/tests.txt" ] || return 1
	while read -r t; do
		[ -x "$DST/current/src/func_tests/$t" ] || return 1
	done <"$DST/tests.txt"
}

if [ "${REGRESS_REBUILD:-0}" != 1 ] && up_to_date; then
	log "$(sed -n 's/^source //p' "$STAMP") already built ($(wc -l <"$DST/tests.txt") tests)"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "must run as root (apt-get)"
mkdir -p "$DST"
# One fetch/build at a time (two runs of tests/regress/run, make check).
exec 9>"$DST/../.lksctp-tools.lock"
flock 9
if [ "${REGRESS_REBUILD:-0}" != 1 ] && up_to_date; then
	log "built meanwhile by another run"
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive

# 1. A deb-src source.  Debian 12 ships deb822 debian.sources with
#    "Types: deb"; copy it as deb-src.  Older one-line sources.list too.
has_deb_src() {
	grep -rqsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/
}
if ! has_deb_src; then
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed -E 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$SRCLIST"
	elif grep -qsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list; then
		SRCLIST=/etc/apt/sources.list.d/thin-sctp-src.list
		sed -nE 's/^[[:space:]]*deb([[:space:]])/deb-src\1/p' /etc/apt/sources.list >"$SRCLIST"
	else
		die "no Debian source in /etc/apt to derive a deb-src line from"
	fi
	log "added $SRCLIST"
fi

# 2. Package lists that know the source package (fresh machine: none yet).
if [ -z "$(apt-cache showsrc lksctp-tools 2>/dev/null)" ]; then
	log "apt-get update"
	apt-get update -q >/dev/null || die "apt-get update failed"
	[ -n "$(apt-cache showsrc lksctp-tools 2>/dev/null)" ] ||
		die "apt-cache showsrc lksctp-tools: still unknown after apt-get update"
fi

# 3. Build tools.
need=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need="$need $p"
done
if [ -n "$need" ]; then
	log "installing:$need"
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $need >/dev/null ||
		{ apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $need >/dev/null; } ||
		die "apt-get install$need failed"
fi

# 4. Source.  Fetch into a fresh scratch directory, then move it in place.
rm -rf "$DST/src.new"
mkdir -p "$DST/src.new"
cd "$DST/src.new"
# apt-get source downloads as root when _apt cannot write here; that is fine.
apt-get source -q lksctp-tools >"$DST/fetch.log" 2>&1 || { tail -n 20 "$DST/fetch.log"; die "apt-get source failed"; }
src=$(find . -mindepth 1 -maxdepth 1 -type d -name 'lksctp-tools-*' -printf '%f\n' | head -n 1)
[ -n "$src" ] || die "apt-get source gave no source tree (see $DST/fetch.log)"
dsc=$(find . -maxdepth 1 -name 'lksctp-tools_*.dsc' -printf '%f\n' | head -n 1)
ver=$(sed -n "s/^Version: //p" "$dsc" 2>/dev/null) || ver=""

# 5. Old tree out, new one in (the stamp goes last, after the build).
cd "$DST"
rm -f "$STAMP" tests.txt current
find "$DST" -mindepth 1 -maxdepth 1 ! -name src.new ! -name fetch.log -exec rm -rf {} +
mv src.new/* "$DST"/
rmdir src.new
ln -sfn "$src" current

# 6. Build.  Static libsctp so the test programs are plain binaries (no
#    libtool wrapper scripts that want to write into the tree in the guest).
#    Only func_tests and the two libraries it links are built.
cd "$src"
log "building lksctp-tools ${ver:-$src} (log: $DST/build.log)"
{
	./bootstrap &&
		./configure --enable-static --disable-shared &&
		make -C src/func_tests -j"$(nproc)"
} >"$DST/build.log" 2>&1 || { tail -n 30 "$DST/build.log"; die "build failed"; }

# The exact list of programs, from the generated Makefile (configure's
# conditionals applied, e.g. HAVE_SCTP_SENDV adds test_sctp_sendvrecvv*).
# shellcheck disable=SC2016
progs=$(make -s --no-print-directory -C src/func_tests -f Makefile -f - print-progs \
	<<<'print-progs: ; @echo $(noinst_PROGRAMS)' | tr ' ' '\n' | sed '/^$/d' | sort)
[ -n "$progs" ] || die "no test programs listed in src/func_tests/Makefile"
for t in $progs; do
	[ -x "src/func_tests/$t" ] || die "src/func_tests/$t was not built"
done
printf '%s\n' "$progs" >"$DST/tests.txt"
printf 'source lksctp-tools %s\nrecipe %s\n' "${ver:-$src}" "$RECIPE" >"$STAMP"
log "lksctp-tools ${ver:-$src}: $(wc -l <"$DST/tests.txt") functional tests built in $DST/current/src/func_tests"
