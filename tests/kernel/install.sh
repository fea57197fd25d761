#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In a guest with no sctp loaded (tests/vm/run --noload): after
# `make install` (scripts/install-modules.sh) a plain `modprobe sctp` loads
# ours; after `make uninstall` modprobe resolves to the stock module again.
# The guest's /lib/modules is a throw-away overlay.
. "$(dirname "$0")/lib.sh"
KVER=$(uname -r)
MOD=${THIN_MODDIR:?}
want=$(modinfo -F version "$MOD/sctp.ko")

check '! lsmod | grep -q "^sctp "' "no sctp loaded at start"
"$TOP/scripts/install-modules.sh" install "$KVER" "$MOD"
check '[ "$(modinfo -n sctp)" = "/lib/modules/$KVER/updates/thin-sctp/sctp.ko" ]' "modprobe resolves sctp to updates/thin-sctp"
modprobe sctp
check '[ "$(cat /sys/module/sctp/version 2>/dev/null)" = "$want" ]' "modprobe sctp loaded ours ($want)"
modprobe sctp_diag
check 'lsmod | grep -q "^sctp_diag "' "modprobe sctp_diag works with ours"
"$TOP/scripts/install-modules.sh" uninstall "$KVER"
# Debian's own module is sctp.ko (6.1) or sctp.ko.xz (6.12 on).
check 'case "$(modinfo -n sctp)" in "/lib/modules/$KVER/kernel/net/sctp/sctp.ko"|"/lib/modules/$KVER/kernel/net/sctp/sctp.ko.xz") true ;; *) false ;; esac' "after uninstall modprobe resolves to the stock module"
thin_done
