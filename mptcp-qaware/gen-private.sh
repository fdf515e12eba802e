#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The private MPTCP declarations mptcp_qaware.ko is compiled against, read
# from the target kernel's BTF ($KDIR/vmlinux) and written into OUT, a
# build directory (never the source tree; nothing here is committed):
#
#   OUT/btf-layout        btf-layout.c built against libbpf (host program)
#   OUT/qaware_layout.h   what it writes: mptcp_sock, mptcp_data_frag and
#                         mptcp_subflow_context with the members the module
#                         uses, each at BTF's offset; static asserts of
#                         them and of the scheduler API's structures of
#                         <net/mptcp.h>, which the kernel reads; the lists
#                         that layout.c checks at load against the running
#                         kernel's BTF, bit-fields included
#
# No kernel source is needed: only the headers package's BTF vmlinux.
# Usage: gen-private.sh OUT VERSION KDIR     (VERSION: 6.12.117)
#
# Modules that must refuse to load, for the tests (tests/qaware):
# QA_LAYOUT_SKEW=N moves every bit-field of the checked list N bits from
# where BTF has it; QA_LAYOUT_PAD=1 declares mptcp_subflow_context as if 8
# more bytes began it, as if built for another kernel; QA_LAYOUT_NARROW=1
# declares mptcp_sock.token as a u16 at its offset.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 OUT VERSION KDIR" >&2; exit 2; }
out=$1 want=$2 kdir=$3
here=$(dirname "$0")
hostcc=${HOSTCC:-cc}
opts=()
[ "${QA_LAYOUT_SKEW:-0}" = 0 ] || opts+=(-s "$QA_LAYOUT_SKEW")
[ "${QA_LAYOUT_PAD:-0}" = 0 ] || opts+=(-p mptcp_subflow_context)
[ "${QA_LAYOUT_NARROW:-0}" = 0 ] || opts+=(-n mptcp_sock.token)

die() { echo "mptcp_qaware: $*" >&2; exit 1; }

[ -r "$kdir/vmlinux" ] || die "$kdir/vmlinux missing: the private layout is \
read from the kernel's BTF (CONFIG_DEBUG_INFO_BTF)"
stamp="$want ${opts[*]} $(stat -L -c "%s %Y" "$kdir/vmlinux") \
$(cat "$0" "$here/btf-layout.c" | md5sum | cut -c1-12)"
[ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] && exit 0

pkg-config --exists libbpf 2>/dev/null || die "libbpf missing (libbpf-dev; \
make deps): the private layout is read from BTF with it"
mkdir -p "$out"
tmp=$(mktemp -d "$out/.x.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2046 # pkg-config's flags are words
"$hostcc" -O2 -Wall -Wextra -Wno-unused-parameter -Werror \
	$(pkg-config --cflags libbpf) -o "$tmp/btf-layout" "$here/btf-layout.c" \
	$(pkg-config --libs libbpf) || die "cannot build btf-layout against libbpf"

# The scheduler API's structures as VERSION's <net/mptcp.h> has them, the
# callbacks <tw/compat.h> fills: one get_subflow reading
# mptcp_sched_data's reinject before 6.15, get_send and get_retrans since
# (their mptcp_sched_data argument, gone in 6.16, is not read).
IFS=. read -r major minor _ <<< "$want"
sched_api=(=mptcp_sched_ops:get_send,get_retrans,name,owner,list,init,release)
[ $((major * 1000 + minor)) -ge 6015 ] ||
	sched_api=(=mptcp_sched_ops:get_subflow,name,owner,list,init,release
		   =mptcp_sched_data:reinject)

# Every member the module touches, and nothing more: what is not named
# here is unknown to it, however the kernel's configuration lays it out.
"$tmp/btf-layout" "${opts[@]}" "$kdir/vmlinux" "$want" \
	mptcp_sock:sk,conn_list,first,sched,write_seq,snd_nxt,snd_una,wnd_end,bytes_retrans,rtx_queue,first_pending,recovery,recovery_snd_nxt,token,snd_burst,timer_ival \
	mptcp_data_frag:list,data_seq,data_len,already_sent \
	mptcp_subflow_context:node,subflow_id,scheduled,fully_established,stale_rcv_tstamp,tcp_sock,request_join,request_bkup,backup,stale \
	"${sched_api[@]}" > "$tmp/qaware_layout.h"
mv "$tmp/btf-layout" "$tmp/qaware_layout.h" "$out/"
# what builds before this one copied from linux-source: never read again
rm -f "$out/protocol.h" "$out/mib.h"
echo "$stamp" > "$out/.stamp"
