#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check: every test layer, in order, on a fresh Debian 12 (root), in
# at most 45 minutes on 2 cores (docs/testing.md keeps the budget and the
# latest times).  Each step logs to build/check/<step>.log.  A step that
# ends with its own "N passed, M failed" line contributes those counts;
# any other step counts as one test.  The end: each step's result and
# wall time, then the total "N passed, M failed".
#
#   check.sh          make check: the primary kernel line (6.1) in full; on
#                     each other line the build (W=1), module load, set-up,
#                     a mechanism smoke test and lksctp-tools with every
#                     mechanism on
#   check.sh --full   make check-full: the same, and on each other line
#                     everything make check-kernel runs (its whole in-guest
#                     suite, its stock references, sparse, checkpatch, DKMS)
#
#   CHECK_ONLY="unit style"   run only these steps
#   CHECK_SKIP="regress"      skip these steps (they are reported as skipped)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
FULL=0
[ "${1:-}" = --full ] && FULL=1
if [ $FULL = 1 ]; then
	LOG=$TOP/build/check-full
else
	LOG=$TOP/build/check
	STEPS_BUDGET=${CHECK_BUDGET:-2700}
fi
. "$TOP/scripts/steps.sh"

step deps scripts/deps.sh
# One build serves the modules and their W=1 check (make w1 builds them);
# and the programs the tests run, and lksctp-tools' functional tests
# (tests/regress/fetch-build.sh, Debian's source package).
step build bash -c 'make -s w1 tests && tests/regress/fetch-build.sh'
step sparse make -s sparse
step style make -s style
step patches make -s patches
# The duplicate COOKIE-ECHO fix and its selftest for netdev (make
# upstream-fix, docs/upstream.md): both apply to pristine 7.3 (git apply
# --check) and pass checkpatch --strict.  Where no 7.3 source is
# installed, skipped.  So is the thin-stream series (make upstream-series,
# docs/design-upstream-series.md; the patches generated so far),
# generated from our sources: it applies and passes checkpatch.
if scripts/kernel-line.sh --list 2>/dev/null | grep -q '^7\.3\.'; then
	step upstream-fix make -s upstream-fix
	step upstream-series make -s upstream-series
else
	skip upstream-fix "no 7.3 release installed (make deps KVER=<a 7.3 release>)"
	skip upstream-series "no 7.3 release installed (make deps KVER=<a 7.3 release>)"
fi
step unit make -s -C tests/unit check
# Each mutant's edit still changes its file (no VM; make mutants kills them).
step mut-apply tests/mutants/run --apply-only
step fuzz make -s -C tests/unit fuzz FUZZ_SECONDS="${CHECK_FUZZ_SECONDS:-60}"
step tools tools/check.sh
# The Debian packages: built with debhelper/dh-dkms, lintian without errors
# (their install/remove/purge cycle: make check-deb, tests/deb/run).
step deb scripts/make-deb.sh "$LOG/deb"
step dkms bash -c 'scripts/dkms-check.sh "$1"/thin-sctp-dkms_*_all.deb' - "$LOG/deb"
step install tests/vm/run --noload --out "$LOG/install" -- tests/kernel/install.sh
# The suite takes 20-25 min in a TCG guest on 2 cores, near vm/run's
# default 25.  Its boot runs lksctp-tools on ours first (every
# configuration, tests/regress/run --cmd; each in a netns of its own, so
# the host's sysctls stay as they were), then the suite, whose total is
# the step's.  (thin-stat.sh, the packaged thin-stat tool, is in the
# suite's list.)
step vm tests/vm/run --timeout 2700 --out "$LOG/vm" -- \
	"$(tests/regress/run --cmd ours) tests/vm/suite.sh"
# The stock references, on Debian's module in one boot (a boot under TCG
# costs a minute): lksctp-tools, then the mechanism scenarios, the tail
# probe's and the time-based rule's, and usrsctp as the peer (interop.sh:
# delayed SACK held, repair after 3 indications).
step vm-stock tests/vm/run --stock --out "$LOG/vm-stock" -- \
	"$(tests/regress/run --cmd stock); SUITE_ONLY='tests/kernel/mechanisms.sh tests/kernel/probe.sh tests/kernel/rack.sh tests/kernel/interop.sh' tests/vm/suite.sh"
