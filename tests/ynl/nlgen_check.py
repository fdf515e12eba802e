#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write a C program that checks the tables nlgen.py made from SPEC.

  nlgen_check.py SPEC > check.c

The program, compiled with <family>.c from scripts/nlgen.py and the
hand-written UAPI header, checks that every attribute of every set has its
UAPI name at its type's index, the libnl policy type of its spec type, its
output key and its nested set, that nothing else is in the tables, and
that every enum entry has its word and value, in order.  It prints one
"wrong: ..." line per mismatch and exits 1 if there was one.
"""

import os
import sys

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'scripts'))
import nlgen  # noqa: E402  (the naming rules under test)

# What each spec type must become, written out apart from the generator.
EXPECTED_POLICY = {
    'pad': 'NLA_UNSPEC', 'flag': 'NLA_FLAG', 'string': 'NLA_STRING',
    'binary': 'NLA_BINARY', 'nest': 'NLA_NESTED', 'indexed-array': 'NLA_NESTED',
    'u8': 'NLA_U8', 's8': 'NLA_U8', 'u16': 'NLA_U16', 's16': 'NLA_U16',
    'u32': 'NLA_U32', 's32': 'NLA_U32', 'u64': 'NLA_U64', 's64': 'NLA_U64',
}

PROLOGUE = r'''#include <stdio.h>
#include <string.h>
#include "%s.h"

static int checks, failed;

static void check(int ok, const char *what)
{
	checks++;
	if (!ok) {
		printf("wrong: %%s\n", what);
		failed++;
	}
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Entries of a table indexed by type, 0..max. */
static unsigned int filled(const void *const *t, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i <= max; i++)
		n += t[i] != NULL;
	return n;
}

int main(void)
{
'''


def cstr(text):
    return nlgen.cstr(text)


def set_checks(fam, s):
    out = []
    name = f'{s.ident}_set'
    out.append(f'\tcheck({name}.max == {s.max}, "{name}.max is {s.max}");')
    out.append(f'\tcheck(filled((const void *const *){name}.names, {s.max}) == '
               f'{len(s.attrs)}, "{name}: {len(s.attrs)} names");')
    nests = 0
    for a in s.attrs:
        c = s.const(a)
        out.append(f'\tcheck(same({name}.names[{c}], "{c}"), "{c}: name");')
        out.append(f'\tcheck({s.ident}_policy[{c}].type == '
                   f'{EXPECTED_POLICY[a["type"]]}, "{c}: policy type '
                   f'{EXPECTED_POLICY[a["type"]]}");')
        key = 'NULL' if a['type'] == 'pad' else cstr(nlgen.c_lower(a['name']))
        out.append(f'\tcheck(same({s.ident}_keys[{c}], {key}), '
                   f'"{c}: key {key.strip(chr(34))}");')
        inner = a.get('nested-attributes')
        if inner:
            nests += 1
            target = f'&{fam.by_name[inner].ident}_set'
            out.append(f'\tcheck({name}.nests && {name}.nests[{c}] == '
                       f'{target}, "{c}: nested set {inner}");')
    if nests:
        out.append(f'\tcheck(filled((const void *const *){name}.nests, '
                   f'{s.max}) == {nests}, "{name}: {nests} nested sets");')
    else:
        out.append(f'\tcheck(!{name}.nests, "{name}: no nested sets");')
    return out


def enum_checks(e):
    out = []
    for i, entry in enumerate(e.entries):
        c = e.const(entry)
        out.append(f'\tcheck(same({e.ident}[{i}].name, "{entry}") && '
                   f'{e.ident}[{i}].value == {c}, "{e.ident}: {entry} {c}");')
    n = len(e.entries)
    out.append(f'\tcheck(!{e.ident}[{n}].name, "{e.ident}: ends after {n}");')
    return out


def main():
    with open(sys.argv[1], encoding='utf-8') as f:
        fam = nlgen.Family(yaml.safe_load(f))
    lines = [PROLOGUE % fam.ident]
    for s in fam.sets:
        lines += set_checks(fam, s)
    for e in fam.enums:
        lines += enum_checks(e)
    lines += ['\tprintf("%d checks, %d wrong\\n", checks, failed);',
              '\treturn failed != 0;', '}']
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
