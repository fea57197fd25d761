#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Inside the guest (or on a test host): load sctp, ours or stock, check
# which one is loaded, run the command, save rc and the kernel log.
#   guest.sh ours|stock|none OUTDIR "CMD"
set -u
MODE=$1 OUT=$2 CMD=$3
KVER=$(uname -r)
MODDIR=${THIN_MODDIR:?}
export THIN_OUT=$OUT THIN_MODE=$MODE THIN_MODDIR PATH=/usr/sbin:/sbin:$PATH
echo 1 >"$OUT/rc"
dmesg -c >/dev/null 2>&1 || true
trap 'dmesg >"$OUT/dmesg.txt" 2>&1' EXIT

# load DIR: sctp and sctp_diag from DIR (Debian's own are sctp.ko.xz
# from 6.12 on; insmod takes either).
load() {
	local m ko=.ko
	if lsmod | grep -q '^sctp '; then
		modprobe -r sctp_diag sctp 2>/dev/null || rmmod sctp_diag sctp || return 1
	fi
	[ -f "$1/sctp.ko" ] || ko=.ko.xz
	for m in $(modinfo -F depends "$1/sctp$ko" "$1/sctp_diag$ko" | tr , ' '); do
		[ "$m" = sctp ] || modprobe "$m" || return 1
	done
	insmod "$1/sctp$ko" || return 1
	insmod "$1/sctp_diag$ko" || return 1
}

if [ "$MODE" = none ]; then
	:
elif [ "$MODE" = stock ]; then
	load "/lib/modules/$KVER/kernel/net/sctp" || { echo "guest: cannot load stock sctp"; exit 1; }
	if [ -n "$(cat /sys/module/sctp/version 2>/dev/null)" ]; then
		echo "guest: stock run but sctp has version $(cat /sys/module/sctp/version)"
		exit 1
	fi
else
	load "$MODDIR" || { echo "guest: cannot load $MODDIR/sctp.ko"; exit 1; }
	want=$(modinfo -F version "$MODDIR/sctp.ko")
	have=$(cat /sys/module/sctp/version 2>/dev/null)
	if [ "$have" != "$want" ]; then
		echo "guest: loaded sctp is '$have', expected '$want'"
		exit 1
	fi
fi
echo "guest: $KVER, sctp $MODE ($(cat /sys/module/sctp/version 2>/dev/null || echo in-tree))"
bash -c "$CMD"
rc=$?
echo "$rc" >"$OUT/rc"
exit "$rc"
