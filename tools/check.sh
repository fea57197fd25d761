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
	[ "$p" = 0 ] && [ "$f" = 0 ] && f=1 && echo "not ok - $(basename "$t") ran no test"
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
# thin-web on loopback: every byte the server sent arrives, and the sizes
# follow the paper's Pareto (minimum 1000 bytes, median 1000 * 2^(1/a)).
W=$TOP/build/tools/thin-web
port=$((20000 + $$ % 20000))
"$W" server --listen 127.0.0.1:$port --duration 6 >"$TOP/build/tools/web-server.out" 2>&1 &
sleep 0.3
"$W" client --connect 127.0.0.1:$port --duration 3 --log "$TOP/build/tools/web.log" \
	>"$TOP/build/tools/web-client.out" 2>&1
wait
if awk '/^thin-web client/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); c[kv[1]] = kv[2] } }
	/^thin-web server/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); s[kv[1]] = kv[2] } }
	END { exit !(c["completed"] > 100 && c["failed"] == 0 && c["bytes"] == s["bytes"]) }' \
	"$TOP/build/tools/web-client.out" "$TOP/build/tools/web-server.out" &&
	awk '!/^#/ { print $3, $5 }' "$TOP/build/tools/web.log" | sort -n |
	awk '{ n++; v[n] = $1; if ($1 < 1000 || $2 != 1) bad++ }
	END { m = v[int(n / 2)]; exit !(n > 100 && !bad && m > 1500 && m < 2300) }'; then
	echo "ok - thin-web: $(cat "$TOP/build/tools/web-client.out")"
	pass=$((pass + 1))
else
	cat "$TOP/build/tools/web-client.out" "$TOP/build/tools/web-server.out"
	echo "not ok - thin-web on loopback"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
