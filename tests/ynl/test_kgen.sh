#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host test: each module's kernel netlink tables, <dir>/netlink-gen.[ch],
# are exactly what scripts/nlgen-kernel.sh generates from its family's
# spec, and every operation they register has a policy (genetlink in 6.12
# neither parses nor checks the attributes of an operation without one).
# Then the checks are shown able to fail: a spec changed, a generated file
# edited by hand, an operation without a policy, a generator other than the
# pinned one.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/ynl/gen_lib.sh
. "$here/gen_lib.sh"
need_python yaml jsonschema
need_ynl

# gen SPEC OUT: generate SPEC's tables into OUT.
gen() { "$top/scripts/nlgen-kernel.sh" --spec "$1" -o "$2" > "$log" 2>&1; }

# same GENERATED COMMITTED: both files of the module are identical.
same() {
	local f rc=0
	for f in netlink-gen.c netlink-gen.h; do
		diff -u "$2/$f" "$1/$f" >> "$log" 2>&1 || rc=1
	done
	return $rc
}

# all_ops_have_policy FILE: every entry of the split-op table names a
# policy and a maxattr.
all_ops_have_policy() {
	awk '/_nl_ops\[[0-9]*\] = \{/ { table = 1; next }
	     table && /^};/ { table = 0 }
	     table && /^\t\{/ { ops++; pol = 0; max = 0 }
	     table && /\.policy\t/ { pol = 1 }
	     table && /\.maxattr\t/ { max = 1 }
	     table && /^\t\},/ { if (pol && max) good++
				 else print "op without a policy, entry " ops }
	     END { if (!ops) print "no op table"; exit !(ops && ops == good) }' \
		"$1" >> "$log" 2>&1
}

# mutate HOW SPEC OUT: write a changed copy of SPEC to OUT.
mutate() {
	"$py" - "$1" "$2" "$3" <<'EOF'
import sys
import yaml
how, src, dst = sys.argv[1:]
with open(src, encoding='utf-8') as f:
    first = f.readline()
    y = yaml.safe_load(f)
ops = {o['name']: o for o in y['operations']['list']}
if how == 'range':
    aset = [s for s in y['attribute-sets'] if s['name'] == 'pkt'][0]
    frame = [a for a in aset['attributes'] if a['name'] == 'frame'][0]
    frame['checks']['min-len'] = 60
elif how == 'no-request':
    del ops['stats-get']['do']['request']
with open(dst, 'w', encoding='utf-8') as f:
    f.write(first)
    yaml.safe_dump(y, f, sort_keys=False)
EOF
}

mapfile -t modules < <(tw_modules_table)
tap_plan $((2 * ${#modules[@]} + 7))

for m in "${modules[@]}"; do
	read -r _ dir family _ <<< "$m"
	out=$work/gen/$dir
	: > "$log"
	if gen "$top/Documentation/netlink/specs/$family.yaml" "$out"; then
		same "$out" "$top/$dir"
		rc=$?
		show
		tap_result $rc "$dir: netlink-gen.[ch] are what $family.yaml generates"
		: > "$log"
		all_ops_have_policy "$top/$dir/netlink-gen.c"
		rc=$?
		show
		tap_result $rc "$dir: every operation has a policy"
	else
		show
		tap_result 1 "$dir: netlink-gen.[ch] are what $family.yaml generates"
		tap_result 1 "$dir: every operation has a policy"
	fi
done

spec=$top/Documentation/netlink/specs/omware.yaml
ref=$work/gen/omware
if [ -f "$spec" ] && [ -f "$ref/netlink-gen.c" ]; then
	# The fixes scripts/ynl-gen-kernel.py makes to the 6.12 generator.
	tap_ok "a binary min-len check is NLA_POLICY_MIN_LEN, not an NLA_UNSPEC entry" \
		grep -q '\[OMWARE_PKT_A_FRAME\] = NLA_POLICY_MIN_LEN(ETH_HLEN),' \
		"$ref/netlink-gen.c"
	tap_ok "a big-endian u16 is NLA_BE16, its range checked in network order" \
		grep -q '\[OMWARE_PKT_A_PROTO\] = NLA_POLICY_MIN(NLA_BE16, ETH_P_802_3_MIN),' \
		"$ref/netlink-gen.c"
	# Three constants of the spec come from <linux/if_ether.h>.
	tap_ok "a header several constants come from is included once" \
		test "$(grep -c '^#include <linux/if_ether.h>$' "$ref/netlink-gen.h")" -eq 1

	mutate range "$spec" "$work/range.yaml"
	: > "$log"
	if gen "$work/range.yaml" "$work/range"; then
		tap_not "a changed check in the spec changes the generated policy" \
			same "$work/range" "$top/omware"
	else
		show
		tap_result 1 "a changed check in the spec changes the generated policy"
	fi

	mkdir -p "$work/hand"
	cp "$ref"/netlink-gen.[ch] "$work/hand/"
	sed -i '0,/GENL_ADMIN_PERM | /s///' "$work/hand/netlink-gen.c"
	tap_not "a generated file edited by hand is reported" \
		same "$ref" "$work/hand"

	mutate no-request "$spec" "$work/no-request.yaml"
	: > "$log"
	if gen "$work/no-request.yaml" "$work/no-request"; then
		tap_not "an operation without a policy is reported" \
			all_ops_have_policy "$work/no-request/netlink-gen.c"
	else
		show
		tap_result 1 "an operation without a policy is reported"
	fi

	# Another generator than the pinned one is refused.
	mkdir -p "$work/ynl"
	cp -r "$src/tools/net/ynl/lib" "$work/ynl/"
	cp "$src/tools/net/ynl/ynl-gen-c.py" "$work/ynl/"
	echo "# changed" >> "$work/ynl/ynl-gen-c.py"
	timeout 60 "$py" "$top/scripts/ynl-gen-kernel.py" "$work/ynl" \
		--mode kernel --source --spec "$spec" -o "$work/unpinned.c" \
		> "$log" 2>&1
	rc=$?
	refused() {
		test $rc -ne 0 -a ! -e "$work/unpinned.c" &&
			grep -q 'is not the pinned version' "$log"
	}
	refused || show
	tap_ok "a generator other than the pinned one is refused" refused
else
	for t in "a binary min-len check is NLA_POLICY_MIN_LEN, not an NLA_UNSPEC entry" \
		"a big-endian u16 is NLA_BE16, its range checked in network order" \
		"a header several constants come from is included once" \
		"a changed check in the spec changes the generated policy" \
		"a generated file edited by hand is reported" \
		"an operation without a policy is reported" \
		"a generator other than the pinned one is refused"; do
		tap_skip "$t" "no omware spec or tables"
	done
fi

tap_done