# Every lksctp-tools test that passed on stock passed in each of our
# configurations (the two boots above ran them).
step regress tests/regress/run --compare "$LOG/vm-stock" "$LOG/vm"

# The other kernel lines (scripts/kernel-line.sh).  make check: the
# build with W=1, then one boot of ours: lksctp-tools with every mechanism
# on (the preset, RDB, the tail probe, the time rule), then module.sh,
# handshake.sh (a lost COOKIE-ACK; 7.3 needs
# its own hook for it, patches/7.3/0012) and the mechanism smoke test
# (mechanisms.sh scenarios 1 and 3: RTO.Min and fast retransmit on the
# first indication, off and on); one boot of Debian's module for
# lksctp-tools' reference; the comparison.  make check-full: everything
# make check-kernel runs on that release (scripts/check-kernel.sh).
#
# Each line runs on the release make deps took for it (build/kernels: the
# newest Debian's archive offers, scripts/kernel-resolve.sh, or the one
# THIN_KERNELS named); a line whose kernel cannot be had, or was not
# installed, fails here, in the summary.  Without build/kernels (no deps
# step ran): the newest release of the line installed here, a line with
# none skipped.
primary=$(make -s --no-print-directory print-kver)
primary_line=$(scripts/kernel-line.sh "$primary" | cut -d' ' -f1)
buildable=$(scripts/kernel-line.sh --list)
# no_kernel NAME WHY: a kernel line that cannot be tested: one failure.
no_kernel() {
	want "$1" || return 0
	echo "=== $1: FAIL: $2"
	failed=$((failed + 1))
	summary+=("$(printf '%-14s FAIL: no kernel: %s' "$1" "$2")")
}
for line in $(scripts/kernel-line.sh --lines); do
	[ "$line" = "$primary_line" ] && continue
	rel=""
	if [ -f build/kernels ]; then
		read -r _ rel why < <(awk -v l="$line" '$1 == l' build/kernels)
		if [ -z "$rel" ]; then
			skip "k$line" "not asked for (THIN_KERNELS)"
			continue
		fi
		if [ "$rel" = - ]; then
			no_kernel "k$line" "$why"
			continue
		fi
		if ! grep -qxF "$rel" <<<"$buildable"; then
			no_kernel "k$line" "$rel (resolved by make deps) cannot be built here (make deps KVER=$rel)"
			continue
		fi
		echo "=== k$line: $rel (make deps's release of the line, build/kernels)"
	fi
	if [ -z "$rel" ]; then
		for r in $buildable; do
			[ "$(scripts/kernel-line.sh "$r" 2>/dev/null | cut -d' ' -f1)" = "$line" ] && rel=$r
		done
	fi
	if [ -z "$rel" ]; then
		skip "k$line" "not installed (make deps KVER=<a $line release>)"
		continue
	fi
	if [ ! -f "/boot/vmlinuz-$rel" ] && ! scripts/buildroot.sh kernel "$rel" >/dev/null 2>&1; then
		skip "k$line" "$rel has no kernel image to boot (make deps KVER=$rel)"
		continue
	fi
	o=$LOG/k$line
	if [ $FULL = 1 ]; then
		step "kernel-$line" scripts/check-kernel.sh "$rel"
		continue
	fi
	step "build-$line" make -s KVER="$rel" w1 tests
	step "line-$line" tests/vm/run --kver "$rel" --out "$o/ours" -- \
		"$(REGRESS_CONFIGS=ours-rdb tests/regress/run --cmd ours) MECH_ONLY='1 3' SUITE_ONLY='tests/kernel/module.sh tests/kernel/handshake.sh tests/kernel/mechanisms.sh' tests/vm/suite.sh"
	step "lstock-$line" tests/vm/run --kver "$rel" --stock --out "$o/stock" -- "$(tests/regress/run --cmd stock)"
	step "regress-$line" env REGRESS_CONFIGS=ours-rdb tests/regress/run --compare "$o/stock" "$o/ours"
done

steps_end
