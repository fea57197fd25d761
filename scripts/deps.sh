#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install every Debian package and Python tool the build and the tests need
# (root, Debian 12).  Idempotent: installs only what is missing.
#
#   deps.sh [KVER]   also what kernel release KVER needs, if it is not of
#                    the 6.1 line (scripts/deps-kernel.sh); without KVER,
#                    what the newest release of each other kernel line
#                    needs (scripts/kernel-resolve.sh; THIN_KERNELS names
#                    releases instead), recorded in build/kernels
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
KVER=${1:-}
VENV=${THIN_VENV:-/opt/thin-venv}

pkgs="build-essential bc flex bison libelf-dev libssl-dev kmod dwarves
linux-image-amd64 linux-headers-amd64 linux-source-6.1
qemu-system-x86 qemu-utils sparse dkms python3-venv python3-pip
iproute2 iputils-ping ethtool nftables tcpdump procps psmisc
clang libclang-rt-14-dev valgrind rsync bc libnetfilter-queue-dev libmnl-dev
busybox-static patchutils"
for f in "$TOP"/tests/*/DEPS "$TOP"/tools/DEPS; do
	[ -f "$f" ] && pkgs="$pkgs $(grep -v '^#' "$f" | tr '\n' ' ')"
done

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || { echo "deps: need root to install:$missing" >&2; exit 1; }
	echo "deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
fi

# make deb: the build dependencies in debian/control (debhelper, dh-dkms).
if ! dpkg-checkbuilddeps "$TOP/debian/control" >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || { echo "deps: need root to install the build dependencies of debian/control" >&2; exit 1; }
	echo "deps: installing the build dependencies of debian/control"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get build-dep -y -q --no-install-recommends "$TOP"
fi

# The three kernel packages must be one Debian version.
kver=$(ls -d /usr/src/linux-headers-6.1.0-*-amd64 | sed 's,.*/linux-headers-,,' | sort -V | tail -n 1)
for p in "linux-image-$kver" "linux-headers-$kver" linux-source-6.1; do
	v=$(dpkg-query -W -f='${Version}' "$p")
	echo "deps: $p $v"
done
if [ -n "$KVER" ]; then
	"$TOP/scripts/deps-kernel.sh" "$KVER"
else
	# The other kernel lines make check tests (build, load, mechanisms,
	# regress), each on the newest release Debian's archive offers now
	# (scripts/kernel-resolve.sh): 6.12 on the host (pinned), 7.3 in the
	# cached trixie root.  THIN_KERNELS="REL ..." names the releases
	# instead, THIN_KERNELS="" skips them.  What each line got goes to
	# build/kernels ("LINE RELEASE", or "LINE - WHY" for a line whose
	# kernel cannot be had), which make check reports in its summary.
	mkdir -p "$TOP/build"
	if [ -n "${THIN_KERNELS+set}" ]; then
		want=""
		for k in $THIN_KERNELS; do
			l=$("$TOP/scripts/kernel-line.sh" "$k" | cut -d' ' -f1) || continue
			want="$want$l $k"$'\n'
		done
	else
		want=$("$TOP/scripts/kernel-resolve.sh" --all)
	fi
	: >"$TOP/build/kernels.tmp"
	while read -r l k why; do
		[ -n "$l" ] || continue
		if [ "$k" = - ]; then
			echo "deps: kernel line $l: no kernel: $why"
			echo "$l - $why" >>"$TOP/build/kernels.tmp"
		elif "$TOP/scripts/deps-kernel.sh" "$k" </dev/null; then
			echo "deps: kernel line $l: $k"
			echo "$l $k" >>"$TOP/build/kernels.tmp"
		else
			echo "deps: kernel line $l: $k could not be installed (make deps KVER=$k failed; see above)"
			echo "$l - $k could not be installed (make deps KVER=$k; build/check/deps.log)" >>"$TOP/build/kernels.tmp"
		fi
	done <<<"$want"
	mv "$TOP/build/kernels.tmp" "$TOP/build/kernels"
fi

stamp=$VENV/.thin-requirements
if ! cmp -s "$TOP/scripts/requirements.txt" "$stamp"; then
	[ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV"
	"$VENV/bin/pip" install -q -r "$TOP/scripts/requirements.txt"
	cp "$TOP/scripts/requirements.txt" "$stamp"
fi
echo "deps: ok (virtme-ng $("$VENV/bin/vng" --version 2>/dev/null | head -n 1))"
