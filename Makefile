# SPDX-License-Identifier: GPL-2.0-or-later
#
# thin-sctp: developer front end.  Kbuild objects live in net/sctp/Kbuild.thin.
#
#   make [KVER=...]        build sctp.ko and sctp_diag.ko for KVER (its kernel
#                          line follows from the release; patches/series
#                          serves every line)
#   make kernels           the supported releases that can be built here
#   make deps [KVER=...]   install what the build and tests (of KVER) need
#   make install           install into /lib/modules/$KVER/updates + depmod
#   make uninstall         remove them again
#   make deb               thin-sctp-dkms_<version>_all.deb (DKMS) and
#                          thin-sctp-tools_<version>_<arch>.deb, lintian
#                          (scripts/make-deb.sh; docs/install.md)
#   make check-deb         their life cycle on a Debian 12 chroot, booted in
#                          QEMU: install, on-demand load, remove, purge
#                          (tests/deb/run, about 25 min)
#   make patches           export the change as an upstream patch series
#   make upstream-fix      the duplicate COOKIE-ECHO fix (patches/7.3/0012) and
#                          its selftest as [PATCH net] patches against
#                          pristine 7.3, in out/upstream-fix (docs/upstream.md;
#                          UPSTREAM_MODULE=1: and sctp.ko of pristine + the fix)
#   make upstream-series   the thin-stream mechanisms as a [PATCH net-next]
#                          series against pristine 7.3, generated from our
#                          sources, in out/upstream-series (patches 1-9
#                          of 9; docs/design-upstream-series.md;
#                          UPSTREAM_KUNIT=1: and its KUnit tests in UML;
#                          UPSTREAM_BUILD=1: and each patch built W=1;
#                          UPSTREAM_KERNEL=1: and the final kernel built,
#                          booted in the VM, selftest and lksctp-tools)
#   make style             checkpatch --strict on our C files and patches
#   make check             every test layer, ends with each step's time and
#                          "N passed, M failed", in at most 45 min (the
#                          other kernel lines installed here: build with
#                          W=1, load, set-up, a mechanism smoke test,
#                          lksctp-tools with every mechanism on)
#   make check-full        make check, and make check-kernel on each other
#                          kernel line (docs/testing.md: 84 min measured)
#   make check-kernel      everything on KVER: its full in-guest suite, stock
#                          references, sparse, checkpatch, DKMS
#   make demo              stock vs thin vs TCP in the test VM, default receivers
#                          (DEMO_TUNED=1: and receivers with delayed SACK off)
#   make experiment        the experiment matrix (tools/experiment.sh)
#   make bench-overhead    bulk throughput/CPU: stock vs switches off vs on
#   make bench-fairness    thin vs greedy, 50 thin vs 50 stock (1 Mbit/s)
#   make bench-scale       10 and 1000 associations on one socket
#   make bench-rdb         RDB: interval sweep (RTT 100 ms, 5 % loss, default
#                          receivers) and bursty loss: stock, thin, thin+RDB
#   make soak              long reliability tests, fuzzing, mutants (scripts/soak.sh)
#   make mutants           each test must catch the bug it guards (tests/mutants)

SHELL := /bin/bash
TOP := $(CURDIR)

running := $(shell uname -r)
ifeq ($(KVER),)
KVER := $(shell if [ -d /lib/modules/$(running)/build ]; then echo $(running); \
	else ls -d /usr/src/linux-headers-6.1.0-*-amd64 2>/dev/null | \
	sed 's,.*/linux-headers-,,' | sort -V | tail -n 1; fi)
endif
BUILD := $(TOP)/build/$(KVER)
TREE := $(BUILD)/tree
# The line's build root: "host", or a Debian chroot (7.x: trixie, made by
# make deps) that kbuild runs in (scripts/buildroot.sh).
ROOT := $(word 3,$(shell scripts/kernel-line.sh $(KVER) 2>/dev/null))
ifeq ($(filter-out host,$(ROOT)),)
KDIR := /lib/modules/$(KVER)/build
KMAKE := $(MAKE)
else
KDIR := /usr/src/linux-headers-$(KVER)
KMAKE := $(TOP)/scripts/buildroot.sh run $(ROOT) make
endif
THIN_VERSION := $(or $(THIN_VERSION_OVERRIDE),$(shell git -C $(TOP) describe --always --dirty --tags 2>/dev/null),unknown)
MODULES := $(TREE)/net/sctp/sctp.ko $(TREE)/net/sctp/sctp_diag.ko
JOBS ?= $(shell nproc)

