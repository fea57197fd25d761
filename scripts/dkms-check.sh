#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Prove that `dkms build` works: register a copy of this tree as
# thin-sctp/0.1-ci (DKMS_VER), build it for KVER, check the modules, remove it again.
#   dkms-check.sh [DEB]   with the thin-sctp-dkms .deb, its own copy of the
#                         tree (/usr/src/thin-sctp-<version>/): the package
#                         must carry every file the build reads
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
KVER=${KVER:-$(ls -d /usr/src/linux-headers-6.1.0-*-amd64 | sed 's,.*/linux-headers-,,' | sort -V | tail -n 1)}
VER=${DKMS_VER:-0.1-ci}
SRC=/usr/src/thin-sctp-$VER
cleanup() {
	dkms remove -m thin-sctp -v "$VER" --all >/dev/null 2>&1 || true
	rm -rf "$SRC"
}
trap cleanup EXIT
cleanup
mkdir -p "$SRC"
if [ $# -gt 0 ]; then
	x=$(mktemp -d)
	dpkg-deb -x "$1" "$x"
	cp -a "$x"/usr/src/thin-sctp-*/. "$SRC/"
	rm -rf "$x"
	echo "dkms-check: the source of $(basename "$1")"
else
	(cd "$TOP" && git ls-files -z | xargs -0 cp --parents -t "$SRC")
fi
sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$VER\"/" "$SRC/dkms.conf"
dkms add -m thin-sctp -v "$VER"
dkms build -m thin-sctp -v "$VER" -k "$KVER"
ko=$(find "/var/lib/dkms/thin-sctp/$VER/$KVER" -name 'sctp.ko*' | head -n 1)
[ -n "$ko" ] || { echo "dkms-check: no sctp.ko built"; exit 1; }
echo "dkms-check: built $ko ($(modinfo -F version "$ko"))"
