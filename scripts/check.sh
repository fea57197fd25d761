#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check: every test layer, in order, on a fresh Debian 12 (root).
# Each step logs to build/check/<step>.log.  A step that ends with its own
# "N passed, M failed" line contributes those counts; any other step counts
# as one test.  The last line is the total: "N passed, M failed".
#
#   CHECK_ONLY="unit style"   run only these steps
#   CHECK_SKIP="regress"      skip these steps (they are reported as skipped)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
LOG=$TOP/build/check
. "$TOP/scripts/steps.sh"

step deps scripts/deps.sh
step build make -s modules tests
step w1 make -s w1
step sparse make -s sparse
step style make -s style
step patches make -s patches
step unit make -s -C tests/unit check
step fuzz make -s -C tests/unit fuzz FUZZ_SECONDS="${CHECK_FUZZ_SECONDS:-60}"
step tools tools/check.sh
step dkms scripts/dkms-check.sh
step install tests/vm/run --noload --out "$TOP/build/check/install" -- tests/kernel/install.sh
step vm tests/vm/run --out "$TOP/build/check/vm" -- tests/vm/suite.sh
step vm-stock tests/vm/run --stock --out "$TOP/build/check/vm-stock" -- tests/kernel/mechanisms.sh
step regress tests/regress/run

steps_end
