# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Debian suites the host's apt is not configured for (trixie-backports on a
# bookworm host), read through a private apt configuration in the cache so
# that the host's sources, lists and package state stay as they were:
# sourced by kernel-headers.sh, linux-source.sh, trixie-root.sh,
# deb-chroot.sh and the tests.
#
# TW_DEBIAN_MIRROR picks the archive (default deb.debian.org); Debian
# serves its -security suites from a sibling, TW_DEBIAN_MIRROR-security.

tw_cache_dir() {
	echo "${TW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/timewire}"
}

tw_debian_mirror() {
	echo "${TW_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
}

# tw_suite_archive SUITE: the archive that serves SUITE.
tw_suite_archive() {
	case $1 in
	*-security) echo "$(tw_debian_mirror)-security" ;;
	*) tw_debian_mirror ;;
	esac
}

# tw_debian_source SUITE: the sources line of SUITE, for mmdebstrap.
tw_debian_source() {
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"$(tw_suite_archive "$1") $1 main"
}

# What every root made here is made with (mmdebstrap's options): as root,
# without documentation, which no build or guest reads.
# shellcheck disable=SC2034 # for the scripts sourcing this one
tw_mmdebstrap_opts=(--mode=root --aptopt='Acquire::Languages "none"'
	--dpkgopt='path-exclude=/usr/share/doc/*'
	--dpkgopt='path-exclude=/usr/share/man/*'
	--dpkgopt='path-exclude=/usr/share/locale/*')

# tw_mmdebstrap ARG...: mmdebstrap ARG... (as root: sudo otherwise), a
# failed download tried again (the archive's CDN drops one now and then),
# its progress kept out of the caller's output; when it fails, the end of
# what it and apt said (--quiet would hide apt's reason behind "apt
# download failed").  It runs with no descriptor open but 0-2: apt hands
# its own to dash as "cat >&N", which dash cannot parse for N above 9, and
# the caller's (a lock's, tw_root_made's) pushed N there.
tw_mmdebstrap() {
	local log rc=0 sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	log=$(mktemp) || return 1
	(
		for fd in /proc/"$BASHPID"/fd/*; do
			fd=${fd##*/}
			[ "$fd" -le 2 ] || eval "exec $fd>&-"
		done
		exec "${sudo[@]}" mmdebstrap --aptopt='Acquire::Retries "5"' "$@"
	) > "$log" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || grep -v '^I: ' "$log" | tail -n 25 >&2
	rm -f "$log"
	return "$rc"
}

# tw_root_made ROOT STAMP MMDEBSTRAP_ARG...: ROOT as mmdebstrap makes it
# from the arguments given (ROOT among them), unless its 'done' file
# already says STAMP (a root's package list).  Made under a lock beside
# it, so that concurrent callers wait for the one making it; the lock is
# not held while the root is used.  As root (sudo otherwise).
tw_root_made() {
	local root=$1 stamp=$2 sudo=()
	shift 2
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	mkdir -p "$(dirname "$root")"
	(
		flock 9
		[ "$(cat "$root/done" 2>/dev/null)" = "$stamp" ] && exit 0
		command -v mmdebstrap >/dev/null ||
			{ echo "${0##*/}: mmdebstrap not installed (make deps)" >&2; exit 1; }
		echo "${0##*/}: making $root from $(tw_debian_mirror)" >&2
		"${sudo[@]}" rm -rf --one-file-system "$root"
		tw_mmdebstrap "$@" || exit 1
		echo "$stamp" | "${sudo[@]}" tee "$root/done" >/dev/null
	) 9> "$(dirname "$root")/.lock-${root##*/}"
}

# tw_deb_unpack DIR PKG=VERSION...: download the packages (from the apt
# lists, APT_CONFIG's if set) and unpack them into DIR, installing
# nothing: what dpkg would have put under /, under DIR.
tw_deb_unpack() {
	local dir=$1 deb
	shift
	mkdir -p "$dir/debs"
	# apt-get download writes into the current directory.
	(cd "$dir/debs" && apt-get -q download "$@") >&2 || return 1
	for deb in "$dir"/debs/*.deb; do
		dpkg-deb -x "$deb" "$dir" || return 1
	done
	rm -rf "$dir/debs"
}

# tw_archive_reachable SUITE: the archive answers for SUITE (its InRelease
# downloads), which tells an unreachable archive from a broken build.
tw_archive_reachable() {
	local tmp rc
	tmp=$(mktemp -d)
	/usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file \
		"$(tw_suite_archive "$1")/dists/$1/InRelease" "$tmp/InRelease" >/dev/null 2>&1
	rc=$?
	rm -rf "$tmp"
	return $rc
}

# tw_apt_suite SUITE ARCH: point apt (APT_CONFIG, exported) at SUITE alone,
# ARCH as the native architecture, with lists of its own under the cache,
# and refresh them: the newest packages are known at every run, unless
# TW_APT_FRESH_MIN=N says lists younger than N minutes will do.  The
# host's architecture is listed too: a cross build runs kbuild's tools
# (linux-kbuild) here.  The files are replaced whole: another run may be
# reading them.
tw_apt_suite() {
	local suite=$1 arch=$2 archs dir
	archs="\"$arch\";"
	[ "$arch" = "$(dpkg --print-architecture)" ] ||
		archs+=" \"$(dpkg --print-architecture)\";"
	dir=$(tw_cache_dir)/apt/$suite-$arch
	mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial" \
		"$dir/sources.list.d" "$dir/preferences.d"
	: >> "$dir/state/status"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"$(tw_suite_archive "$suite") $suite main" > "$dir/sources.list.$$"
	mv -f "$dir/sources.list.$$" "$dir/sources.list"
	# The host's apt.conf.d still applies (a proxy, say).  Downloads go
	# into the caller's cache, which the _apt user may not enter.
	cat > "$dir/apt.conf.$$" <<-CONF
	Dir::State "$dir/state";
	Dir::State::status "$dir/state/status";
	Dir::Cache "$dir/cache";
	Dir::Etc::SourceList "$dir/sources.list";
	Dir::Etc::SourceParts "$dir/sources.list.d";
	Dir::Etc::Preferences "$dir/preferences";
	Dir::Etc::PreferencesParts "$dir/preferences.d";
	APT::Architecture "$arch";
	APT::Architectures { $archs };
	APT::Sandbox::User "root";
	Acquire::Languages "none";
	CONF
	mv -f "$dir/apt.conf.$$" "$dir/apt.conf"
	export APT_CONFIG=$dir/apt.conf
	(
		flock 9
		[ -n "${TW_APT_FRESH_MIN:-}" ] &&
			[ -n "$(find "$dir/updated" -mmin "-$TW_APT_FRESH_MIN" 2>/dev/null)" ] &&
			exit 0
		apt-get -q -o Dpkg::Use-Pty=0 update >&2 && touch "$dir/updated"
	) 9> "$dir/.lock"
}
