#!/usr/bin/env bash
# Print "kvm" if a time-limited boot of KERNEL under KVM really works here,
# "tcg" otherwise.  /dev/kvm existing proves nothing (a paravirtual KVM may
# fail in the kernel's decompressor or hang), so boot once and cache the answer.
kernel=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=$top/.build/kvm-probe
if [ -f "$cache" ] && [ "$(head -n 1 "$cache")" = "$kernel $(uname -n)" ]; then
	tail -n 1 "$cache"
	exit 0
fi
mkdir -p "$top/.build"
verdict=tcg
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	if timeout -k 5 25 vng --run "$kernel" --cpus 1 --memory 512M \
		--exec "echo timewire-kvm-ok" </dev/null 2>&1 | grep -q timewire-kvm-ok; then
		verdict=kvm
	fi
fi
printf '%s\n%s\n' "$kernel $(uname -n)" "$verdict" > "$cache"
echo "$verdict"
