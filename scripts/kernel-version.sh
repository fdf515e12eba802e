# shellcheck shell=bash
# Helpers to find Debian's stock 6.12 kernel: sourced by deps.sh and the build.

# tw_kernel_installed: print the ABI name (e.g. 6.12.57+deb12-amd64) of the
# newest installed 6.12 kernel whose image, headers and linux-source are all
# present, or nothing.
tw_kernel_installed() {
	local d abi src
	src=/usr/src/linux-source-6.12.tar.xz
	[ -r "$src" ] || return 1
	for d in $(ls -d /lib/modules/6.12.*-amd64 2>/dev/null | sort -rV); do
		abi=${d#/lib/modules/}
		[ -r "/boot/vmlinuz-$abi" ] && [ -e "$d/build/Makefile" ] || continue
		echo "$abi"
		return 0
	done
	return 1
}

# tw_kernel_pick: print "ABI PKGVERSION" for the newest 6.12 version whose
# image, headers and linux-source-6.12 all exist in the apt lists.
tw_kernel_pick() {
	local srcvers ver img abi
	srcvers=$(apt-cache madison linux-source-6.12 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' | sort -rV -u)
	for ver in $srcvers; do
		for img in $(apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-amd64$' | awk '{print $1}'); do
			abi=${img#linux-image-}
			apt-cache madison "$img" | grep -q "| $ver |" || continue
			apt-cache madison "linux-headers-$abi" | grep -q "| $ver |" || continue
			echo "$abi $ver"
			return 0
		done
	done
	return 1
}
