#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the VM booted from the system under test of tests/deb/run (its root
# file system, read-only; virtme-ng's init runs that system's udevd):
# sctp is not loaded; load it one way and check what it got.
#
#   guest.sh ondemand OUT   an application's first SCTP socket loads sctp
#                           (the kernel's request_module): it is thin-sctp
#                           (DKMS's) and that first socket has the preset
#   guest.sh insmod OUT     insmod, which bypasses modprobe.d: the udev rule
#                           applies the preset
#   guest.sh diag OUT       modprobe sctp_diag loads sctp as its dependency
#   guest.sh atboot OUT     systemd as init loaded sctp at boot
#                           (modules-load.d): it is thin-sctp and has the
#                           preset (systemd-sysctl), and so do new sockets
#   guest.sh nohook OUT     the control: on demand with the modprobe hook
#                           masked (the udev rule alone): what the first
#                           socket gets is recorded, not checked (a race)
#   guest.sh stock OUT      after apt-get remove: Debian's module on demand
#
# Writes OUT/result ("ok - ..." / "not ok - ..." lines) and the first
# socket's report (OUT/first-socket.json).
# check's conditions are strings for eval, expanded there.
# shellcheck disable=SC2016,SC2034
set -u
mode=$1 out=$2
here=$(dirname "$0")
k=$(uname -r)
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
: >"$out/result"
ok() { echo "ok - $k $mode: $1" >>"$out/result"; }
not_ok() { echo "not ok - $k $mode: $1${2:+: $2}" >>"$out/result"; }
check() { if eval "$1"; then ok "$2"; else not_ok "$2" "$1"; fi; }
trap 'dmesg >"$out/dmesg.txt" 2>&1' EXIT

# The preset as enabled in /etc/sysctl.d: "name value" lines.
preset=$(sed -n 's/^net\.sctp\.\(thin_[a-z_]*\)[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1 \2/p' /etc/sysctl.d/90-thin-sctp.conf)
# preset_applied: every preset value is in /proc/sys/net/sctp now.
preset_applied() {
	local n v
	[ -n "$preset" ] || return 1
	while read -r n v; do
		[ "$(cat "/proc/sys/net/sctp/$n" 2>/dev/null)" = "$v" ] || return 1
	done <<<"$preset"
}
# wait_applied SEC: poll preset_applied for up to SEC seconds.
wait_applied() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		preset_applied && return 0
		sleep 0.1
	done
	return 1
}
# json FIELD: a field of the first socket's report.
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval("d" + sys.argv[2]))' "$out/first-socket.json" "$1" 2>/dev/null; }

{
	echo "kernel $k, init $(readlink /proc/1/exe)"
	echo "udevd: $(pgrep -a systemd-udevd | head -n 1)"
	echo "modprobe sctp would run: $(modprobe -n --show-depends sctp 2>&1 | tr '\n' ' ')"
} >"$out/guest-info.txt"
if [ "$mode" = atboot ]; then
	check '[ -d /sys/module/sctp ]' "sctp loaded at boot"
else
	check '[ ! -d /sys/module/sctp ]' "sctp not loaded at start"
fi
check 'udevadm control --ping' "udevd runs in the guest ($(basename "$(readlink /proc/1/exe)") is init)"

case "$mode" in
atboot)
	check '[ "$(readlink /proc/1/exe)" = /usr/lib/systemd/systemd ] || [ "$(readlink /proc/1/exe)" = /lib/systemd/systemd ]' "systemd is init"
	check 'journalctl -b -u systemd-modules-load --no-pager | grep -q "Inserted module .sctp."' "systemd-modules-load inserted sctp"
	v=$(cat /sys/module/sctp/version 2>/dev/null)
	check 'case "$v" in thin-sctp-dkms-*) true ;; *) false ;; esac' "the module loaded at boot is DKMS's thin-sctp: $v"
	check 'preset_applied' "/proc/sys/net/sctp/thin_* are the preset's after boot"
	python3 "$here/first-socket.py" >"$out/first-socket.json" 2>"$out/first-socket.err"
	check '[ "$(json "[\"first_socket\"][\"flags\"]")" = 0x7f ]' "a socket then has the preset: $(json '["first_socket"]')"
	;;
