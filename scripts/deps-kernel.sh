#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install the Debian packages that building and booting one more kernel
# release needs (root; scripts/deps.sh calls it for `make deps KVER=...`):
# linux-headers-$KVER, linux-image-$KVER and linux-source-<line>, all of
# the one Debian version.  A line that builds in a build root (7.x: a
# trixie chroot) is handed to scripts/buildroot.sh, which installs headers
# and source there and unpacks the image for QEMU; the host's apt is not
# touched then.
#
# The three packages are installed by exact version.  If the machine's own
# suites lack the release, the line's suite (6.12: bookworm-backports) is
# added with an apt pin of priority 1 for everything in it, so that nothing
# on the machine is ever installed or upgraded from it unless asked for by
# version.  linux-source-<line> is held at the headers' version.  The end
# checks with `apt-get -s upgrade` that nothing else would change.
#
#   deps-kernel.sh KVER
# Environment: THIN_DEBIAN_MIRROR (http://deb.debian.org/debian),
# THIN_DEPS_DRY=1 (only simulate the installation).
set -eu
KVER=${1:?usage: deps-kernel.sh KVER}
TOP=$(cd "$(dirname "$0")/.." && pwd)
MIRROR=${THIN_DEBIAN_MIRROR:-http://deb.debian.org/debian}

die() { echo "deps-kernel: $*" >&2; exit 1; }

info=$("$TOP/scripts/kernel-line.sh" "$KVER") || exit 1
read -r LINE SUITE ROOT <<<"$info"
if [ "$ROOT" != host ]; then
	# Everything of this line lives in its build root (headers, source)
	# and in the cache (the unpacked image); the host's apt is not touched.
	exec "$TOP/scripts/buildroot.sh" setup "$ROOT" "$KVER"
fi
SRC=linux-source-$LINE
pkgs="linux-headers-$KVER linux-image-$KVER $SRC"

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

case "$SUITE" in
bookworm)
	# The machine's own suite: deps.sh installs the newest 6.1 through the
	# meta packages; an older ABI cannot match linux-source-6.1.
	for p in $pkgs; do
		installed "$p" || die "$p is not installed; Debian 12 offers only its newest 6.1 (make deps)"
	done
	exit 0
	;;
*-backports) ;;
*) die "no install step for suite $SUITE" ;;
esac

[ "$(id -u)" = 0 ] || die "need root to install $pkgs"
export DEBIAN_FRONTEND=noninteractive
# What `apt-get upgrade` would do anyway (the machine's own suites); it may
# lose lines, never gain one.
upgrades() { apt-get -s upgrade | grep '^Inst' | sort; }
before=$(upgrades)
list=/etc/apt/sources.list.d/thin-sctp-$SUITE.sources
# (".pref": apt ignores a preferences file with another extension, ".12")
pref=/etc/apt/preferences.d/thin-sctp-$SUITE.pref
# pin_suite: priority 1 for everything in SUITE (its default, 100 for a
# backports suite, would let installed packages follow it).
pin_suite() {
	printf '%s\n' \
		"# thin-sctp (scripts/deps-kernel.sh): $SUITE only for the kernel packages" \
		"# that 'make deps KVER=...' installs by exact version.  Priority 1: nothing" \
		"# is installed or upgraded from it unless asked for by version." \
		"Package: *" \
		"Pin: release n=$SUITE" \
		"Pin-Priority: 1" >"$pref.tmp"
	mv "$pref.tmp" "$pref"
}
# headers_version SUITE: linux-headers-$KVER's version in SUITE, or with
# "!SUITE" in any other suite.
headers_version() {
	apt-cache madison "linux-headers-$KVER" | awk -F' [|] ' -v s="$1" '
		{ split($3, w, " "); sub("/.*", "", w[2]) }
		s ~ /^!/ && w[2] != substr(s, 2) || w[2] == s { print $2; exit }'
}

