#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run the user-space layers and sum their "N passed, M failed" lines.
# $1: build dir, $2: steps per seed, $3: seeds
set -u
cd "$(dirname "$0")" || exit 1
p=0 f=0 rc=0
for cmd in "$1/directed" "$1/random $2 $3" "$1/replay corpus/*"; do
	# shellcheck disable=SC2086
	out=$($cmd 2>&1) || rc=1
	echo "$out"
	line=$(echo "$out" | grep -E '[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	[ -n "$line" ] || { f=$((f + 1)); rc=1; continue; }
	p=$((p + $(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')))
	f=$((f + $(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')))
done
echo "$p passed, $f failed"
[ "$rc" = 0 ] && [ "$f" = 0 ]