KBUILD_ARGS := -C $(KDIR) M=$(TREE)/net/sctp \
	CONFIG_IP_SCTP=m CONFIG_INET_SCTP_DIAG=m \
	NOSTDINC_FLAGS="-I$(TREE)/include -I$(TREE)/include/uapi" \
	THIN_VERSION="$(THIN_VERSION)"

.PHONY: tests all modules prepare install uninstall dkms-install patches style \
	upstream-fix upstream-series sparse w1 check check-full check-kernel print-kver unit vm-check regress demo clean deps kernels install-sysctl \
	experiment bench-overhead bench-fairness bench-scale bench-rdb soak mutants deb check-deb

all: modules

prepare:
	@[ -n "$(KVER)" ] || { echo "no 6.1.0-*-amd64 headers found; run: apt-get install -y linux-headers-amd64 linux-source-6.1"; exit 1; }
	@scripts/prepare-tree.sh $(KVER) $(BUILD)

modules: prepare
	$(KMAKE) $(KBUILD_ARGS) -j$(JOBS) modules
	@scripts/check-modules.sh $(KVER) $(TREE)/net/sctp "$(THIN_VERSION)"
	@echo "built: $(MODULES)"

# W=1 and sparse, reported for our own files (upstream sctp has its own
# warnings; we must not add any).
# make w1 builds the modules too (make check's build step: one build, not
# two); make sparse passes W=1 as well, so that it reuses those objects
# instead of compiling them again.
w1: prepare
	set -o pipefail; $(KMAKE) $(KBUILD_ARGS) -j$(JOBS) W=1 modules 2>&1 | tee $(BUILD)/w1.log
	@scripts/check-modules.sh $(KVER) $(TREE)/net/sctp "$(THIN_VERSION)"
	@scripts/own-warnings.sh $(BUILD)/w1.log

sparse: prepare
	set -o pipefail; $(KMAKE) $(KBUILD_ARGS) -j$(JOBS) W=1 C=2 modules 2>&1 | tee $(BUILD)/sparse.log
	@! grep -q 'sparse is not available' $(BUILD)/sparse.log || \
		{ echo "sparse: not run: kbuild for $(KVER) rejects this sparse (7.x needs one that knows __typeof_unqual__: make deps KVER=$(KVER) puts sid's in the build root)"; exit 1; }
	@scripts/own-warnings.sh $(BUILD)/sparse.log

tests:
	$(MAKE) -C tests/kernel
	$(MAKE) -C tools

install: modules
	@scripts/install-modules.sh install $(KVER) $(TREE)/net/sctp

uninstall:
	@scripts/install-modules.sh uninstall $(KVER)

# The preset, and the hooks that apply it however sctp loads (a modprobe
# install command, a udev rule; docs/install.md).
install-sysctl:
	install -D -m 0644 sysctl/90-thin-sctp.conf /etc/sysctl.d/90-thin-sctp.conf
	install -D -m 0644 modprobe.d/thin-sctp.conf /etc/modprobe.d/thin-sctp.conf
	install -D -m 0644 udev/60-thin-sctp.rules /etc/udev/rules.d/60-thin-sctp.rules
	@echo "installed /etc/sysctl.d/90-thin-sctp.conf (applies when sctp loads: /etc/modprobe.d/thin-sctp.conf, /etc/udev/rules.d/60-thin-sctp.rules)"

# Debian packages (docs/install.md).
deb:
	@scripts/make-deb.sh

check-deb:
	@tests/deb/run

patches: prepare
	@scripts/export-patches.sh $(KVER) $(BUILD) $(TOP)/out/patches/$(KVER)

# The fix is made against the newest 7.3 release installed here
# (UPSTREAM_KVER=... to choose another).
UPSTREAM_KVER ?= $(lastword $(shell scripts/kernel-line.sh --list 2>/dev/null | grep '^7\.3\.' | sort -V))

upstream-fix:
	@[ -n "$(UPSTREAM_KVER)" ] || { echo "upstream-fix: no 7.3 release installed here; run: make deps KVER=<a 7.3 release>"; exit 1; }
	@$(MAKE) -s --no-print-directory prepare KVER=$(UPSTREAM_KVER)
	@scripts/upstream-fix.sh $(UPSTREAM_KVER) $(TOP)/build/$(UPSTREAM_KVER) $(TOP)/out/upstream-fix $(if $(UPSTREAM_MODULE),--module)

