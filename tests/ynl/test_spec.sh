#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host test: every spec in Documentation/netlink/specs/ is a valid genetlink
# spec, renders into a UAPI header equal (names and values) to the
# hand-written one in include/uapi/, and follows the project's conventions.
#
# The kernel's ynl code generator validates a spec against the schema of its
# protocol on load; rendering the UAPI header with it therefore checks both.
# It finds the schema at ../<protocol>.yaml from the spec's directory and the
# tree root by a MAINTAINERS file, so each spec is checked in a scratch tree
# shaped like the kernel's.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/ynl/gen_lib.sh
. "$here/gen_lib.sh"
need_python yaml jsonschema
need_cc
need_ynl
gen=$src/tools/net/ynl/ynl-gen-c.py
check=$here/spec_check.py

mkdir -p "$work/tree/Documentation/netlink/specs"
touch "$work/tree/MAINTAINERS"
for s in "$src"/Documentation/netlink/*.yaml; do
	ln -s "$s" "$work/tree/Documentation/netlink/"
done

# render SPEC OUT: validate SPEC and render its UAPI header into OUT.
render() {
	local copy
	copy=$work/tree/Documentation/netlink/specs/$(basename "$1")
	cp "$1" "$copy"
	# The generator loops forever when no MAINTAINERS is found: bound it.
	timeout 60 "$py" "$gen" --mode uapi --header --spec "$copy" -o "$2" \
		>"$work/render.log" 2>&1
	local rc=$?
	rm -f "$copy"
	# Show why, not the generator's traceback and schema dump.
	[ $rc -eq 0 ] || grep -m 3 -E '(Error|Exception)[:(]|^On instance' \
		"$work/render.log" | sed 's/^/# /'
	return $rc
}

cmp_uapi() {	# cmp_uapi SPEC GENERATED
	local hdr
	hdr=$("$py" "$check" uapi-header "$1") || return 1
	if [ ! -f "$top/include/uapi/$hdr" ]; then
		tap_diag "no include/uapi/$hdr"
		return 1
	fi
	"$py" "$check" cmp-uapi "$2" "$top/include/uapi/$hdr" 2>"$work/cmp.log"
	local rc=$?
	sed 's/^/# /' "$work/cmp.log"
	return $rc
}

lint() {
	"$py" "$check" lint "$1" 2>"$work/lint.log"
	local rc=$?
	sed 's/^/# /' "$work/lint.log"
	return $rc
}

quiet() { "$@" >/dev/null 2>&1; }

tap_plan $((3 * ${#specs[@]} + 5))

for spec in "${specs[@]}"; do
	name=$(basename "$spec" .yaml)
	out=$work/$name.h
	if render "$spec" "$out"; then
		tap_result 0 "$name: valid against the schema, UAPI header rendered"
		tap_ok "$name: rendered header matches include/uapi" cmp_uapi "$spec" "$out"
	else
		tap_result 1 "$name: valid against the schema, UAPI header rendered"
		tap_result 1 "$name: rendered header matches include/uapi"
	fi
	tap_ok "$name: project conventions" lint "$spec"
done

# The checks above must be able to fail: feed them broken specs.
ref=$top/Documentation/netlink/specs/omware.yaml
bad=$work/bad/omware.yaml

# mutate HOW: write a broken copy of the omware spec to $bad.
mutate() {
	mkdir -p "$work/bad"
	"$py" - "$ref" "$bad" "$1" <<'EOF'
import sys
import yaml
src, dst, how = sys.argv[1:]
with open(src, encoding='utf-8') as f:
    first = f.readline()
    y = yaml.safe_load(f)
if how == 'unknown-key':
    y['no-such-key'] = 1
elif how == 'drop-attr':
    aset = [s for s in y['attribute-sets'] if s['name'] == 'stats'][0]
    aset['attributes'] = [a for a in aset['attributes'] if a['name'] != 'late']
elif how == 'no-admin':
    op = [o for o in y['operations']['list'] if o['name'] == 'flush'][0]
    del op['flags']
elif how == 'bare-number':
    aset = [s for s in y['attribute-sets'] if s['name'] == 'pkt'][0]
    frame = [a for a in aset['attributes'] if a['name'] == 'frame'][0]
    frame['checks']['min-len'] = 14
elif how == 'wrong-system-const':
    const = [d for d in y['definitions'] if d['name'] == 'eth-hlen'][0]
    const['value'] = 18
with open(dst, 'w', encoding='utf-8') as f:
    f.write(first)
    yaml.safe_dump(y, f, sort_keys=False)
EOF
}

if [ -f "$ref" ]; then
	mutate unknown-key
	tap_not "a spec with an unknown key is rejected" \
		quiet render "$bad" "$work/bad.h"

	# Later values shift: the header must disagree.
	mutate drop-attr
	if render "$bad" "$work/bad.h"; then
		tap_not "a spec missing an attribute disagrees with the header" \
			quiet cmp_uapi "$bad" "$work/bad.h"
	else
		tap_result 1 "a spec missing an attribute disagrees with the header"
	fi

	mutate no-admin
	tap_not "a state-changing operation without admin-perm is refused" \
		quiet lint "$bad"

	mutate bare-number
	tap_not "a number written bare in a check, not named, is refused" \
		quiet lint "$bad"

	mutate wrong-system-const
	tap_not "a constant of a system header with another value is refused" \
		quiet lint "$bad"
else
	for t in "a spec with an unknown key is rejected" \
		"a spec missing an attribute disagrees with the header" \
		"a state-changing operation without admin-perm is refused" \
		"a number written bare in a check, not named, is refused" \
		"a constant of a system header with another value is refused"; do
		tap_skip "$t" "no omware spec"
	done
fi

tap_done
