#!/usr/bin/env bash
# Install everything timewire needs on a Debian 12 (bookworm) amd64 machine:
# build tools, libraries, the QEMU harness and Debian's stock 6.12 kernel
# (image, headers and linux-source of one and the same version: the source
# serves checkpatch, ynl and the upstream selftests; mptcp_qaware needs only
# the headers' BTF).
#
# Idempotent: when everything is present it only checks and returns.
# Usage: scripts/deps.sh [--check]   (--check: exit 1 if anything is missing)
#        scripts/deps.sh ARCH        only what a foreign guest's targets add
#                                    (scripts/foreign-archs.sh list: make
#                                    modules-ARCH, which make check-ARCH
#                                    and make check's smoke boots run)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel-version.sh
. "$here/kernel-version.sh"
# shellcheck source=scripts/debian-kernel.sh
. "$here/debian-kernel.sh"

APT_PKGS=(
	build-essential pkg-config bc bison flex kmod cpio xz-utils
	libnl-3-dev libnl-genl-3-dev liburcu-dev
	sparse qemu-system-x86 busybox-static
	iproute2 iputils-ping ethtool iperf3 nftables iptables socat tcpdump
	procps psmisc netcat-openbsd jq	# jq: JSON checks in guest tests, where Python starts slowly
	python3-yaml python3-jsonschema python3-matplotlib python3-pip
	python3-docutils	# make style: the documentation parses
	libelf-dev libssl-dev
	pahole	# the modules' own BTF (CONFIG_DEBUG_INFO_BTF_MODULES)
	libbpf-dev	# mptcp_qaware: its private MPTCP layout read from the kernel's BTF
	gcc-mips-linux-gnu libc6-dev-mips-cross qemu-user
	mmdebstrap	# make modules-7: 7.x's kbuild tools need trixie's glibc (a trixie root)
	clang llvm bpftool
	cmake	# libnl-tiny, OpenWrt's netlink library, built for its host suite
)
PIP_PKGS=(virtme-ng)
# A foreign guest's build and boot: the cross compiler and C library (the
# CLI and the tests' programs), and the emulator.
foreign_pkgs() { "$here/foreign-archs.sh" packages "$1"; }

apt_opts=(-y -q --no-install-recommends -o DPkg::Lock::Timeout=600)
export DEBIAN_FRONTEND=noninteractive

missing_apt() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

have_vng() { command -v vng >/dev/null 2>&1; }

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

ensure_backports() {
	if grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return 1
	fi
	"${sudo_cmd[@]}" tee /etc/apt/sources.list.d/timewire-backports.sources >/dev/null <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	return 0
}

apt_updated=0
apt_update() {
	[ "$apt_updated" -eq 1 ] && return 0
	echo "deps: apt-get update"
	"${sudo_cmd[@]}" apt-get -q -o DPkg::Lock::Timeout=600 update >/dev/null
	apt_updated=1
}

check_only=0
[ "${1:-}" = "--check" ] && check_only=1

# Foreign guests' tools (scripts/deps.sh ARCH...: make check-prep names
# them all, a foreign guest's own targets its own).
if foreign=$(foreign_pkgs "${1:-}"); then
	for a in "${@:2}"; do
		foreign+=" $(foreign_pkgs "$a")" || { echo "deps: no foreign guest '$a'" >&2; exit 2; }
	done
	# shellcheck disable=SC2086 # a list of names
	mapfile -t need < <(missing_apt $foreign)
	[ "${#need[@]}" -eq 0 ] && exit 0
	apt_update
	echo "deps: installing ${need[*]}"
	"${sudo_cmd[@]}" apt-get install "${apt_opts[@]}" "${need[@]}" >/dev/null
	exit 0
fi

mapfile -t need < <(missing_apt "${APT_PKGS[@]}")
kver=$(tw_kernel_installed || true)
need_kernel=0
[ -n "$kver" ] || need_kernel=1
need_pip=0
have_vng || need_pip=1

if [ "$check_only" -eq 1 ]; then
	[ "${#need[@]}" -eq 0 ] && [ "$need_kernel" -eq 0 ] && [ "$need_pip" -eq 0 ] && exit 0
	echo "deps: missing:${need[*]:+ ${need[*]}}$([ $need_kernel -eq 1 ] && echo ' kernel-6.12')$([ $need_pip -eq 1 ] && echo ' virtme-ng')"
	exit 1
fi

if ensure_backports; then apt_update; fi

if [ "${#need[@]}" -gt 0 ]; then
	apt_update
	echo "deps: installing ${need[*]}"
	"${sudo_cmd[@]}" apt-get install "${apt_opts[@]}" "${need[@]}" >/dev/null
fi

if [ "$need_kernel" -eq 1 ]; then
	apt_update
	pick=$(tw_kernel_pick)
	if [ -z "$pick" ]; then
		echo "deps: no 6.12 kernel with image, headers and linux-source in the configured suites" >&2
		exit 1
	fi
	read -r abi pkgver <<<"$pick"
	echo "deps: installing Debian kernel $abi ($pkgver)"
	tw_kernel_apt_install "linux-image-$abi=$pkgver" "linux-headers-$abi=$pkgver" \
		"linux-source-6.12=$pkgver"
fi

if [ "$need_pip" -eq 1 ]; then
	echo "deps: pip install ${PIP_PKGS[*]}"
	python3 -m pip install -q --disable-pip-version-check "${PIP_PKGS[@]}"
	hash -r
	have_vng || { echo "deps: vng not on PATH after pip install" >&2; exit 1; }
fi
echo "deps: ok (kernel $(tw_kernel_installed))"
