#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Checks for timewire's netlink specs that the kernel's ynl tools lack.

  spec_check.py uapi-header SPEC
      print the path of the UAPI header SPEC describes, relative to
      include/uapi/ (the spec's uapi-header, or linux/<name>.h)
  spec_check.py cmp-uapi GENERATED REFERENCE
      compare a header rendered from a spec with the hand-written UAPI
      header: same enum tags, same enumerator and define names, same values
  spec_check.py lint SPEC
      project conventions: admin-perm on every state-changing operation,
      a pad attribute in every attribute set holding 64-bit scalars, a doc
      string on every operation and non-pad attribute, no number but 0 and
      1 written bare in checks (a definition names it), and every constant
      taken from a system header (header:) of the value that header gives

Exit status 0 when the check passes, 1 when it fails (reasons on stderr).
"""

import os
import re
import subprocess
import sys
import tempfile

import yaml

IDENT = r'[A-Za-z_][A-Za-z0-9_]*'


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def header_names(path):
    """Return (enum tags, {enumerator: tag}, {define: body}) of a header."""
    with open(path, encoding='utf-8') as f:
        text = strip_comments(f.read())

    tags = set()
    members = {}
    for m in re.finditer(r'\benum\s+(' + IDENT + r')?\s*\{(.*?)\}', text, re.S):
        tag = m.group(1) or ''
        if tag:
            tags.add(tag)
        for item in m.group(2).split(','):
            item = item.strip()
            if not item:
                continue
            name = re.match(IDENT, item)
            if not name:
                raise ValueError(f'{path}: cannot parse enumerator "{item}"')
            members[name.group(0)] = tag

    defines = {}
    for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(' + IDENT + r')(.*)$',
                         text, re.M):
        defines[m.group(1)] = m.group(2).strip()

    # The include guard carries no meaning of its own.
    guard = re.search(r'#\s*ifndef\s+(' + IDENT + r')\s*\n\s*#\s*define\s+\1\b',
                      text)
    if guard:
        defines.pop(guard.group(1), None)
    return tags, members, defines


def header_values(path, names):
    """Evaluate integer constants by compiling a program against the header."""
    return values_of([f'"{os.path.abspath(path)}"'], names)


def values_of(includes, names):
    """Evaluate integer constants of the headers ("x.h" or <x.h>)."""
    if not names:
        return {}
    src = ['#include <stdio.h>'] + [f'#include {h}' for h in includes]
    src += ['int main(void)', '{']
    for n in sorted(names):
        src.append(f'\tprintf("%s %lld\\n", "{n}", (long long)({n}));')
    src += ['\treturn 0;', '}']
    cc = os.environ.get('CC', 'cc')
    with tempfile.TemporaryDirectory() as tmp:
        c_file = os.path.join(tmp, 'values.c')
        exe = os.path.join(tmp, 'values')
        with open(c_file, 'w', encoding='utf-8') as f:
            f.write('\n'.join(src) + '\n')
        subprocess.run([cc, '-std=gnu11', '-Wall', '-Werror', '-o', exe, c_file],
                       check=True)
        out = subprocess.run([exe], check=True, capture_output=True,
                             text=True).stdout
    return {k: int(v) for k, v in (line.split() for line in out.splitlines())}


def cmp_uapi(generated, reference):
    errors = []
    g_tags, g_members, g_defs = header_names(generated)
    r_tags, r_members, r_defs = header_names(reference)

    for tag in sorted(g_tags ^ r_tags):
        where = 'spec' if tag in g_tags else 'header'
        errors.append(f'enum {tag} exists only in the {where}')

    # String defines (the family name) are compared as written.
    g_str = {k: v for k, v in g_defs.items() if v.startswith('"')}
    r_str = {k: v for k, v in r_defs.items() if v.startswith('"')}
    for k in sorted(set(g_str) | set(r_str)):
        if g_str.get(k) != r_str.get(k):
            errors.append(f'{k}: spec {g_str.get(k)} header {r_str.get(k)}')

    g_names = (set(g_members) | set(g_defs)) - set(g_str)
    r_names = (set(r_members) | set(r_defs)) - set(r_str)
    g_vals = header_values(generated, g_names)
    r_vals = header_values(reference, r_names)

    for n in sorted(g_names - r_names):
        errors.append(f'{n} = {g_vals[n]} exists only in the spec')
    for n in sorted(r_names - g_names):
        # ynl numbers attributes and commands from 1 and leaves 0 implicit.
        if n.endswith('_UNSPEC') and r_vals[n] == 0:
            continue
        errors.append(f'{n} = {r_vals[n]} exists only in the header')
    for n in sorted(g_names & r_names):
        if g_vals[n] != r_vals[n]:
            errors.append(f'{n}: spec {g_vals[n]} header {r_vals[n]}')
    # An enumerator must belong to the same enum in both.
    for n in sorted(set(g_members) & set(r_members)):
        if g_members[n] != r_members[n]:
            errors.append(f'{n}: in enum {g_members[n] or "(anonymous)"} '
                          f'of the spec, enum {r_members[n] or "(anonymous)"} '
                          'of the header')
    return errors


def load(spec):
    with open(spec, encoding='utf-8') as f:
        return yaml.safe_load(f)


def bare_checks(y):
    """Numbers a check writes instead of naming a definition."""
    errors = []
    for aset in y.get('attribute-sets', []):
        for a in aset['attributes']:
            for check, v in a.get('checks', {}).items():
                if isinstance(v, int) and not isinstance(v, bool) and \
                   v not in (0, 1):
                    errors.append(f"attribute {aset['name']}.{a['name']}: "
                                  f'{check} {v} is a bare number: name a '
                                  'definition')
    return errors


def system_consts(y):
    """Constants taken from a system header, against that header."""
    consts = [d for d in y.get('definitions', [])
              if d['type'] == 'const' and 'header' in d]
    names = {d['name'].upper().replace('-', '_'): d for d in consts}
    got = values_of(sorted({f"<{d['header']}>" for d in consts}), names)
    return [f"constant {d['name']}: {d['value']} in the spec, {got[n]} in "
            f"<{d['header']}>" for n, d in sorted(names.items())
            if got[n] != d['value']]


def lint(spec):
    y = load(spec)
    errors = bare_checks(y) + system_consts(y)
    for aset in y.get('attribute-sets', []):
        if 'subset-of' in aset:
            continue
        types = [a.get('type') for a in aset['attributes']]
        if {'u64', 's64'} & set(types) and 'pad' not in types:
            errors.append(f"attribute set {aset['name']}: 64-bit attributes "
                          'but no pad attribute')
        for a in aset['attributes']:
            if a.get('type') not in ('pad', 'unused') and not a.get('doc'):
                errors.append(f"attribute {aset['name']}.{a['name']}: no doc")
    for op in y['operations']['list']:
        if not op.get('doc'):
            errors.append(f"operation {op['name']}: no doc")
        if 'do' not in op and 'dump' not in op:
            continue
        # Reads are named *-get; everything else changes state.
        if not op['name'].endswith('-get') and \
           'admin-perm' not in op.get('flags', []):
            errors.append(f"operation {op['name']} changes state but lacks "
                          'admin-perm')
    return errors


def main(argv):
    if len(argv) == 3 and argv[1] == 'uapi-header':
        y = load(argv[2])
        print(y.get('uapi-header', f"linux/{y['name'].replace('-', '_')}.h"))
        return 0
    if len(argv) == 4 and argv[1] == 'cmp-uapi':
        errors = cmp_uapi(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == 'lint':
        errors = lint(argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
