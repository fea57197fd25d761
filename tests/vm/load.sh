#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest (or on a test host): load sctp and sctp_diag, ours or
# Debian's, in place of whichever sctp is loaded, and check that the one
# asked for runs.  tests/vm/guest.sh loads the module of a boot with it; a
# command that needs the other one later in the same boot (make check's
# lksctp-tools runs, tests/regress/run) calls it too.
#   load.sh ours|stock   (ours: from $THIN_MODDIR)
set -u
MODE=${1:?usage: load.sh ours|stock}
KVER=$(uname -r)

# unload: a namespace's SCTP state is released asynchronously after its
# last socket closes, and sctp holds a reference until then: try for up
# to 60 s.
unload() {
	lsmod | grep -q '^sctp ' || return 0
	for _ in $(seq 60); do
		modprobe -r sctp_diag sctp 2>/dev/null || rmmod sctp_diag sctp 2>/dev/null
		lsmod | grep -q '^sctp ' || return 0
		sleep 1
	done
	echo "load: sctp still in use after 60 s: $(lsmod | grep '^sctp ')"
	return 1
}

# load DIR: sctp and sctp_diag from DIR (Debian's own are sctp.ko.xz
# from 6.12 on; insmod takes either).
load() {
	local m ko=.ko
	unload || return 1
	[ -f "$1/sctp.ko" ] || ko=.ko.xz
	for m in $(modinfo -F depends "$1/sctp$ko" "$1/sctp_diag$ko" | tr , ' '); do
		[ "$m" = sctp ] || modprobe "$m" || return 1
	done
	insmod "$1/sctp$ko" || return 1
	insmod "$1/sctp_diag$ko" || return 1
}

if [ "$MODE" = stock ]; then
	load "/lib/modules/$KVER/kernel/net/sctp" || { echo "load: cannot load stock sctp"; exit 1; }
	if [ -n "$(cat /sys/module/sctp/version 2>/dev/null)" ]; then
		echo "load: stock asked for, but sctp has version $(cat /sys/module/sctp/version)"
		exit 1
	fi
else
	MODDIR=${THIN_MODDIR:?}
	load "$MODDIR" || { echo "load: cannot load $MODDIR/sctp.ko"; exit 1; }
	want=$(modinfo -F version "$MODDIR/sctp.ko")
	have=$(cat /sys/module/sctp/version 2>/dev/null)
	if [ "$have" != "$want" ]; then
		echo "load: loaded sctp is '$have', expected '$want'"
		exit 1
	fi
fi
echo "load: $KVER, sctp $MODE ($(cat /sys/module/sctp/version 2>/dev/null || echo in-tree))"
