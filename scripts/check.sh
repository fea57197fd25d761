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
step deb scripts/make-deb.sh "$TOP/build/check/deb"
step dkms bash -c 'scripts/dkms-check.sh "$1"/thin-sctp-dkms_*_all.deb' - "$TOP/build/check/deb"
step install tests/vm/run --noload --out "$TOP/build/check/install" -- tests/kernel/install.sh
# The suite takes 26-28 min in a TCG guest on 2 cores (the CI of
# 0e7afff: 28 min), past vm/run's default 25.
# (thin-stat.sh, the packaged thin-stat tool, is in the suite's list.)
step vm tests/vm/run --timeout 2700 --out "$TOP/build/check/vm" -- tests/vm/suite.sh
# The stock references, on Debian's module in one boot (a boot under TCG
# costs a minute): the mechanism scenarios, the tail probe's and the
# time-based rule's, and usrsctp as the peer (interop.sh: delayed SACK
# held, repair after 3 indications).
step vm-stock tests/vm/run --stock --out "$TOP/build/check/vm-stock" -- \
	"SUITE_ONLY='tests/kernel/mechanisms.sh tests/kernel/probe.sh tests/kernel/rack.sh tests/kernel/interop.sh' tests/vm/suite.sh"
step regress tests/regress/run

# The other kernel lines (scripts/kernel-line.sh): build, load (and the
# set-up with a lost COOKIE-ACK), the mechanism scenarios on ours and
# on that kernel's stock module, and the lksctp-tools regression (stock,
# ours, ours with every mechanism on).  The full
# suite on one of them: make check-kernel KVER=...
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
	summary+=("$(printf '%-10s FAIL: no kernel: %s' "$1" "$2")")
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
	o=$TOP/build/check/k$line
	step "build-$line" make -s KVER="$rel" modules tests
	# In one boot: module.sh, handshake.sh (a lost COOKIE-ACK; 7.3 needs
	# its own hook for it, patches/7.3/0012) and the mechanism scenarios
	step "mech-$line" tests/vm/run --kver "$rel" --out "$o/mech" -- \
		"SUITE_ONLY='tests/kernel/module.sh tests/kernel/handshake.sh tests/kernel/mechanisms.sh' tests/vm/suite.sh"
	step "mstock-$line" tests/vm/run --kver "$rel" --stock --out "$o/mech-stock" -- tests/kernel/mechanisms.sh
	# "ours-rdb" has every mechanism on (the preset and RDB); the
	# preset alone (ours-thin) runs on the primary line.
	step "regress-$line" env REGRESS_CONFIGS="ours ours-rdb" tests/regress/run --kver "$rel"
done

steps_end
