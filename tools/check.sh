#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make check's "tools" step: the analysis scripts' tests and the traffic
# profiles' fit to the papers' Table 1 (thin-gen profile-stats).
TOP=$(cd "$(dirname "$0")/.." && pwd)
PY=${THIN_VENV:-/opt/thin-venv}/bin/python3
pass=0 fail=0
for t in "$TOP"/tools/test_*.py; do
	out=$("$PY" "$t" 2>&1)
	rc=$?
	echo "$out" | tail -n 3
	line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	p=${line%% passed*} f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	[ -n "$line" ] || { p=0 f=1; }
	[ $rc != 0 ] && [ "$f" = 0 ] && f=1
	pass=$((pass + p)) fail=$((fail + f))
done
make -s -C "$TOP/tools" >/dev/null || fail=$((fail + 1))
if "$TOP/build/tools/thin-gen" profile-stats --profile all --samples 30000 --check 10 >"$TOP/build/tools/profiles.txt" 2>&1; then
	echo "ok - thin-gen profiles match Table 1 within 10 % (build/tools/profiles.txt)"
	pass=$((pass + 1))
else
	grep -B3 'off' "$TOP/build/tools/profiles.txt" | head -n 20
	echo "not ok - thin-gen profiles"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
