#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Inside the guest (or on a test host): load sctp, ours or stock, check
# which one is loaded (tests/vm/load.sh), run the command, save rc and the
# kernel log.
#   guest.sh ours|stock|none OUTDIR "CMD"
set -u
MODE=$1 OUT=$2 CMD=$3
KVER=$(uname -r)
: "${THIN_MODDIR:?}"
export THIN_OUT=$OUT THIN_MODE=$MODE THIN_MODDIR PATH=/usr/sbin:/sbin:$PATH
echo 1 >"$OUT/rc"
dmesg -c >/dev/null 2>&1 || true
trap 'dmesg >"$OUT/dmesg.txt" 2>&1' EXIT

echo "guest: $KVER, sctp $MODE"
if [ "$MODE" != none ]; then
	"$(dirname "$0")/load.sh" "$MODE" || exit 1
fi
bash -c "$CMD"
rc=$?
echo "$rc" >"$OUT/rc"
exit "$rc"
