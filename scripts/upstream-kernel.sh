#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make upstream-series UPSTREAM_KERNEL=1: the final kernel of the series
# (issue 31): the full pristine 7.3 source with every generated patch,
# a small config (virtme-ng's defconfig for a guest, virtme-configkernel)
# with CONFIG_IP_SCTP=m and what the in-guest tests use (veth, netem,
# nftables and its NFQUEUE for thin-drop, network namespaces, IPv6,
# tracepoints), built out of tree in
# BUILD/upstream-kernel/final (bzImage, modules in the build directory,
# where virtme-ng finds them: vng --run DIR).  The upstream form changes
# struct netns_sctp, so its sctp.ko cannot load into Debian's kernel:
# this is the kernel it needs.
#
#   upstream-kernel.sh KVER BUILD SERIES_DIR
#
# CPU: about 20-30 minutes on 2 cores (nice -n 19, -j2 or UPSTREAM_JOBS).
set -eu
KVER=$1 BUILD=$2 SERIES=$3
TOP=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "upstream-kernel: $*" >&2; exit 1; }
say() { echo "upstream-kernel: $*"; }

"$TOP/scripts/upstream-source.sh" "$KVER" "$BUILD"
K=$BUILD/upstream-kernel
T=$K/final-tree
O=$K/final
VENV=${THIN_VENV:-/opt/thin-venv}
rm -rf "$T"
cp -al "$K/src" "$T"
git -C "$T" init -q	# git apply inside our work tree would skip the paths
n=0
for p in "$SERIES"/*.patch; do
	git -C "$T" apply "$p" || die "$(basename "$p") does not apply"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || die "no patch in $SERIES"
say "$n patches applied to the pristine source"
mkdir -p "$O"
items=(CONFIG_IP_SCTP=m CONFIG_INET_SCTP_DIAG=m CONFIG_INET_DIAG=y
	CONFIG_NET_NS=y CONFIG_IPV6=y CONFIG_VETH=y
	CONFIG_NET_SCHED=y CONFIG_NET_SCH_NETEM=y
	CONFIG_NETFILTER=y CONFIG_NF_TABLES=y CONFIG_NF_TABLES_INET=y
	CONFIG_NF_TABLES_IPV4=y CONFIG_NF_TABLES_IPV6=y
	CONFIG_NETFILTER_ADVANCED=y CONFIG_NETFILTER_NETLINK_QUEUE=y CONFIG_NFT_QUEUE=y
	CONFIG_FTRACE=y CONFIG_EVENT_TRACING=y
	CONFIG_KUNIT=n)
args=()
for i in "${items[@]}"; do args+=(--configitem "$i"); done
(cd "$T" && "$VENV/bin/virtme-configkernel" --defconfig "${args[@]}" O="$O") \
	>"$O/config.log" 2>&1 || { tail -n 20 "$O/config.log"; die "config failed"; }
# virtme's fragment turns debug info on (a choice, which --configitem does
# not switch): off, a third of the build time
"$T/scripts/config" --file "$O/.config" --disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
	--enable DEBUG_INFO_NONE --disable DEBUG_INFO
make -s -C "$T" O="$O" olddefconfig >>"$O/config.log" 2>&1
grep -qx 'CONFIG_DEBUG_INFO_NONE=y' "$O/.config" || say "debug info stays on"
for i in "${items[@]}"; do
	v=${i#*=} k=${i%%=*}
	case "$v" in
	n) grep -q "^$k=" "$O/.config" && die "$k is on" ;;
	*) grep -qx "$k=$v" "$O/.config" || die "$k=$v did not stick (a dependency missing)" ;;
	esac
done
say "config: $(grep -c '=[ym]$' "$O/.config") options on, IP_SCTP=m"
nice -n 19 make -s -C "$T" O="$O" -j"${UPSTREAM_JOBS:-2}" bzImage modules \
	>"$O/build.log" 2>&1 || { grep -E 'error:' "$O/build.log" | head -n 20; tail -n 20 "$O/build.log"; die "build failed; log: $O/build.log"; }
grep -E 'warning:' "$O/build.log" | grep -E 'net/sctp/' | sed 's/^/  /' >"$O/sctp-warnings.txt" || true
[ -f "$O/net/sctp/sctp.ko" ] || die "no net/sctp/sctp.ko"
say "built: $O/arch/x86/boot/bzImage, $O/net/sctp/sctp.ko ($(wc -l <"$O/sctp-warnings.txt") warnings in net/sctp)"
say "release $(cat "$O/include/config/kernel.release")"
