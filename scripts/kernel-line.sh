#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel lines thin-sctp supports, and which one a release belongs to.
#
#   kernel-line.sh RELEASE   print "LINE SUITE ROOT" for a supported release,
#                            or explain in one line why not and exit 1
#   kernel-line.sh --list    the supported releases that can be built on
#                            this machine (headers and the linux-source of
#                            the same Debian version installed, here or in
#                            the line's build root), one a line
#   kernel-line.sh --lines   the supported lines, one a line
#
# A line is a row below plus Debian's linux-source-LINE; the hook series
# (patches/series, and patches/LINE/series for a line's own additions,
# scripts/hook-series.sh) serves every line.
# SUITE is the apt suite of its packages, ROOT where modules for it build:
# "host" (this Debian 12) or "trixie" (a Debian 13 chroot: 7.x headers
# need gcc-14 and trixie's libc; see docs/kernels.md), which is "host" on
# a Debian 13 machine itself.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)

# line  Debian release (ABI) pattern  suite               root
LINES='
6.1     6.1.0-*-amd64                 bookworm            host
6.12    6.12.*+deb12-amd64            bookworm-backports  host
7.3     7.3.*+deb13-amd64             trixie-backports    trixie
'

# release_line RELEASE: the table row ("LINE PATTERN SUITE ROOT") or nothing.
release_line() {
	local line pat suite root
	while read -r line pat suite root; do
		[ -n "$line" ] || continue
		# shellcheck disable=SC2053
		if [[ $1 == $pat ]]; then
			# On a machine of the root's own Debian release (a
			# Debian 13 host for 7.x) the module builds natively.
			[ "$root" = "$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}")" ] && root=host
			echo "$line $pat $suite $root"
			return 0
		fi
	done <<<"$LINES"
	return 1
}

# buildable RELEASE LINE ROOT: headers and the source of the same Debian
# version are here, or in the line's build root (scripts/buildroot.sh).
buildable() {
	local r="" hv sv
	if [ "$3" != host ]; then
		r=$("$TOP/scripts/buildroot.sh" dir "$3" 2>/dev/null) || return 1
		[ -f "$r/.thin-ready" ] || return 1
	fi
	[ -d "$r/usr/src/linux-headers-$1" ] || return 1
	[ -f "$r/usr/src/linux-source-$2.tar.xz" ] || return 1
	hv=$(dpkg-query --admindir="$r/var/lib/dpkg" -W -f='${Version}' "linux-headers-$1" 2>/dev/null) || return 1
	sv=$(dpkg-query --admindir="$r/var/lib/dpkg" -W -f='${Version}' "linux-source-$2" 2>/dev/null) || return 1
	[ "$hv" = "$sv" ]
}

if [ "${1:-}" = --lines ]; then
	awk 'NF { print $1 }' <<<"$LINES"
	exit 0
fi

if [ "${1:-}" = --list ]; then
	for d in /usr/src/linux-headers-* "$("$TOP/scripts/buildroot.sh" dir trixie)"/usr/src/linux-headers-*; do
		[ -d "$d" ] || continue
		rel=${d##*/linux-headers-}
		row=$(release_line "$rel") || continue
		read -r line _ _ root <<<"$row"
		buildable "$rel" "$line" "$root" && echo "$rel"
	done | sort -V
	exit 0
fi

rel=${1:?usage: kernel-line.sh RELEASE | --list | --lines}
if ! row=$(release_line "$rel"); then
	echo "thin-sctp: kernel $rel is not supported (supported: $(awk 'NF { printf "%s%s", sep, $2; sep = ", " }' <<<"$LINES"))" >&2
	exit 1
fi
read -r line _ suite root <<<"$row"
echo "$line $suite $root"
