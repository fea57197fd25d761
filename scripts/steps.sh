# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Steps of make check and make soak (sourced).  Set LOG first.  Each step
# logs to $LOG/<step>.log; a step that ends with its own "N passed,
# M failed" line contributes those counts ("0 passed, 0 failed" counts
# as one failure: it tested nothing), any other step counts as one
# test.  steps_end prints the failures, each step's result and wall time,
# the total wall time (against STEPS_BUDGET seconds, if set) and the total
# "N passed, M failed".
#
#   CHECK_ONLY="unit style"   run only these steps
#   CHECK_SKIP="regress"      skip these steps (they are reported as skipped)
mkdir -p "$LOG"
passed=0 failed=0 skipped=0
STEPS_T0=$(date +%s)
declare -a summary failed_steps

want() {
	if [ -n "${CHECK_ONLY:-}" ]; then
		case " $CHECK_ONLY " in *" $1 "*) ;; *) return 1 ;; esac
	fi
	case " ${CHECK_SKIP:-} " in *" $1 "*) return 1 ;; esac
	return 0
}

# step NAME CMD...: run, count, keep going.
step() {
	local name=$1 t0 rc p f line
	shift
	if ! want "$name"; then
		skipped=$((skipped + 1))
		summary+=("$(printf '%-14s skipped' "$name")")
		return 0
	fi
	t0=$(date +%s)
	echo "=== $name: $*"
	"$@" >"$LOG/$name.log" 2>&1 </dev/null
	rc=$?
	line=$(grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed' "$LOG/$name.log" | tail -n 1)
	if [ -n "$line" ]; then
		p=$(echo "$line" | sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed.*/\2/')
		f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
		[ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
		# "0 passed, 0 failed": it ran no test, which is no pass.
		if [ "$p" = 0 ] && [ "$f" = 0 ]; then
			f=1
			echo "not ok - $name ran no test" >>"$LOG/$name.log"
		fi
	elif [ "$rc" = 0 ]; then
		p=1 f=0
	else
		p=0 f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	{ [ "$rc" = 0 ] && [ "$f" = 0 ]; } || failed_steps+=("$name")
	tail -n 5 "$LOG/$name.log" | sed 's/^/    /'
	summary+=("$(printf '%-14s %-4s %5d s  %d passed, %d failed' "$name" \
		"$([ "$rc" = 0 ] && [ "$f" = 0 ] && echo ok || echo FAIL)" $(($(date +%s) - t0)) "$p" "$f")")
	return 0
}

# skip NAME REASON: a step that cannot run here and is no failure (a
# kernel line whose packages are not installed).
skip() {
	want "$1" || return 0
	echo "=== $1: skipped: $2"
	summary+=("$(printf '%-14s skipped: %s' "$1" "$2")")
}

steps_end() {
	local n el=$(($(date +%s) - STEPS_T0))
	# A CI shows only the end of the output: the failed steps' own
	# failures, then every step with its time, then the total.
	for n in "${failed_steps[@]}"; do
		echo "=== FAILED: $n ($LOG/$n.log): its \"not ok\" lines and last lines"
		grep -E '^not ok|FAIL' "$LOG/$n.log" | head -n 20 | sed 's/^/    /'
		echo "    ..."
		tail -n 15 "$LOG/$n.log" | sed 's/^/    /'
	done
	echo "=== summary (logs in $LOG)"
	printf '  %s\n' "${summary[@]}"
	[ "$skipped" = 0 ] || echo "  ($skipped steps skipped by CHECK_ONLY/CHECK_SKIP)"
	printf '=== wall time: %d s (%d min %d s)%s\n' "$el" $((el / 60)) $((el % 60)) \
		"${STEPS_BUDGET:+, budget $STEPS_BUDGET s$([ "$el" -le "$STEPS_BUDGET" ] || echo ': OVER BUDGET')}"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
}