[ ! -f "$list" ] || pin_suite
# The machine's own suites first (bookworm-security carries 6.12 as well);
# SUITE only when they do not have the release.
ver=$(headers_version "!$SUITE")
from="the machine's suites"
if [ -z "$ver" ]; then
	# The pin comes first: the suite never has its default priority.
	pin_suite
	printf '%s\n' \
		"# thin-sctp (scripts/deps-kernel.sh): kernel line $LINE; pinned in $pref" \
		"Types: deb" \
		"URIs: $MIRROR" \
		"Suites: $SUITE" \
		"Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" >"$list.tmp"
	mv "$list.tmp" "$list"
	# Refresh only this suite's index; the others stay as they are.
	apt-get update -q -o Dir::Etc::sourcelist="$list" -o Dir::Etc::sourceparts=- \
		-o APT::Get::List-Cleanup=0 >/dev/null ||
		die "apt-get update of $SUITE ($MIRROR) failed"
	ver=$(headers_version "$SUITE")
	from=$SUITE
fi
if [ -z "$ver" ]; then
	have=$(apt-cache search --names-only "^linux-headers-$LINE\.[0-9.]*\+deb[0-9]*-amd64\$" |
		awk '{ print $1 }' | sed 's/^linux-headers-//' | sort -V | paste -sd' ')
	die "no linux-headers-$KVER in the machine's suites or $SUITE (there are: ${have:-none})"
fi
for p in $pkgs; do
	apt-cache madison "$p" | awk -F' [|] ' '{ print $2 }' | grep -qxF "$ver" ||
		die "linux-headers-$KVER is $ver but there is no $p $ver"
done

# linux-source-LINE is one package for every release of the line, and the
# machine's suites may have a newer one (bookworm-security: 6.12.117):
# hold it at the version of the headers, which the build checks.
hold=/etc/apt/preferences.d/thin-sctp-$SRC.pref
printf '%s\n' \
	"# thin-sctp (scripts/deps-kernel.sh): $SRC must be the Debian version" \
	"# of linux-headers-$KVER; 'make deps KVER=...' of another release moves it." \
	"Package: $SRC" \
	"Pin: version $ver" \
	"Pin-Priority: 990" >"$hold.tmp"
mv "$hold.tmp" "$hold"

todo=""
for p in $pkgs; do
	v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
	if installed "$p" && [ "$v" = "$ver" ]; then continue; fi
	todo="$todo $p=$ver"
done
if [ -n "$todo" ]; then
	if [ -n "$(dkms status 2>/dev/null)" ]; then
		echo "deps-kernel: note: DKMS modules registered; the kernel's hooks will build them for $KVER"
	fi
	echo "deps-kernel: installing from $from:$todo"
	dry=""
	[ "${THIN_DEPS_DRY:-0}" = 1 ] && dry=-s
	# shellcheck disable=SC2086
	apt-get install -y -q $dry --no-install-recommends $todo
	[ -z "$dry" ] || exit 0
fi

for p in $pkgs; do
	v=$(dpkg-query -W -f='${Version}' "$p")
	[ "$v" = "$ver" ] || die "$p is $v, not $ver"
	echo "deps-kernel: $p $v"
done
# Nothing else may move because of what we added.
after=$(upgrades)
new=$(comm -13 <(echo "$before") <(echo "$after"))
ours=$(grep -E -e "$SUITE" -e "^Inst ($(echo "$pkgs" | sed 's/ /|/g'))( |\$)" <<<"$after" || true)
if [ -n "$new$ours" ]; then
	printf '%s\n' "$new" "$ours" | sort -u | grep .
	die "apt-get -s upgrade would change the packages above; check /etc/apt/preferences.d/thin-sctp-*"
fi
echo "deps-kernel: ok (apt-get -s upgrade: $(grep -c . <<<"$after") pending upgrades from the machine's suites, as before; none of ours, none from $SUITE)"
