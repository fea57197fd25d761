#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fetch Debian's lksctp-tools source package and build its functional tests
# (src/func_tests) into build/lksctp-tools.  Idempotent; never committed.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
DST=$TOP/build/lksctp-tools
SRCLIST=/etc/apt/sources.list.d/thin-sctp-src.sources

if [ -f "$DST/.built" ]; then
	echo "fetch-build: $(cat "$DST/.built") already built"
	exit 0
fi
if ! apt-get source --print-uris lksctp-tools >/dev/null 2>&1; then
	sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$SRCLIST"
	apt-get update -q
fi
export DEBIAN_FRONTEND=noninteractive
need=""
for p in dpkg-dev autoconf automake libtool pkg-config; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need="$need $p"
done
# shellcheck disable=SC2086
[ -z "$need" ] || apt-get install -y -q --no-install-recommends $need
rm -rf "$DST"
mkdir -p "$DST"
cd "$DST"
apt-get source -q lksctp-tools >/dev/null
src=$(find . -maxdepth 1 -type d -name 'lksctp-tools-*' | head -n 1)
[ -n "$src" ] || { echo "fetch-build: apt-get source gave no tree"; exit 1; }
cd "$src"
(./bootstrap && ./configure --enable-static --disable-shared && make -j"$(nproc)") >"$DST/build.log" 2>&1 ||
	{ tail -n 30 "$DST/build.log"; exit 1; }
ver=$(basename "$src")
n=$(find src/func_tests -maxdepth 1 -type f -executable -name 'test_*' | wc -l)
echo "$ver" >"$DST/.built"
ln -sfn "$DST/$src" "$DST/current"
echo "fetch-build: $ver, $n functional tests built"
