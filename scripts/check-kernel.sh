#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check-kernel KVER=...: everything we claim, on one kernel release:
# build, W=1, sparse, checkpatch (with that kernel's checkpatch.pl), the
# exported upstream series (git am on the pristine tree), the install test, the full in-guest suite, the
# mechanism scenarios on that kernel's stock module, the lksctp-tools
# regression (stock, ours, ours with every mechanism on), and the DKMS
# build where the release's headers are on this machine.  Logs in
# build/check-KVER/<step>.log; the last line is "N passed, M failed".
#
#   check-kernel.sh KVER   (CHECK_ONLY / CHECK_SKIP as for make check)
set -u
KVER=${1:?usage: check-kernel.sh KVER}
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
export KVER
LOG=$TOP/build/check-$KVER
. "$TOP/scripts/steps.sh"

root=$(scripts/kernel-line.sh "$KVER" | cut -d' ' -f3) || exit 1
# make w1 builds the modules (one build for both)
step build make -s KVER="$KVER" w1 tests
step sparse make -s KVER="$KVER" sparse
step style make -s KVER="$KVER" style
step patches make -s KVER="$KVER" patches
if [ "$root" = host ]; then
	step dkms scripts/dkms-check.sh
else
	# The build root is a Debian system of the line's own release (7.x:
	# trixie, with its dkms, gcc-14 and the line's headers): DKMS runs
	# there as on such a host, where the Makefile builds natively.
	step dkms scripts/buildroot.sh run "$root" env KVER="$KVER" bash scripts/dkms-check.sh
fi
step install tests/vm/run --kver "$KVER" --noload --out "$LOG/install" -- tests/kernel/install.sh
step vm tests/vm/run --kver "$KVER" --out "$LOG/vm" -- tests/vm/suite.sh
step vm-stock tests/vm/run --kver "$KVER" --stock --out "$LOG/vm-stock" -- tests/kernel/mechanisms.sh
step regress tests/regress/run --kver "$KVER"

steps_end
