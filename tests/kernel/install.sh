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
# The preset however sctp loads (issue 30): the modprobe.d hook and the
# preset, in /run (the guest's /etc is the host's, read-only; kmod and
# systemd-sysctl read /run/modprobe.d and /run/sysctl.d too).  sctp, once
# loaded, stays (its own control sockets hold it, stock as ours), so this
# part must come before anything loads it, in one boot.  An unprivileged
# container (nobody in unshare -U -r -n) opens the first SCTP socket,
# which loads sctp on demand (request_module("net-pf-2-proto-132")): it
# must have the preset (0x7f: every mechanism but RDB).  A netns made
# before that load copies init_net's values at its first use
# (sctp_thin_net_settle()): its sysctls and its first socket have the
# preset.  Then the host's first socket.  (Without the hook the first
# socket has the defaults, 0x30: tests/deb/run's control.)
mkdir -p /run/modprobe.d /run/sysctl.d
cp "$TOP/modprobe.d/thin-sctp.conf" /run/modprobe.d/
cp "$TOP/sysctl/90-thin-sctp.conf" /run/sysctl.d/
first="$TOP/tests/deb/first-socket.py"
# first_flags JSON: "LOADED_BEFORE FLAGS" of first-socket.py's output.
first_flags() {
	python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["sctp_loaded_before"], r["first_socket"].get("flags"))' <<<"$1" 2>&1
}
ip netns add thin-early
ip -n thin-early link set dev lo up
# shellcheck disable=SC2016 # $0 and $@ are the inner sh's
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups unshare -U -r -n \
	sh -c 'ip link set dev lo up && exec "$0" "$@"' python3 "$first" 2>&1)
check '[ "$(first_flags "$out")" = "False 0x7f" ]' "unprivileged container: its first SCTP socket loads sctp on demand and has the preset ($(first_flags "$out"))"
check '[ "$(ip netns exec thin-early cat /proc/sys/net/sctp/thin_rto_min)" = 200 ]' \
	"a netns from before the load: thin_rto_min is the host's preset ($(ip netns exec thin-early cat /proc/sys/net/sctp/thin_rto_min))"
out=$(ip netns exec thin-early python3 "$first" 2>&1)
check '[ "$(first_flags "$out")" = "True 0x7f" ]' "a netns from before the load: its first socket has the preset ($(first_flags "$out"))"
ip netns del thin-early
out=$(python3 "$first" 2>&1)
check '[ "$(first_flags "$out")" = "True 0x7f" ]' "host: the first SCTP socket has the preset ($(first_flags "$out"))"
rm /run/modprobe.d/thin-sctp.conf /run/sysctl.d/90-thin-sctp.conf
check '[ "$(cat /sys/module/sctp/version 2>/dev/null)" = "$want" ]' "the on-demand load was ours ($want)"
modprobe sctp_diag
check 'lsmod | grep -q "^sctp_diag "' "modprobe sctp_diag works with ours"

"$TOP/scripts/install-modules.sh" uninstall "$KVER"
# Debian's own module is sctp.ko (6.1) or sctp.ko.xz (6.12 on).
check 'case "$(modinfo -n sctp)" in "/lib/modules/$KVER/kernel/net/sctp/sctp.ko"|"/lib/modules/$KVER/kernel/net/sctp/sctp.ko.xz") true ;; *) false ;; esac' "after uninstall modprobe resolves to the stock module"
thin_done