upstream-series:
	@[ -n "$(UPSTREAM_KVER)" ] || { echo "upstream-series: no 7.3 release installed here; run: make deps KVER=<a 7.3 release>"; exit 1; }
	@$(MAKE) -s --no-print-directory prepare KVER=$(UPSTREAM_KVER)
	@scripts/upstream-series.sh $(UPSTREAM_KVER) $(TOP)/build/$(UPSTREAM_KVER) $(TOP)/out/upstream-series
	@$(if $(UPSTREAM_KUNIT),scripts/upstream-kunit.sh $(UPSTREAM_KVER) $(TOP)/build/$(UPSTREAM_KVER) $(TOP)/out/upstream-series,true)
	@$(if $(UPSTREAM_BUILD),scripts/upstream-build.sh $(UPSTREAM_KVER) $(TOP)/build/$(UPSTREAM_KVER) $(TOP)/out/upstream-series,true)
	@$(if $(UPSTREAM_KERNEL),scripts/upstream-kernel.sh $(UPSTREAM_KVER) $(TOP)/build/$(UPSTREAM_KVER) $(TOP)/out/upstream-series,true)
	@$(if $(UPSTREAM_KERNEL),scripts/upstream-kernel-test.sh $(UPSTREAM_KVER) $(TOP)/build/$(UPSTREAM_KVER),true)

style: prepare
	@scripts/style.sh $(TREE)

# KVER only when given (command line or environment): plain `make deps`
# installs the 6.1 line as ever.
deps:
	@scripts/deps.sh $(if $(filter command% environment%,$(origin KVER)),$(KVER))

kernels:
	@scripts/kernel-line.sh --list

check:
	@scripts/check.sh

check-full:
	@scripts/check.sh --full

# The full in-guest suite, install test and lksctp-tools regression on one
# kernel (make check runs them on the primary kernel only).
check-kernel:
	@scripts/check-kernel.sh $(KVER)

print-kver:
	@echo $(KVER)

soak:
	@scripts/soak.sh

mutants:
	@tests/mutants/run

demo:
	@scripts/demo.sh

experiment:
	@tools/experiment.sh $(EXP_ARGS)

# RDB's benchmarks (reports, not tests): RDB_SECONDS per cell (60), then
# fairness part 2 with RDB variants (50 against 50 stock, 1 Mbit/s), then
# the 50 alone on that link (RDB's copies overload it: the queue gate).
bench-rdb:
	@tools/experiment.sh --name rdb-sweep --rtt 100 --loss u5 \
		--interval "50 100 150 200 250" --seconds $${RDB_SECONDS:-60} \
		--variants "stock all rdb rdb2" --receiver default
	@tools/experiment.sh --name rdb-bursty --rtt 100 --loss ge \
		--interval "100 250" --seconds $${RDB_SECONDS:-60} \
		--variants "stock all rdb rdb2" --receiver default
	@d=$(TOP)/results/$$(date +%Y%m%d-%H%M%S)-rdb-fairness; mkdir -p $$d && \
	FAIR_PARTS=2 FAIR_P2="stock:;all:--thin all;rdb:--thin all,rdb;rdb2:--thin all,rdb --thin-rdb-packets 2" \
	VM_QUIET=1 tests/vm/run --out $$d -- bash tests/bench/fairness.sh && \
	echo "results in $$d" && cat $$d/fairness/fairness.txt
	@d=$(TOP)/results/$$(date +%Y%m%d-%H%M%S)-rdb-alone; mkdir -p $$d && \
	FAIR_PARTS=2 FAIR_P2_B=0 FAIR_P2="all:--thin all;rdb:--thin all,rdb;rdb2:--thin all,rdb --thin-rdb-packets 2" \
	VM_QUIET=1 tests/vm/run --out $$d -- bash tests/bench/fairness.sh && \
	echo "results in $$d" && cat $$d/fairness/fairness.txt

bench-overhead:
	@tools/bench-overhead.sh

bench-fairness bench-scale: modules tests
	@d=$(TOP)/results/$$(date +%Y%m%d-%H%M%S)-$(@:bench-%=%); mkdir -p $$d && \
	VM_QUIET=1 VM_TIMEOUT=$${VM_TIMEOUT:-7200} tests/vm/run --out $$d -- bash tests/bench/$(@:bench-%=%).sh; \
	echo "results in $$d"; cat $$d/$(@:bench-%=%)/$(@:bench-%=%).txt; \
	if [ -f $$d/fairness/p3-thin.state.log ]; then \
		/opt/thin-venv/bin/python3 tools/plot-states.py $$d/fairness; fi; \
	if [ -f $$d/scale/scale.txt ]; then \
		{ echo "whole runs:"; python3 tools/scale-report.py $$d/scale; \
		echo; echo "from 5 s after the first message on (steady state):"; \
		python3 tools/scale-report.py --skip 5 $$d/scale; } | tee $$d/scale/report.md; fi

clean:
	rm -rf $(TOP)/build $(TOP)/out
