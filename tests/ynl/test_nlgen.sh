#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host test: the userspace tables scripts/nlgen.py generates from every spec
# compile against the hand-written UAPI header, and hold every attribute's
# name, policy type, key and nested set and every enum entry's word
# (tests/ynl/nlgen_check.py writes the checking program).  Then the checks
# are shown able to fail: a table changed by hand, and a spec naming an
# attribute the header lacks.  Last, the module registry: each module has its
# Kbuild, and every other piece of it carries its family's name (spec, UAPI
# header, client library, CLI object, man page, guest suite, fuzzer recipe,
# documentation page); the CLI's modules.h (scripts/modules-gen.sh) lists
# exactly the registry.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/ynl/gen_lib.sh
. "$here/gen_lib.sh"
need_python yaml
need_cc
nl_flags=$(pkg-config --cflags --libs libnl-genl-3.0 2>/dev/null) ||
	tap_fail_all "libnl-genl-3.0 not found: run make deps (libnl-genl-3-dev)"

# struct tw_keyword comes from the CLI library's args.h; a stand-in when
# this tree has none.
mkdir -p "$work/stub"
printf 'struct tw_keyword {\n\tconst char *name;\n\tint value;\n};\n' > "$work/stub/args.h"

# build SPEC DIR: generate into DIR and link DIR/check against the tables.
build() {
	local fam
	fam=$(basename "$1" .yaml)
	"$py" "$top/scripts/nlgen.py" --out-dir "$2" "$1" > "$log" 2>&1 &&
	"$py" "$here/nlgen_check.py" "$1" > "$2/check.c" 2>> "$log" &&
	link "$2" "$fam"
}

link() {	# link DIR FAMILY: DIR/check from check.c and FAMILY.c
	# shellcheck disable=SC2086	# pkg-config's flags are words
	"$cc" -Wall -Wextra -Werror -I"$1" -I"$top/userspace/lib" \
		-I"$top/userspace" -I"$work/stub" -I"$top/include/uapi" \
		-o "$1/check" "$1/check.c" "$1/$2.c" $nl_flags >> "$log" 2>&1
}

# run DIR: the checks pass.
run() { "$1/check" > "$log" 2>&1; }

mapfile -t modules < <(tw_modules_table)
tap_plan $((2 * ${#specs[@]} + 3 + ${#modules[@]}))

for spec in "${specs[@]}"; do
	name=$(basename "$spec" .yaml)
	dir=$work/$name
	if build "$spec" "$dir"; then
		tap_result 0 "$name: generated tables compile against include/uapi"
		run "$dir"
		rc=$?
		show
		tap_result $rc "$name: every attribute's name, policy type, key and nest, every enum word"
	else
		show
		tap_result 1 "$name: generated tables compile against include/uapi"
		tap_result 1 "$name: every attribute's name, policy type, key and nest, every enum word"
	fi
done

ref=$top/Documentation/netlink/specs/omware.yaml
if [ -f "$ref" ]; then
	# A policy type changed by hand in the generated file is caught.
	dir=$work/hand
	build "$ref" "$dir"
	sed -i '0,/NLA_U64/s//NLA_U32/' "$dir/omware.c"
	: > "$log"
	if link "$dir" omware; then
		tap_not "a generated policy type edited by hand is reported" run "$dir"
	else
		show
		tap_result 1 "a generated policy type edited by hand is reported"
	fi

	# An attribute the UAPI header does not define cannot be generated.
	mkdir -p "$work/bad"
	"$py" - "$ref" "$work/bad/omware.yaml" <<'PY'
import sys
import yaml
with open(sys.argv[1], encoding='utf-8') as f:
    y = yaml.safe_load(f)
stats = [s for s in y['attribute-sets'] if s['name'] == 'stats'][0]
stats['attributes'].append({'name': 'no-such-counter', 'type': 'u64'})
with open(sys.argv[2], 'w', encoding='utf-8') as f:
    yaml.safe_dump(y, f, sort_keys=False)
PY
	tap_not "a spec attribute missing from the UAPI header fails the build" \
		build "$work/bad/omware.yaml" "$work/bad/gen"
else
	tap_skip "a generated policy type edited by hand is reported" "no omware spec"
	tap_skip "a spec attribute missing from the UAPI header fails the build" "no omware spec"
fi

# module_pieces DIR FAMILY: the files a module of the registry is made of,
# each named after its family; the missing ones as diagnostics.
module_pieces() {
	local dir=$1 f=$2 p missing=0

	for p in "$dir/Kbuild" "Documentation/netlink/specs/$f.yaml" \
		 "include/uapi/linux/$f.h" "userspace/$f/" "userspace/timewire/$f.c" \
		 "man/timewire-$f.8" "tests/$f/settings" "tests/nlfuzz/nlfuzz_$f.c" \
		 "Documentation/$f.rst"; do
		[ -e "$top/$p" ] || { tap_diag "no $p"; missing=1; }
	done
	return $missing
}
for m in "${modules[@]}"; do
	read -r name dir family _ <<< "$m"
	tap_ok "registry: $name has $dir/Kbuild and its pieces named $family" \
		module_pieces "$dir" "$family"
done

# The TW_MODULE() lines, printed back, must give every module of the
# registry: name, family, object file and summary.
registry_header() {
	"$top/scripts/modules-gen.sh" "$work/modules.h" &&
	printf '%s\n' '#include <stdio.h>' 'int main(void)' '{' \
		'#define TW_MODULE(n, f, ko, s) printf("%s %s %s %s\n", #n, f, ko, s);' \
		'#include "modules.h"' '	return 0;' '}' > "$work/modules.c" &&
	"$cc" -Wall -Werror -I"$work" -o "$work/modules" "$work/modules.c" &&
	diff <(tw_modules_table | awk '{ $2 = $3; $3 = $1 ".ko"; print }') \
		<("$work/modules")
}
tap_ok "registry: modules.h holds one TW_MODULE line per module" registry_header
tap_done
