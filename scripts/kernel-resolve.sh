#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The newest release of a supported kernel line that Debian's archive
# offers now, for make deps and make check (which used to name one
# release, and lost the line when a backports suite moved on: a suite
# keeps only its newest release).
#
#   kernel-resolve.sh LINE   print the newest release of LINE (e.g.
#                            6.12.117+deb12-amd64) for which the archive
#                            has linux-image-REL, linux-headers-REL and
#                            linux-source-LINE of one Debian version; or
#                            say on stderr why there is none and exit 1
#   kernel-resolve.sh --all  one line per supported line but the primary
#                            (6.1, the machine's own): "LINE RELEASE", or
#                            "LINE - WHY" for a line whose kernel cannot
#                            be had
#
# The releases come from the kernel meta packages (linux-headers-amd64 and
# linux-headers-LINE-amd64, every version the suites have: what Debian
# points its users to), and the archive's other linux-headers-LINE.*
# packages.  The suites are those of the line's Debian release
# (scripts/kernel-line.sh: 6.12 bookworm-backports -> bookworm,
# bookworm-updates, bookworm-security, bookworm-backports), read by a
# private apt (lists in $THIN_CACHE/apt-<release>): neither this
# machine's apt nor a build root is changed.
#
# Environment: THIN_CACHE (/var/cache/thin-sctp), THIN_DEBIAN_MIRROR
# (http://deb.debian.org/debian), THIN_DEBIAN_SECURITY_MIRROR
# (http://deb.debian.org/debian-security).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${THIN_CACHE:-/var/cache/thin-sctp}
MIRROR=${THIN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY=${THIN_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
PRIMARY=6.1

# row LINE: "PATTERN SUITE" of the line: the pattern from the table in
# scripts/kernel-line.sh (LINES), the suite from its lookup of a release
# of that pattern.
row() {
	local rel info re=${1//./\\.}
	rel=$(sed -n "s/^${re}[[:space:]]\+\([^[:space:]]*\).*/\1/p" "$TOP/scripts/kernel-line.sh" | head -n 1)
	[ -n "$rel" ] || return 1
	info=$("$TOP/scripts/kernel-line.sh" "${rel//\*/0}" 2>/dev/null) || return 1
	echo "$rel $(echo "$info" | cut -d' ' -f2)"
}

# apt_view CODENAME SUITE: a private apt over the release's suites and
# SUITE; prints the -o options that select it.
apt_view() {
	local code=$1 suite=$2 d=$CACHE/apt-$1 suites
	suites="$code $code-updates"
	case " $suites " in *" $suite "*) ;; *) suites="$suites $suite" ;; esac
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/sources.list.d" "$d/preferences.d"
	printf '%s\n' "Types: deb" "URIs: $MIRROR" "Suites: $suites" "Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" "" \
		"Types: deb" "URIs: $SECURITY" "Suites: $code-security" "Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" \
		>"$d/sources.list.d/debian.sources"
	: >"$d/status"
	echo "-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$d/sources.list.d" \
		"-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=$d/preferences.d" \
		"-o Dir::State::Lists=$d/lists -o Dir::Cache=$d/cache -o Dir::State::status=$d/status" \
		"-o APT::Architecture=amd64 -o APT::Architectures::=amd64" \
		"-o Debug::NoLocking=1 -o APT::Sandbox::User=root"
}

resolve() {
	local line=$1 pat suite code opts meta v rel hv cands best have
	read -r pat suite < <(row "$line") || { echo "kernel-resolve: unknown line $line" >&2; return 1; }
	code=${suite%%-*}
	# shellcheck disable=SC2207
	opts=($(apt_view "$code" "$suite"))
	if ! apt-get "${opts[@]}" -q update >"$CACHE/apt-$code/update.log" 2>&1; then
		echo "kernel-resolve: apt-get update of $code's suites failed ($MIRROR; $CACHE/apt-$code/update.log)" >&2
		return 1
	fi
	# Candidates: what the meta packages depend on, and the names.
	cands=$(
		for meta in linux-headers-amd64 "linux-headers-$line-amd64"; do
			apt-cache "${opts[@]}" madison "$meta" 2>/dev/null | awk -F' [|] ' '{ print $2 }' |
			while read -r v; do
				apt-cache "${opts[@]}" show "$meta=$v" 2>/dev/null |
					sed -n 's/^Depends: .*\(linux-headers-[^ ,]*\) (= .*/\1/p' | head -n 1
			done
		done
		apt-cache "${opts[@]}" pkgnames "linux-headers-$line." 2>/dev/null
	)
	best=""
	for rel in $(echo "$cands" | sed -n 's/^linux-headers-//p' | sort -u -V -r); do
		# shellcheck disable=SC2053
		[[ $rel == $pat ]] || continue
		hv=$(apt-cache "${opts[@]}" madison "linux-headers-$rel" | awk -F' [|] ' 'NR == 1 { print $2 }')
		[ -n "$hv" ] || continue
		apt-cache "${opts[@]}" madison "linux-image-$rel" | awk -F' [|] ' '{ print $2 }' | grep -qxF "$hv" || continue
		apt-cache "${opts[@]}" madison "linux-source-$line" | awk -F' [|] ' '{ print $2 }' | grep -qxF "$hv" || continue
		best=$rel
		break
	done
	if [ -z "$best" ]; then
		have=$(echo "$cands" | sed -n 's/^linux-headers-//p' | sort -u -V | paste -sd' ')
		echo "kernel-resolve: Debian's $code suites ($suite included) offer no $pat with image, headers and linux-source-$line of one version${have:+ (there are: $have)}" >&2
		return 1
	fi
	echo "$best"
}

mkdir -p "$CACHE"
if [ "${1:-}" = --all ]; then
	for line in $("$TOP/scripts/kernel-line.sh" --lines); do
		[ "$line" = "$PRIMARY" ] && continue
		if rel=$(resolve "$line" 2>"$CACHE/resolve-$line.err"); then
			echo "$line $rel"
		else
			echo "$line - $(tail -n 1 "$CACHE/resolve-$line.err" | sed 's/^kernel-resolve: //')"
		fi
	done
	exit 0
fi
resolve "${1:?usage: kernel-resolve.sh LINE | --all}"