nohook)
	# As an operator masks it: /etc/modprobe.d/thin-sctp.conf -> /dev/null
	# (the root file system is read-only here: a tmpfs over the directory).
	mount -t tmpfs none /etc/modprobe.d
	ln -s /dev/null /etc/modprobe.d/thin-sctp.conf
	check '! modprobe -n --show-depends sctp | grep -q "^install"' "the modprobe hook is masked"
	python3 "$here/first-socket.py" >"$out/first-socket.json" 2>"$out/first-socket.err"
	udevadm settle
	echo "without the modprobe hook: first socket SCTP_THIN $(json '["first_socket"]'), its association $(json '["first_socket_association"]'); after udevadm settle: thin_rto_min $(cat /proc/sys/net/sctp/thin_rto_min)" >"$out/nohook.txt"
	check 'preset_applied' "the udev rule alone applies the preset (for later sockets): $(cat "$out/nohook.txt")"
	;;
ondemand | stock)
	python3 "$here/first-socket.py" >"$out/first-socket.json" 2>"$out/first-socket.err"
	rc=$?
	check '[ $rc = 0 ]' "the first SCTP socket opens (sctp loaded on demand)"
	check '[ "$(json "[\"sctp_loaded_before\"]")" = False ]' "sctp was not loaded before that socket"
	if [ "$mode" = ondemand ]; then
		v=$(json '["module_version"]')
		check 'case "$v" in thin-sctp-dkms-*) true ;; *) false ;; esac' "the module loaded is DKMS's thin-sctp: $v"
		f=$(json '["module_file"]')
		check 'case "$f" in /lib/modules/$k/updates/dkms/sctp.ko*) true ;; *) false ;; esac' "modprobe resolves sctp to $f"
		check '[ "$(json "[\"first_socket\"][\"flags\"]")" = 0x7f ] && [ "$(json "[\"first_socket\"][\"rto_min\"]")" = 200 ]' \
			"the first socket itself has the preset: SCTP_THIN $(json '["first_socket"]')"
		check '[ "$(json "[\"first_socket_association\"][\"flags\"]")" = 0x7f ]' \
			"its association too: $(json '["first_socket_association"]')"
		check 'preset_applied' "/proc/sys/net/sctp/thin_* are the preset's"
		check 'json "[\"proc_net_sctp_thin\"]" | grep -q " 0x7f "' "/proc/net/sctp/thin lists the association with mechanisms 0x7f"
		check 'json "[\"thin_stat\"]" | grep -q "mechanisms:rto_min,restart_timer,linear_timeouts,fast_retransmit,loss_estimation,congestion_guard,sack_immediately"' \
			"thin-stat shows the association and its mechanisms"
		json '["thin_stat"]' >"$out/thin-stat.txt"
		json '["thin_stat_json"]' >"$out/thin-stat.json"
		# The udev rule matches the module's add event (what udevd runs).
		udevadm test --action=add /module/sctp >"$out/udevadm-test.txt" 2>&1
		check 'grep -q "systemd-sysctl --prefix=/net/sctp" "$out/udevadm-test.txt"' \
			"udevadm test: the module's add event runs systemd-sysctl --prefix=/net/sctp"
	else
		check '[ -z "$(json "[\"module_version\"]" | grep -v None)" ]' "the module loaded is Debian's (no version)"
		f=$(json '["module_file"]')
		check 'case "$f" in /lib/modules/$k/kernel/net/sctp/sctp.ko*) true ;; *) false ;; esac' "modprobe resolves sctp to $f"
		check '[ "$(json "[\"first_socket\"][\"error\"]")" = "Protocol not available" ]' "no SCTP_THIN on Debian's module"
		check '! ls /proc/sys/net/sctp/thin_* >/dev/null 2>&1' "no thin_* sysctls"
		check '! modprobe -c | grep -q "install sctp"' "no modprobe hook left"
	fi
	;;
insmod)
	ko=$(modinfo -n sctp)
	for m in $(modinfo -F depends "$ko" | tr , ' '); do modprobe "$m"; done
	insmod "$ko"
	check '[ "$(cat /sys/module/sctp/version)" = "$(modinfo -F version "$ko")" ]' "insmod $ko"
	check 'wait_applied 30' "the udev rule applied the preset after insmod (within 30 s)"
	udevadm settle
	python3 "$here/first-socket.py" >"$out/first-socket.json" 2>"$out/first-socket.err"
	check '[ "$(json "[\"first_socket\"][\"flags\"]")" = 0x7f ]' "a new socket then has the preset"
	;;
diag)
	modprobe sctp_diag
	check 'preset_applied' "modprobe sctp_diag: sctp, loaded as its dependency, has the preset when modprobe returns"
	check '[ "$(modinfo -F version sctp_diag)" = "$(cat /sys/module/sctp/version)" ] && [ -d /sys/module/sctp_diag ]' \
		"sctp_diag is DKMS's too: $(cat /sys/module/sctp_diag/version 2>/dev/null)"
	;;
esac
