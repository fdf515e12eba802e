#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The private MPTCP headers mptcp_qaware.ko is compiled against, and the
# layout checks that go with them, written into OUT (a build directory,
# never the source tree; nothing here is committed):
#
#   OUT/protocol.h, OUT/mib.h  net/mptcp/ of Debian's linux-source-6.12,
#                              which must be the exact version being built for
#   OUT/qaware_layout.h        the offsets, widths and sizes the module relies
#                              on, as the target kernel's BTF ($KDIR/vmlinux)
#                              has them: static asserts, a table of bit-fields
#                              that the module checks once at load, and the
#                              lists of members and structures that it looks
#                              up in the running kernel's BTF at load
#                              (layout.c); the scheduler API's structures of
#                              <net/mptcp.h> too, which the kernel reads
#
# Usage: gen-private.sh OUT VERSION KDIR     (VERSION: 6.12.117)
#
# Two modules that must refuse to load, for the tests (tests/qaware):
# QA_LAYOUT_SKEW=N moves every bit-field N bits from where BTF has it;
# QA_LAYOUT_PAD=1 compiles against a protocol.h whose mptcp_subflow_context
# starts with 8 more bytes, as if built for another kernel; QA_LAYOUT_NARROW=1
# against one whose mptcp_sock.token is a u16, every offset and size as
# before (both leave the build-time asserts out: they held for that other
# kernel).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 OUT VERSION KDIR" >&2; exit 2; }
out=$1 want=$2 kdir=$3
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
skew=${QA_LAYOUT_SKEW:-0}
pad=${QA_LAYOUT_PAD:-0}
narrow=${QA_LAYOUT_NARROW:-0}
stamp="$want $skew $pad $narrow $(stat -c "%s %Y" "$tarball" 2>/dev/null || echo none) $(md5sum < "$0" | cut -c1-12)"

die() { echo "mptcp_qaware: $*" >&2; exit 1; }

[ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] && exit 0
[ -r "$tarball" ] || die "$tarball missing: the private MPTCP headers come from \
linux-source-${want%.*} of the same version as the kernel (make deps)"
mkdir -p "$out"
tmp=$(mktemp -d "$out/.x.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

top_dir=$(tar -tJf "$tarball" 2>/dev/null | head -n 1 | cut -d/ -f1) || true
tar -xJf "$tarball" -C "$tmp" --strip-components=1 "$top_dir/Makefile" \
	"$top_dir/net/mptcp/protocol.h" "$top_dir/net/mptcp/mib.h" ||
	die "cannot extract net/mptcp/protocol.h from $tarball"
have=$(awk -F' = ' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
	$1 == "SUBLEVEL" { s = $2 } END { print v "." p "." s }' "$tmp/Makefile")
# The private structures move between stable releases too: only the
# kernel's own version is trusted.
[ "$have" = "$want" ] || die "$tarball is Linux $have, the kernel is $want: \
install linux-source of $want (the private layout must be the kernel's own)"

command -v pahole >/dev/null || die "pahole missing (dwarves; make deps)"
[ -r "$kdir/vmlinux" ] || die "$kdir/vmlinux missing: no BTF to check the \
private layout against"

# pahole prints "type name;  /* offset size */" and, for bit-fields,
# "type name:bits;  /* offset:bit size */" (bit counted from the least
# significant bit on little endian); a function pointer as
# "type (*name)(args);", an array as "type name[n];".
layout() {	# layout STRUCT FIELD...
	local s=$1
	shift
	pahole -C "$s" "$kdir/vmlinux" | awk -v s="$s" -v fields=" $* " -v skew="$skew" '
	/\/\* size: / { sub(/,.*/, "", $3); size = $3 }
	/;[ \t]*\/\*/ {
		line = $0
		sub(/;.*/, "", line)
		if (match(line, /\(\*[A-Za-z0-9_]+\)/))
			line = substr(line, RSTART + 2, RLENGTH - 3)
		sub(/\[[0-9]*\]$/, "", line)
		n = split(line, w, /[ \t*]+/)
		name = w[n]
		bits = ""
		if (name ~ /:[0-9]+$/) { bits = name; sub(/.*:/, "", bits); sub(/:.*/, "", name) }
		if (index(fields, " " name " ") == 0 || seen[name]++)
			next
		c = $0
		sub(/.*\/\*[ \t]*/, "", c)
		if (bits != "") {
			split(c, p, /[: \t]+/)
			printf "\tcheck(%s, %s, %d, %d, %d); \\\n", s, name, p[1], p[2] + skew, bits
		} else {
			split(c, p, /[ \t]+/)
			printf "static_assert(offsetof(struct %s, %s) == %d, \"%s.%s moved: protocol.h does not match the kernel\");\n", s, name, p[1], s, name > "/dev/stderr"
			printf "static_assert(sizeof_field(struct %s, %s) == %d, \"%s.%s changed width: protocol.h does not match the kernel\");\n", s, name, p[2], s, name > "/dev/stderr"
		}
	}
	END {
		if (size == "") exit 1
		printf "static_assert(sizeof(struct %s) == %d, \"struct %s changed size: protocol.h does not match the kernel\");\n", s, size, s > "/dev/stderr"
	}'
}

# The asserts' members and structures again, as lists for btf.c.
btf_lists() {	# btf_lists ASSERTS
	echo "#define QA_LAYOUT_MEMBERS(member) do { \\"
	sed -n 's/.*offsetof(struct \([a-z_]*\), \([a-z_]*\)).*/\tmember(\1, \2); \\/p' "$1"
	echo "} while (0)"
	echo "#define QA_LAYOUT_STRUCTS(structure) do { \\"
	sed -n 's/.*sizeof(struct \([a-z_]*\)).*/\tstructure(\1); \\/p' "$1"
	echo "} while (0)"
}

{
	echo "/* Generated by gen-private.sh from $kdir/vmlinux (BTF). */"
	echo "#ifndef QAWARE_LAYOUT_H"
	echo "#define QAWARE_LAYOUT_H"
	echo "#define QA_LAYOUT_KERNEL \"$want\""
	[ "$skew" = 0 ] || echo "/* bit-fields moved by $skew (QA_LAYOUT_SKEW): must not load */"
	layout mptcp_sock conn_list first sched write_seq snd_nxt snd_una \
		wnd_end bytes_retrans rtx_queue first_pending recovery \
		recovery_snd_nxt token snd_burst timer_ival 2> "$tmp/asserts"
	layout mptcp_data_frag list data_seq data_len already_sent \
		2>> "$tmp/asserts"
	layout mptcp_sched_ops get_subflow name owner list init release \
		2>> "$tmp/asserts"
	layout mptcp_sched_data reinject 2>> "$tmp/asserts"
	printf "/* check(struct, field, byte, bit, bits): each bit-field used */\n"
	echo "#define QA_LAYOUT_BITFIELDS(check) do { \\"
	layout mptcp_subflow_context node subflow_id scheduled fully_established \
		stale_rcv_tstamp tcp_sock request_join request_bkup backup stale \
		2>> "$tmp/asserts"
	echo "} while (0)"
	btf_lists "$tmp/asserts"
	if [ "$pad" = 0 ] && [ "$narrow" = 0 ]; then
		cat "$tmp/asserts"
	else
		echo "/* protocol.h changed (QA_LAYOUT_PAD, _NARROW): must not load */"
	fi
	echo "#endif"
} > "$tmp/qaware_layout.h" || die "pahole found no mptcp_sock, \
mptcp_data_frag or mptcp_subflow_context in $kdir/vmlinux"
# 32 members (offset and width each) and 5 structure sizes
n=$(grep -c '^static_assert' "$tmp/asserts")
[ "$n" -eq 69 ] || die "expected 69 layout checks from BTF, found $n"
[ "$(grep -c 'check(mptcp' "$tmp/qaware_layout.h")" -eq 4 ] ||
	die "expected 4 bit-fields from BTF"
[ "$pad" = 0 ] || sed -i '/^struct mptcp_subflow_context {$/a\	u64 qa_layout_pad;' \
	"$tmp/net/mptcp/protocol.h"
# mptcp_sock's token is the one u32 member indented by two tabs
[ "$narrow" = 0 ] || sed -i 's/^\tu32\t\ttoken;$/\tu16\t\ttoken;/' \
	"$tmp/net/mptcp/protocol.h"
mv "$tmp/net/mptcp/protocol.h" "$tmp/net/mptcp/mib.h" "$tmp/qaware_layout.h" "$out/"
echo "$stamp" > "$out/.stamp"
