#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# install KVER DIR: put DIR/sctp.ko and sctp_diag.ko under
#   /lib/modules/KVER/updates/thin-sctp/ and run depmod, so that a plain
#   `modprobe sctp` loads ours (updates/ wins over kernel/).
# uninstall KVER: remove them again.
set -eu
case "$1" in
install)
	KVER=$2 DIR=$3
	dest=/lib/modules/$KVER/updates/thin-sctp
	install -D -m 0644 "$DIR/sctp.ko" "$dest/sctp.ko"
	install -D -m 0644 "$DIR/sctp_diag.ko" "$dest/sctp_diag.ko"
	depmod -a "$KVER"
	echo "installed $(modinfo -F version "$dest/sctp.ko") into $dest; 'modprobe sctp' loads it"
	;;
uninstall)
	KVER=$2
	rm -rf "/lib/modules/$KVER/updates/thin-sctp"
	depmod -a "$KVER"
	echo "removed thin-sctp from /lib/modules/$KVER/updates"
	;;
*)
	echo "usage: $0 install KVER DIR | uninstall KVER" >&2
	exit 2
	;;
esac
