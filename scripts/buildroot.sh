#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A Debian build root for kernel lines whose headers this Debian 12 cannot
# build with (7.x: gcc-14-for-host, trixie's libc), made with debootstrap
# from Debian's packages and cached between runs.  Its apt alone knows
# trixie-backports; the host's apt never does.
#
#   buildroot.sh setup ROOT KVER   make ROOT (trixie) if needed and install
#                                  linux-headers-KVER and linux-source-LINE
#                                  of one Debian version in it, and unpack
#                                  KVER's image for QEMU (dpkg-deb -x)
#   buildroot.sh dir ROOT          print the build root's directory
#   buildroot.sh kernel KVER       print the unpacked kernel image (its
#                                  modules are in the same lib/modules/KVER)
#   buildroot.sh run ROOT CMD...   run CMD in ROOT, in the current
#                                  directory; the source tree is bind-
#                                  mounted at its own path (a private
#                                  mount namespace: nothing outlives CMD)
#
# Environment: THIN_CACHE (/var/cache/thin-sctp: build roots, packages),
# THIN_KERNEL_DIR (/var/lib/thin-sctp/kernels: unpacked images),
# THIN_DEBIAN_MIRROR (http://deb.debian.org/debian).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${THIN_CACHE:-/var/cache/thin-sctp}
MIRROR=${THIN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# Unpacked kernels for QEMU: not under /var/cache, which virtme-ng hides
# behind a tmpfs in the guest.
KERNELS=${THIN_KERNEL_DIR:-/var/lib/thin-sctp/kernels}

die() { echo "buildroot: $*" >&2; exit 1; }

# Packages of the build root: the kernel build, sparse for `make sparse`.
BASE=build-essential,bc,bison,flex,libelf-dev,libssl-dev,kmod,xz-utils,rsync,sparse,ca-certificates

root_dir() {
	case "$1" in
	trixie) echo "$CACHE/$1" ;;
	*) die "unknown build root $1" ;;
	esac
}

# in_root ROOT CMD...: CMD inside ROOT, /proc and the tree mounted.
# modules_dir KVER: the unpacked image's lib/modules/KVER (7.x: usr/lib).
modules_dir() {
	local d
	for d in "$KERNELS/$1/usr/lib/modules/$1" "$KERNELS/$1/lib/modules/$1"; do
		[ -d "$d" ] && { echo "$d"; return 0; }
	done
	return 1
}

