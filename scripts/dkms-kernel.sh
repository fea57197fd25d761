#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dkms.conf's BUILD_EXCLUSIVE_KERNEL: may DKMS build this tree for a kernel?
#
#   dkms-kernel.sh KVER   print a regular expression that matches KVER if
#                         this tree builds for it here (scripts/kernel-line.sh
#                         --list: a supported line whose headers and
#                         linux-source-<line> are installed in one Debian
#                         version), else one that matches no release; for a
#                         release of a supported line also why, on stderr
#
# DKMS skips a kernel that BUILD_EXCLUSIVE_KERNEL does not match (dkms build
# exits 77, "Skipped." in its postinst), where a failed build would fail
# apt: the installation of this package, or of a kernel (dkms autoinstall).
# An old ABI still installed after a kernel upgrade, for instance, has
# headers but no linux-source-<line> of its Debian version.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
k=${1:-}
never='^$'

info=$("$TOP/scripts/kernel-line.sh" "$k" 2>/dev/null) || { echo "$never"; exit 0; }
if "$TOP/scripts/kernel-line.sh" --list 2>/dev/null | grep -qxF -- "$k"; then
	printf '^%s$\n' "$(printf '%s' "$k" | sed 's/[][\.^$*+?(){}|]/\\&/g')"
	exit 0
fi
echo "$never"

read -r line _ root <<<"$info"
src=linux-source-$line
why() { echo "thin-sctp: not built for $k: $*" >&2; }
if [ "$root" != host ]; then
	why "the $line line builds on Debian's $root (here only in a build root: make deps KVER=$k in thin-sctp's source tree)"
	exit 0
fi
hv=$(dpkg-query -W -f='${Version}' "linux-headers-$k" 2>/dev/null) || true
sv=$(dpkg-query -W -f='${Version}' "$src" 2>/dev/null) || true
if [ -z "$hv" ] || [ ! -d "/usr/src/linux-headers-$k" ]; then
	why "linux-headers-$k is not installed (apt-get install linux-headers-$k)"
elif [ -z "$sv" ] || [ ! -f "/usr/src/$src.tar.xz" ]; then
	why "$src is not installed (apt-get install $src=$hv)"
elif [ "$hv" != "$sv" ]; then
	why "$src is $sv but linux-headers-$k is $hv; the build needs one Debian version (apt-get install $src=$hv, if the archive still has it; else boot the newest $line kernel)"
else
	why "scripts/kernel-line.sh --list does not list it"
fi
exit 0
