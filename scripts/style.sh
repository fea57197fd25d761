#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checkpatch --strict on our C files and on each hook patch of every
# kernel line.  Prints one line per file and fails on any error, warning
# or check.
set -u
TREE=$1
TOP=$(cd "$(dirname "$0")/.." && pwd)
CP="perl $TREE/scripts/checkpatch.pl --strict --no-tree --quiet --show-types --ignore FILE_PATH_CHANGES"
cd "$TOP" || exit 1
fail=0 n=0
for f in net/sctp/*.c net/sctp/*.h include/net/sctp/*.h include/uapi/linux/*.h tools/*.c tools/*.h tools/qemu/*.c tools/qemu/*.h tests/unit/*.c tests/unit/*.h; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	extra=""
	# TRACE_EVENT() bodies are macro arguments; their conventional layout
	# (as in include/trace/events/) trips these two --strict checks.
	case "$f" in *_trace.h) extra="--ignore OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT" ;; esac
	# The compat header exists to compare kernel versions (WireGuard's
	# compat/ is checked the same way).
	case "$f" in */thin_compat.h) extra="--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON" ;; esac
	# 7.x's checkpatch lists struct ctl_table among the structs that
	# should be const (const_structs.checkpatch).  Ours that are not: the
	# per-namespace kmemdup() copy it fills in, the on-stack copy handed to
	# proc_dointvec_minmax() and the table argument 6.1 needs writable;
	# the handler's is const through SCTP_THIN_CTL_CONST, which checkpatch
	# does not expand.  Upstream's net/sctp/sysctl.c draws the same
	# warnings there.
	case "$f" in */thin_ctl.c) extra="--ignore CONST_STRUCT" ;; esac
	case "$f" in */thin_compat.h) extra="$extra,CONST_STRUCT" ;; esac
	# libFuzzer fixes the name and prototype of its entry point.
	case "$f" in tests/unit/fuzz.c) extra="--ignore CAMELCASE,AVOID_EXTERNS" ;; esac
	# User-space tools: a signal flag must be volatile sig_atomic_t (C11
	# 7.14.1.1), which the kernel-oriented VOLATILE check flags.
	case "$f" in tools/*.c | tools/*.h) extra="--ignore VOLATILE" ;; esac
	if out=$($CP $extra -f "$f" 2>&1) && [ -z "$out" ]; then
		echo "style: ok   $f"
	else
		echo "style: FAIL $f"; echo "$out" | head -n 30; fail=$((fail + 1))
	fi
done
for p in patches/*.patch patches/*/*.patch; do
	n=$((n + 1))
	# On stdin: given a *.patch file name, checkpatch checks it as a file.
	if out=$($CP - <"$p" 2>&1) && [ -z "$out" ]; then
		echo "style: ok   $p"
	else
		echo "style: FAIL $p"; echo "$out" | head -n 30; fail=$((fail + 1))
	fi
done
echo "style: $((n - fail)) passed, $fail failed"
[ "$fail" = 0 ]
