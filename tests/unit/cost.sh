#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Instructions per call of the core's send and SACK paths (callgrind,
# inclusive cost of the measured_* wrappers divided by the calls).
# $1: the bench binary
set -eu
BENCH=$1
N=${COST_N:-100000}
out=$(mktemp -d)
for mode in send sack0 sack1 sack4 dup; do
	fn=measured_sack
	[ "$mode" = send ] && fn=measured_sent
	[ "$mode" = dup ] && fn=measured_dup
	valgrind --tool=callgrind --callgrind-out-file="$out/$mode" \
		--toggle-collect="$fn" "$BENCH" "$mode" "$N" >/dev/null 2>&1
	ir=$(callgrind_annotate "$out/$mode" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
	printf 'cost: %-6s %6.1f instructions per call (%s calls)\n' "$mode" \
		"$(echo "$ir / $N" | bc -l)" "$N"
done
rm -rf "$out"
