#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Run the kernel's ynl-gen-c.py, in the version pinned here, with fixes.

  ynl-gen-kernel.py YNL_DIR ARG...

YNL_DIR is tools/net/ynl of linux-source-6.12 (scripts/linux-src.sh
extracts it); the ARGs go to ynl-gen-c.py unchanged.  What it generates is
committed, so the generator and the spec library it reads must be the
pinned ones: another version may render the same spec differently.  Use
scripts/nlgen-kernel.sh rather than this directly.

The fixes, of what the 6.12 generator gets wrong and later kernels'
generators get right:
  - a binary attribute's min-len check is "{ .len = N, }", an NLA_UNSPEC
    entry, which strict validation refuses whatever its length: it becomes
    NLA_POLICY_MIN_LEN(N);
  - a big-endian u16 or u32 is NLA_U16 or NLA_U32, whose range the kernel
    then checks on the value read in host byte order: it becomes NLA_BE16
    or NLA_BE32;
  - a header that several constants of the spec come from (header: in
    definitions) is included once per constant: it is included once.
"""

import hashlib
import importlib.util
import os
import sys

# sha256 of the files of Debian's linux-source-6.12 (6.12.117-1~deb12u1).
PINNED = {
    'ynl-gen-c.py':
        'd88cad40c9a015e2e1cc84d3f4f5a6b2aa97ed210af78c9b99b8dd5a1dd9fe84',
    'lib/nlspec.py':
        'f12d9e54740ffa061d55836432d36dee2f7794a941a32fa92b58a30823176648',
}


def check_pin(ynl_dir):
    for rel, want in PINNED.items():
        path = os.path.join(ynl_dir, rel)
        with open(path, 'rb') as f:
            got = hashlib.sha256(f.read()).hexdigest()
        if got != want:
            sys.exit(f'ynl-gen-kernel: {path} is not the pinned version '
                     f'(sha256 {got}): check what it generates, then pin it '
                     f'in {__file__}')


def load_generator(ynl_dir):
    # The generator imports its spec library as "lib", from its directory.
    sys.path.insert(0, ynl_dir)
    spec = importlib.util.spec_from_file_location(
        'ynl_gen_c', os.path.join(ynl_dir, 'ynl-gen-c.py'))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


def fix_binary_min_len(gen):
    render = gen.TypeBinary._attr_policy

    def attr_policy(self, policy):
        if list(self.checks) == ['min-len']:
            return f"NLA_POLICY_MIN_LEN({self.get_limit_str('min-len')})"
        return render(self, policy)

    gen.TypeBinary._attr_policy = attr_policy


def fix_big_endian(gen):
    render = gen.TypeScalar._attr_policy

    def attr_policy(self, policy):
        if self.attr.get('byte-order') == 'big-endian' and \
           self.type in ('u16', 'u32'):
            policy = 'NLA_BE' + self.type[1:]
        return render(self, policy)

    gen.TypeScalar._attr_policy = attr_policy


def fix_repeated_include(gen):
    write = gen.CodeWriter.p

    def p(self, line, add_ind=0):
        if line.startswith('#include <'):
            seen = self.__dict__.setdefault('tw_included', set())
            if line in seen:
                return
            seen.add(line)
        write(self, line, add_ind)

    gen.CodeWriter.p = p


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    ynl_dir = sys.argv[1]
    check_pin(ynl_dir)
    gen = load_generator(ynl_dir)
    fix_binary_min_len(gen)
    fix_big_endian(gen)
    fix_repeated_include(gen)
    sys.argv = [os.path.join(ynl_dir, 'ynl-gen-c.py')] + sys.argv[2:]
    # The output file is written when main()'s writer goes away.
    gen.main()
    return 0


if __name__ == '__main__':
    sys.exit(main())
