#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare a genetlink spec with what the running kernel advertises.

  policy_check.py SPEC

Asks the kernel's nlctrl family (through the ynl library) for the family
named in SPEC, its operations and its attribute policies, and checks:
  - every do/dump operation of the spec exists with the same handlers and
    the same admin-perm flag, and the kernel has no operation the spec lacks;
  - the family version and its highest attribute agree;
  - every do and dump of an operation has a policy: without one, genetlink
    neither parses nor validates a request's attributes, so none is ever
    refused (an operation that takes none lists pad alone in the spec, and
    its generated policy refuses them all);
  - every attribute the kernel validates is defined in the spec with the same
    type, the same integer range and the same length limits, down through
    nested policies, and every request attribute of an operation is accepted
    by the policy of that operation.
A limit the kernel's policy dump cannot show (NLA_POLICY_MIN_LEN and
NLA_POLICY_MAX_LEN of binary attributes) is reported, not failed.

Exit status 0 when they agree, 1 when not, 4 when the family is not
registered.  Run by tests/ynl/test_ynl_omware.sh in the guest.
"""

import sys

from ynl_env import load_family

INT_BITS = {'u8': 8, 'u16': 16, 'u32': 32, 'u64': 64, 'uint': 64,
            's8': 8, 's16': 16, 's32': 32, 's64': 64, 'sint': 64}
KERNEL_TYPE = {'string': 'nul-string', 'binary': 'binary', 'nest': 'nested',
               'flag': 'flag', 'indexed-array': 'nested-array',
               'bitfield32': 'bitfield32'}


class Checker:
    def __init__(self, spec):
        self.spec = spec
        self.errors = []
        self.notes = []

    def err(self, msg):
        self.errors.append(msg)

    def limit(self, value):
        """Resolve a spec limit: a number, a constant or u32-max style."""
        if isinstance(value, int):
            return value
        if value in self.spec.consts:
            return self.spec.consts[value]['value']
        kind, _, end = value.rpartition('-')
        bits = INT_BITS[kind]
        if kind[0] == 'u':
            return (1 << bits) - 1 if end == 'max' else 0
        return (1 << (bits - 1)) - 1 if end == 'max' else -(1 << (bits - 1))

    def int_range(self, attr):
        t = attr['type']
        bits = INT_BITS[t]
        lo, hi = (0, (1 << bits) - 1) if t[0] == 'u' else \
            (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
        checks = attr.yaml.get('checks', {})
        if 'enum' in attr.yaml:
            values = [e.value for e in self.spec.consts[attr['enum']].entries.values()]
            lo, hi = min(values), max(values)
        if 'min' in checks:
            lo = self.limit(checks['min'])
        if 'max' in checks:
            hi = self.limit(checks['max'])
        return lo, hi

    def int_mask(self, attr):
        """The flags mask the kernel should check, None for a range."""
        checks = attr.yaml.get('checks', {})
        if 'flags-mask' in checks:
            return self.spec.consts[checks['flags-mask']].get_mask()
        if 'enum' in attr.yaml:
            enum = self.spec.consts[attr['enum']]
            if enum.type == 'flags' or attr.yaml.get('enum-as-flags'):
                return enum.get_mask(as_flags=True)
        return None

    def cmp_attr(self, where, attr, pol, policies, seen):
        # The 6.12 nlctrl spec swaps the values of mask and pad: a u64 that
        # decodes as "pad" is the mask.
        if 'mask' not in pol and isinstance(pol.get('pad'), bytes) and \
           len(pol['pad']) == 8:
            pol['mask'] = int.from_bytes(pol.pop('pad'), sys.byteorder)
        t = attr['type']
        if t in INT_BITS:
            want_type = t
        else:
            want_type = KERNEL_TYPE.get(t, t)
            if t == 'string' and attr.yaml.get('checks', {}).get('unterminated-ok'):
                want_type = 'string'
        if pol.get('type') != want_type:
            self.err(f"{where}: kernel type {pol.get('type')}, spec {t}")
            return

        checks = attr.yaml.get('checks', {})
        if t in INT_BITS:
            want_mask = self.int_mask(attr)
            if want_mask is not None or 'mask' in pol:
                if pol.get('mask') != want_mask:
                    self.err(f"{where}: kernel mask {pol.get('mask')}, "
                             f"spec {want_mask}")
                return
            sign = 'u' if t[0] == 'u' else 's'
            got = (pol.get(f'min-value-{sign}'), pol.get(f'max-value-{sign}'))
            want = self.int_range(attr)
            if got != want:
                self.err(f"{where}: kernel range {got[0]}..{got[1]}, "
                         f"spec {want[0]}..{want[1]}")
        elif t in ('string', 'binary'):
            lo = checks.get('exact-len', checks.get('min-len'))
            hi = checks.get('exact-len', checks.get('max-len'))
            lo = None if lo is None else self.limit(lo)
            hi = None if hi is None else self.limit(hi)
            k_lo, k_hi = pol.get('min-length'), pol.get('max-length')
            if k_lo is not None and k_lo != lo:
                self.err(f"{where}: kernel min length {k_lo}, spec {lo}")
            if k_hi is not None and k_hi != hi:
                self.err(f"{where}: kernel max length {k_hi}, spec {hi}")
            if 'exact-len' in checks and (k_lo is None or k_hi is None):
                self.err(f"{where}: spec exact-len {lo}, kernel shows "
                         f"min {k_lo} max {k_hi}")
            for k, s, name in ((k_lo, lo, 'min'), (k_hi, hi, 'max')):
                if k is None and s is not None and 'exact-len' not in checks:
                    self.notes.append(f"{where}: spec {name} length {s} not "
                                      'visible in the policy dump')
                if k is None and s is None and t == 'string' and name == 'max':
                    self.notes.append(f"{where}: string without a length limit")
        elif t == 'nest' and 'policy-idx' in pol:
            sub = self.spec.attr_sets[attr['nested-attributes']]
            self.cmp_policy(where, sub, pol['policy-idx'], policies, seen)

    def cmp_policy(self, where, attr_set, idx, policies, seen):
        if (attr_set.name, idx) in seen:
            return
        seen.add((attr_set.name, idx))
        for attr_id, pol in sorted(policies.get(idx, {}).items()):
            attr = attr_set.attrs_by_val.get(attr_id)
            if attr is None:
                self.err(f"{where}: kernel validates attribute {attr_id}, "
                         f"unknown to set {attr_set.name}")
                continue
            self.cmp_attr(f"{where} {attr_set.name}.{attr.name}", attr, pol,
                          policies, seen)


def kernel_view(ctrl, name):
    fam = ctrl.do('getfamily', {'family-name': name})
    ops = {}
    for item in fam.get('ops', []):
        op = list(item.values())[0] if 'id' not in item else item
        ops[op['id']] = set(op.get('flags', set()))
    return fam, ops


def op_policies(ctrl, name, cmd):
    """Policies of one command: ({mode: index}, {index: {attr: policy}}).

    Asked for one command at a time: some kernels mislabel dump-only
    commands in a whole-family policy dump.
    """
    policies = {}
    modes = {}
    for msg in ctrl.dump('getpolicy', {'family-name': name, 'op': cmd}):
        if 'policy' in msg:
            p = dict(msg['policy'])
            policies.setdefault(p.pop('policy-id'), {})[p.pop('attr-id')] = p
        if 'op-policy' in msg:
            p = dict(msg['op-policy'])
            p.pop('op-id')
            modes.update(p)
    return modes, policies


def check_flags(c, op, flags):
    for key, want in (('admin-perm', 'admin-perm' in op.yaml.get('flags', [])),
                      ('cmd-cap-do', 'do' in op.yaml),
                      ('cmd-cap-dump', 'dump' in op.yaml)):
        if (key in flags) != want:
            c.err(f"{op.name}: kernel {'sets' if key in flags else 'lacks'} "
                  f"{key}")
    if 'cmd-cap-haspol' not in flags:
        c.err(f'{op.name}: the kernel validates no attribute')


def check_mode(c, op, mode, idx, policies, seen):
    """One do or dump: its policy, index idx of policies, against the spec."""
    if idx is None:
        c.err(f'{op.name} {mode}: no policy, so no attribute is refused')
        return
    c.cmp_policy(f'{op.name} {mode}:', op.attr_set, idx, policies, seen)
    accepted = policies.get(idx, {})
    for name in op.yaml[mode].get('request', {}).get('attributes', []):
        # A request of pad alone takes nothing: pad is never accepted.
        if op.attr_set[name].type == 'pad':
            continue
        if op.attr_set[name].value not in accepted:
            c.err(f'{op.name} {mode}: request attribute {name} is not '
                  'in the kernel policy')


def check_op(c, op, flags, modes, policies):
    """Compare an operation of the spec with the kernel's: its flags (the
    nlctrl op flags), the policy index of each mode ({'do': i, ...}) and
    the policies by index ({i: {attribute: policy}})."""
    seen = set()
    check_flags(c, op, flags)
    for mode in ('do', 'dump'):
        if mode in op.yaml:
            check_mode(c, op, mode, modes.get(mode), policies, seen)


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    spec_path = argv[1]
    ctrl = load_family('nlctrl')
    spec = load_family(spec_path, connect=False)
    c = Checker(spec)
    try:
        fam, ops = kernel_view(ctrl, spec.name)
    except Exception as e:  # the ynl library raises NlError for ENOENT
        if 'No such file' in str(e):
            print(f'# family {spec.name} is not registered')
            return 4
        raise

    if fam.get('version') != spec.yaml.get('version', 1):
        c.err(f"version: kernel {fam.get('version')}, "
              f"spec {spec.yaml.get('version', 1)}")

    # A family with per-command policies registers no family maxattr.
    top_sets = {op.attr_set.name for op in spec.ops.values()}
    if len(top_sets) == 1 and fam.get('maxattr'):
        top = spec.attr_sets[top_sets.pop()]
        if fam.get('maxattr') != max(top.attrs_by_val):
            c.err(f"maxattr: kernel {fam.get('maxattr')}, "
                  f"spec {max(top.attrs_by_val)}")

    npol = 0
    spec_ops = {op.req_value: op for op in spec.ops.values()}
    for value in sorted(set(ops) - set(spec_ops)):
        c.err(f'kernel command {value} is not in the spec')
    for value, op in sorted(spec_ops.items()):
        if value not in ops:
            c.err(f'{op.name}: command {value} not registered')
            continue
        modes, policies = op_policies(ctrl, spec.name, value)
        npol += len(policies)
        check_op(c, op, ops[value], modes, policies)

    for n in c.notes:
        print(f'# note: {n}')
    for e in c.errors:
        print(f'# {e}')
    print(f'# {spec.name}: {len(spec_ops)} operations, {npol} '
          f'policies compared, {len(c.errors)} disagreements')
    return 1 if c.errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