# kimage KVER: the unpacked image's kernel.
kimage() {
	local f m
	m=$(modules_dir "$1") || return 1
	for f in "$m/vmlinuz" "$KERNELS/$1/boot/vmlinuz-$1"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

in_root() {
	local r
	r=$(root_dir "$1")
	shift
	[ -f "$r/.thin-ready" ] || die "no build root in $r; run: make deps KVER=<release>"
	[ "$(id -u)" = 0 ] || die "the build root needs root (chroot)"
	mkdir -p "$r$TOP" "$r$PWD"
	# shellcheck disable=SC2016
	unshare -m --propagation private sh -c '
		r=$1 top=$2 cwd=$3; shift 3
		mount -t proc proc "$r/proc" &&
		mount --bind /dev "$r/dev" &&
		mount --bind "$top" "$r$top" &&
		{ [ "$cwd" = "$top" ] || case "$cwd" in "$top"/*) true ;; *) mount --bind "$cwd" "$r$cwd" ;; esac; } &&
		exec chroot "$r" /usr/bin/env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
	' sh "$r" "$TOP" "$PWD" "$@"
}

setup() {
	local root=$1 kver=$2 r info line suite ver src img pkgs p kdir n
	r=$(root_dir "$root")
	info=$("$TOP/scripts/kernel-line.sh" "$kver") || exit 1
	read -r line suite _ <<<"$info"
	[ "$(id -u)" = 0 ] || die "need root to make the build root in $r"
	command -v debootstrap >/dev/null || {
		apt-get install -y -q --no-install-recommends debootstrap >/dev/null ||
			die "cannot install debootstrap"
	}
	if [ ! -f "$r/.thin-ready" ]; then
		echo "buildroot: debootstrap $root into $r (cached for later runs)"
		mkdir -p "$CACHE/debs"
		debootstrap --variant=minbase --include="$BASE" \
			--cache-dir="$CACHE/debs" "$root" "$r" "$MIRROR" \
			>"$CACHE/debootstrap-$root.log" 2>&1 ||
			die "debootstrap failed; see $CACHE/debootstrap-$root.log"
		touch "$r/.thin-ready"
	fi
	# The kernel's suite inside the root only, pinned to 1: nothing comes
	# from it unless asked for by version.
	printf '%s\n' "Types: deb" "URIs: $MIRROR" "Suites: $suite" \
		"Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" \
		>"$r/etc/apt/sources.list.d/thin-sctp-$suite.sources"
	printf '%s\n' "Package: *" "Pin: release n=$suite" "Pin-Priority: 1" \
		>"$r/etc/apt/preferences.d/thin-sctp-$suite.pref"
	src=linux-source-$line
	img=linux-image-$kver
	n=$(in_root "$root" dpkg-query -W -f='${Status}\n' "linux-headers-$kver" "$src" 2>/dev/null |
		grep -c 'install ok installed' || true)
	if [ "$n" != 2 ]; then
		in_root "$root" apt-get update -q >/dev/null || die "apt-get update in $r failed"
		ver=$(in_root "$root" apt-cache madison "linux-headers-$kver" |
			awk -F' [|] ' 'NR == 1 { print $2 }')
		[ -n "$ver" ] || die "no linux-headers-$kver in $root or $suite"
		pkgs="linux-headers-$kver=$ver $src=$ver"
		echo "buildroot: installing in $root: $pkgs"
		# shellcheck disable=SC2086
		in_root "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends $pkgs >"$CACHE/install-$kver.log" 2>&1 ||
			die "installing $pkgs failed; see $CACHE/install-$kver.log"
	fi
	# DKMS as a user of that release runs it (make check-kernel's dkms
	# step): the root's own dkms, and git for the tree's file list.
	n=$(in_root "$root" dpkg-query -W -f='${Status}\n' dkms git 2>/dev/null |
		grep -c 'install ok installed' || true)
	if [ "$n" != 2 ]; then
		in_root "$root" apt-get update -q >/dev/null || die "apt-get update in $r failed"
		in_root "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends dkms git >"$CACHE/install-dkms-$root.log" 2>&1 ||
			die "installing dkms git failed; see $CACHE/install-dkms-$root.log"
	fi
	for p in "linux-headers-$kver" "$src" dkms; do
		echo "buildroot: $root: $p $(in_root "$root" dpkg-query -W -f='${Version}' "$p")"
	done

	# The image for QEMU: the package and what it depends on of the same
	# source version (7.x splits it), unpacked, never installed.
	kdir=$KERNELS/$kver
	if [ ! -f "$kdir/.thin-ready" ]; then
		ver=$(in_root "$root" dpkg-query -W -f='${Version}' "linux-headers-$kver")
		rm -rf "$kdir" "$CACHE/debs/$kver"
		mkdir -p "$kdir" "$CACHE/debs/$kver"
		pkgs=$(in_root "$root" apt-cache depends --no-recommends --no-suggests \
			"$img=$ver" | awk -v k="-$kver" '/Depends:/ &&
				substr($2, length($2) - length(k) + 1) == k { print $2 "=" v }' v="$ver")
		# shellcheck disable=SC2086
		(cd "$CACHE/debs/$kver" && in_root "$root" apt-get -o APT::Sandbox::User=root \
			download "$img=$ver" $pkgs) \
			>/dev/null || die "cannot download $img $ver ($pkgs)"
		for p in "$CACHE/debs/$kver"/*.deb; do
			dpkg-deb -x "$p" "$kdir"
		done
		kimage "$kver" >/dev/null || die "no vmlinuz in $img $ver"
		# The modules' index, as the image's postinst would make it.
		depmod -b "$(dirname "$(dirname "$(dirname "$(modules_dir "$kver")")")")" "$kver" ||
			die "depmod of $kdir failed"
		touch "$kdir/.thin-ready"
	fi
	echo "buildroot: kernel for QEMU in $kdir"
	checker "$root" "$kver" "$line"
}

# A sparse that the kernel's own test accepts (scripts/checker-valid.sh:
# 7.x's headers use __typeof_unqual__ under __CHECKER__).  The headers
# package lacks that script; it comes from linux-source.  Trixie's sparse
# 0.6.4 fails it; sid's (0.6.5~rc1) passes, and its sparse binary needs
# only libc (>= 2.38, trixie has 2.41), so that binary alone goes to
# /usr/local/bin of the root, the package checked against sid's index.
checker() {
	# Without it only `make sparse` for this kernel fails, not the rest.
	nosparse() { echo "buildroot: warning: $*; make sparse KVER=$kver will fail" >&2; return 0; }
	local root=$1 kver=$2 line=$3 r hdr idx deb sum f
	r=$(root_dir "$root")
	# kbuild's srctree: Debian's -common headers, where they exist.
	hdr=/usr/src/linux-headers-${kver%-*}-common
	[ -d "$r$hdr" ] || hdr=/usr/src/linux-headers-$kver
	if [ ! -x "$r$hdr/scripts/checker-valid.sh" ]; then
		tar -xJOf "$r/usr/src/linux-source-$line.tar.xz" \
			"linux-source-$line/scripts/checker-valid.sh" >"$r$hdr/scripts/checker-valid.sh" 2>/dev/null &&
			chmod 755 "$r$hdr/scripts/checker-valid.sh" ||
			{ rm -f "$r$hdr/scripts/checker-valid.sh"; echo "buildroot: linux-source-$line has no checker-valid.sh (kbuild does not ask for it)"; return 0; }
	fi
	if [ "$(in_root "$root" "$hdr/scripts/checker-valid.sh" sparse)" = 1 ]; then
		echo "buildroot: $root: sparse $(in_root "$root" sparse --version) passes $hdr/scripts/checker-valid.sh"
		return 0
	fi
	idx=$CACHE/debs/sid-Packages.xz
	curl -fsS --max-time 120 "$MIRROR/dists/sid/main/binary-amd64/Packages.xz" -o "$idx" ||
		{ nosparse "cannot read sid's package index for a newer sparse"; return 0; }
	read -r deb sum < <(xz -dc "$idx" | awk '/^Package: / { p = ($2 == "sparse") }
		p && /^Filename: / { f = $2 } p && /^SHA256: / { print f, $2; exit }') || true
	[ -n "$deb" ] || { nosparse "no sparse in sid"; return 0; }
	f=$CACHE/debs/$(basename "$deb")
	[ -f "$f" ] && echo "$sum  $f" | sha256sum -c --quiet 2>/dev/null ||
		curl -fsS --max-time 300 "$MIRROR/$deb" -o "$f" || { nosparse "cannot download $deb"; return 0; }
	echo "$sum  $f" | sha256sum -c --quiet || { nosparse "$f: SHA256 differs from sid's index"; return 0; }
	rm -rf "$CACHE/sparse-x" && mkdir -p "$CACHE/sparse-x" && dpkg-deb -x "$f" "$CACHE/sparse-x"
	install -D -m 755 "$CACHE/sparse-x/usr/bin/sparse" "$r/usr/local/bin/sparse"
	rm -rf "$CACHE/sparse-x"
	[ "$(in_root "$root" "$hdr/scripts/checker-valid.sh" sparse)" = 1 ] ||
		{ rm -f "$r/usr/local/bin/sparse"; nosparse "sid's sparse ($(basename "$deb")) fails $hdr/scripts/checker-valid.sh too"; return 0; }
	echo "buildroot: $root: sparse $(in_root "$root" sparse --version) from $(basename "$deb") in /usr/local/bin"
}

cmd=${1:?usage: buildroot.sh setup ROOT KVER | dir ROOT | kernel KVER | run ROOT CMD...}
shift
case "$cmd" in
setup) setup "${1:?ROOT}" "${2:?KVER}" ;;
dir) root_dir "${1:?ROOT}" ;;
kernel) kimage "${1:?KVER}" ;;
run) root=${1:?ROOT}; shift; in_root "$root" "$@" ;;
*) die "unknown command $cmd" ;;
esac
