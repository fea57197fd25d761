#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make soak: the long versions of the reliability tests (issue 7), with
# the same "N passed, M failed" accounting as make check.  Logs in
# build/soak/.  Knobs (defaults take about 1.5 hours on 2 cores):
#   SOAK_FUZZ_SECONDS=1800     libFuzzer on the core logic
#   SOAK_SEEDS=2000            randomized model check: seeds of 20000 steps
#   SOAK_ROUNDS=2              VM rounds of integrity, hostile peer,
#                              life cycle and multi-homing, each with new
#                              traffic seeds
#   SOAK_FAULT_SECONDS=60      faults per integrity scenario
#   SOAK_OUTAGE_SECONDS=40     path outage of the multi-homing test
#   SOAK_MUTANTS=1             tests/mutants/run (each test must catch its bug)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
LOG=$TOP/build/soak
. "$TOP/scripts/steps.sh"

step build make -s modules tests
step unit make -s -C tests/unit check SEEDS="${SOAK_SEEDS:-2000}"
step fuzz make -s -C tests/unit fuzz FUZZ_SECONDS="${SOAK_FUZZ_SECONDS:-1800}"
for r in $(seq 1 "${SOAK_ROUNDS:-2}"); do
	VM_TIMEOUT=7200 step "vm-$r" tests/vm/run --out "$LOG/vm-$r" -- \
		"INTEGRITY_SEED=$((100 + r)) INTEGRITY_SECONDS=${SOAK_FAULT_SECONDS:-60} \
		MULTIHOME_SECONDS=${SOAK_OUTAGE_SECONDS:-40} SUITE_TIMEOUT=3600 \
		SUITE_ONLY='tests/kernel/integrity.sh tests/kernel/hostile.sh tests/kernel/lifecycle.sh tests/kernel/multihome.sh' \
		bash tests/vm/suite.sh"
done
[ "${SOAK_MUTANTS:-1}" = 1 ] && step mutants tests/mutants/run
steps_end
