#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fail if a compiler/sparse log has a warning or error in one of our own
# files or in a line our hook patches add.  Upstream net/sctp has its own
# W=1 and sparse noise, which is not ours to fix.
set -eu
LOG=$1
TOP=$(cd "$(dirname "$0")/.." && pwd)
own=$( (cd "$TOP" && ls net/sctp/*.c net/sctp/*.h include/net/sctp/*.h include/uapi/linux/*.h 2>/dev/null) | xargs -n1 basename | sort -u | paste -sd'|')
if grep -E "($own):[0-9]+(:[0-9]+)?: (warning|error)" "$LOG"; then
	echo "own-warnings: FAIL: warnings in our files (above)"
	exit 1
fi
echo "own-warnings: none in our files ($(grep -c -E ': (warning|error)' "$LOG" || true) upstream lines ignored)"
