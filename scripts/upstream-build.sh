#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make upstream-series UPSTREAM_BUILD=1: the bisect proof of the generated
# series (docs/design-upstream-series.md): the full pristine 7.3 source
# with patches 1..N applied builds net/sctp/sctp.ko with W=1, for N = 0
# (pristine, the reference) and for each generated patch, with no
# warning that the pristine build does not have.
#
#   upstream-build.sh KVER BUILD SERIES_DIR
#
# Config: Debian's own for KVER (the headers' .config, IP_SCTP=m,
# INET_SCTP_DIAG=m, SYSCTL, PROC_FS, IPV6 and TRACEPOINTS on; KUnit off,
# so the KUnit test is left to upstream-kunit.sh), through olddefconfig.
# The kernel's objects out of tree (O=BUILD/upstream-kernel/obj,
# modules_prepare once); net/sctp is built as M= with its objects in MO=
# (kbuild's external-module build of the in-tree directory, so that
# modpost can check its symbols against Debian's Module.symvers).  The source:
# scripts/upstream-source.sh; the patched tree is a hard-link farm of it.  CPU: modules_prepare a few minutes
# the first time, then about 40 s per patch on 2 cores (nice -n 19,
# -j2, or UPSTREAM_JOBS).  The compiler is this machine's; Debian builds 7.3 with gcc-14.
set -eu
KVER=$1 BUILD=$2 SERIES=$3
TOP=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "upstream-build: $*" >&2; exit 1; }
say() { echo "upstream-build: $*"; }

info=$("$TOP/scripts/kernel-line.sh" "$KVER") || exit 1
read -r _ _ ROOT <<<"$info"
R=""
[ "$ROOT" = host ] || R=$("$TOP/scripts/buildroot.sh" dir "$ROOT")
"$TOP/scripts/upstream-source.sh" "$KVER" "$BUILD"
K=$BUILD/upstream-kernel
CONFIG=$R/usr/src/linux-headers-$KVER/.config
SYMVERS=$R/usr/src/linux-headers-$KVER/Module.symvers
{ [ -f "$CONFIG" ] && [ -f "$SYMVERS" ]; } || die "no $CONFIG or $SYMVERS"

# UPSTREAM_BUILD_OPTIONS=off: Debian's config with the options our code
# has #if branches for switched off (IPV6, SYSCTL, PROC_FS, the SCTP
# diag module, tracepoints where they can be), in a second object tree:
# the bisect proof "with the relevant options on and off".
VARIANT=${UPSTREAM_BUILD_OPTIONS:-on}
OBJ=$K/obj
LOG=$K/build-logs
if [ "$VARIANT" = off ]; then
	OBJ=$K/obj-off
	LOG=$K/build-logs-off
fi
OFF_OPTIONS="IPV6 SYSCTL PROC_FS INET_SCTP_DIAG INET_DIAG"
mkdir -p "$OBJ" "$LOG"
# UPSTREAM_JOBS: make's -j (2 by default; 1 beside other sessions' timing runs)
mk() { nice -n 19 make -s -C "$K/tree" O="$OBJ" -j"${UPSTREAM_JOBS:-2}" "$@"; }

# tree N: the source with patches 1..N.
tree() {
	local n=$1 p i=0
	rm -rf "$K/tree"
	cp -al "$K/src" "$K/tree"
	# A repository of its own: inside ours (build/ is in our work tree)
	# git apply would take the paths as ours and skip them all, silently.
	git -C "$K/tree" init -q
	for p in "$SERIES"/*.patch; do
		i=$((i + 1))
		[ "$i" -le "$n" ] || break
		git -C "$K/tree" apply "$p" || die "$(basename "$p") does not apply"
	done
	[ "$n" = 0 ] || [ -f "$K/tree/net/sctp/thin_core.c" ] ||
		die "patches 1..$n applied, but net/sctp/thin_core.c is not there"
}

# warnings of one build log, without the line numbers (they move)
warnings() {
	grep -E 'warning:|error:' "$1" | sed -E 's/:[0-9]+:[0-9]+:/:/' | sort -u || true
}

n_patches=$(find "$SERIES" -name '*.patch' | wc -l)
fail=0
# UPSTREAM_BUILD_FROM=N: the reference and patches N.. only (1..N-1
# built before, unchanged).
for n in 0 $(seq "${UPSTREAM_BUILD_FROM:-1}" "$n_patches"); do
	tree "$n"
	if [ ! -f "$OBJ/.config" ] || [ "$n" = 0 ]; then
		cp "$CONFIG" "$OBJ/.config"
		if [ "$VARIANT" = off ]; then
			for o in $OFF_OPTIONS; do
				"$K/tree/scripts/config" --file "$OBJ/.config" --disable "$o"
			done
		fi
		mk olddefconfig >/dev/null
		if [ "$VARIANT" = off ]; then
			for o in $OFF_OPTIONS; do
				if grep -q "^CONFIG_$o=" "$OBJ/.config"; then
					say "options off: CONFIG_$o stays on (selected by another option)"
				else
					say "options off: CONFIG_$o off"
				fi
			done
		fi
		mk modules_prepare >"$LOG/prepare.log" 2>&1 ||
			{ tail -n 30 "$LOG/prepare.log"; die "modules_prepare failed"; }
		# vmlinux's symbols for modpost: Debian's, of the same build
		cp "$SYMVERS" "$OBJ/Module.symvers"
	else
		mk olddefconfig >/dev/null
	fi
	# net/sctp as kbuild builds an external module (M=, objects in MO=),
	# against the prepared tree and Debian's Module.symvers: the same
	# flags as in-tree, and modpost checks every symbol.  Every object
	# again, so a warning of an untouched file shows in each log.
	rm -rf "$K/mo"
	mkdir -p "$K/mo"
	if mk M="$K/tree/net/sctp" MO="$K/mo" W=1 modules >"$LOG/$n.log" 2>&1; then
		built=ok
	else
		built=FAIL
		fail=1
	fi
	if [ "$n" = 0 ]; then
		warnings "$LOG/0.log" >"$LOG/0.warnings"
		say "pristine: build $built, $(wc -l <"$LOG/0.warnings") W=1 warnings (the reference)"
		[ "$built" = ok ] || die "the pristine tree does not build; log: $LOG/0.log"
		continue
	fi
	new=$(warnings "$LOG/$n.log" | comm -23 - "$LOG/0.warnings")
	if [ -n "$new" ]; then
		fail=1
		say "patch $n: build $built, NEW W=1 warnings:"
		echo "$new"
	else
		say "patch $n: build $built, no new W=1 warning"
	fi
	[ "$built" = ok ] || tail -n 30 "$LOG/$n.log"
done
rm -rf "$K/tree"
exit "$fail"
