#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Drive a generic netlink family from its YAML spec with the kernel's ynl
# command line tool, taken from the linux-source tarball at run time.
#
#   scripts/ynl.sh --spec Documentation/netlink/specs/omware.yaml \
#           --do session-get --json '{"session-id": 1}'
#   scripts/ynl.sh --spec omware --dump session-get
#
# Every argument goes to ynl unchanged, except that a bare family name after
# --spec means Documentation/netlink/specs/<name>.yaml of this tree, and that
# the spec is validated against the kernel's schema for its protocol unless
# --schema or --no-schema is given.
#
# Environment: YNL_PYTHON (default /usr/bin/python3, which has python3-yaml
# and python3-jsonschema from apt; a python3 earlier in PATH may not).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
py=${YNL_PYTHON:-/usr/bin/python3}

src=$("$top/scripts/linux-src.sh")
cli=
for c in "$src/tools/net/ynl/cli.py" "$src/tools/net/ynl/pyynl/cli.py"; do
	[ -f "$c" ] && { cli=$c; break; }
done
[ -n "$cli" ] || { echo "ynl: no ynl cli.py under $src/tools/net/ynl" >&2; exit 1; }

args=()
spec=
have_schema=0
while [ $# -gt 0 ]; do
	case $1 in
	--spec)
		[ $# -ge 2 ] || { echo "ynl: --spec needs a value" >&2; exit 1; }
		spec=$2
		case $spec in
		*/* | *.yaml) ;;
		*) spec=$top/Documentation/netlink/specs/$spec.yaml ;;
		esac
		args+=(--spec "$spec")
		shift 2
		continue
		;;
	--schema | --schema=* | --no-schema)
		have_schema=1
		;;
	esac
	args+=("$1")
	shift
done

# Importing jsonschema alone costs ~25 s in an emulated guest: ask for it
# only when the spec is going to be validated.
need='import yaml'
case " ${args[*]} " in *" --no-schema "*) ;; *) need='import yaml, jsonschema' ;; esac
"$py" -c "$need" 2>/dev/null || {
	echo "ynl: $py lacks yaml or jsonschema (apt install python3-yaml python3-jsonschema)" >&2
	exit 1
}

# ynl looks for the schema next to the spec's directory, which holds only
# specs in this tree: point it at the kernel's copy.
if [ -n "$spec" ] && [ "$have_schema" -eq 0 ]; then
	[ -r "$spec" ] || { echo "ynl: cannot read spec $spec" >&2; exit 1; }
	proto=$(sed -n 's/^protocol:[[:space:]]*\([a-z-]*\).*/\1/p' "$spec" | head -n 1)
	args+=(--schema "$src/Documentation/netlink/${proto:-genetlink}.yaml")
fi

exec "$py" "$cli" "${args[@]}"
