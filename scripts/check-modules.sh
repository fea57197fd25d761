#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Check the freshly built modules: vermagic of KVER, our version tag.
set -eu
KVER=$1 DIR=$2 VER=$3
for m in sctp sctp_diag; do
	[ -f "$DIR/$m.ko" ] || { echo "check-modules: $DIR/$m.ko missing" >&2; exit 1; }
	vm=$(modinfo -F vermagic "$DIR/$m.ko" | cut -d' ' -f1)
	[ "$vm" = "$KVER" ] || { echo "check-modules: $m.ko vermagic $vm != $KVER" >&2; exit 1; }
done
v=$(modinfo -F version "$DIR/sctp.ko")
[ "$v" = "thin-sctp-$VER" ] || { echo "check-modules: sctp.ko version '$v', expected thin-sctp-$VER" >&2; exit 1; }
echo "check-modules: sctp.ko is thin-sctp-$VER for $KVER"
