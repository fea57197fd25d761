#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: run every cell of a matrix with guest-exp.sh, one after
# the other.  CELLS: space-separated RTT:LOSS:INTERVAL triples.
#   guest-matrix.sh OUT SECONDS "CELLS" VARIANT...
here=$(dirname "$0")
out=$1 dur=$2 cells=$3
shift 3
rc=0
n=0
for c in $cells; do
	IFS=: read -r rtt loss ival <<<"$c"
	n=$((n + 1))
	dir="$out/rtt${rtt}-${loss}-${ival}"
	mkdir -p "$dir"
	echo "matrix: [$n/$(echo $cells | wc -w)] rtt=$rtt loss=$loss interval=$ival: $* ($(date +%T))"
	bash "$here/guest-exp.sh" "$dir" "$rtt" "$loss" "$ival" "$dur" "$@" || rc=1
done
exit $rc
