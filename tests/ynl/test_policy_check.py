#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""policy_check.py, which runs in the guest against the live module, can
fail: its comparison of one operation is fed kernel views made up here.

An operation with a policy that refuses every attribute passes; one
without a policy fails, whether the spec lists request attributes or
none at all, as does a dump without one beside a do with one.
"""

import os
import sys
import tempfile
import unittest

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, HERE)
from taptest import tap_main  # noqa: E402
import policy_check  # noqa: E402
from ynl_env import load_family, spec_path  # noqa: E402

DO = {'cmd-cap-do', 'cmd-cap-haspol'}
DO_DUMP = DO | {'cmd-cap-dump'}
U32_MIN1 = {'type': 'u32', 'min-value-u': 1, 'max-value-u': 2**32 - 1}


def omware():
    return load_family('omware', connect=False)


def errors(spec, op_name, flags, modes, policies):
    c = policy_check.Checker(spec)
    policy_check.check_op(c, spec.ops[op_name], flags, modes, policies)
    return c.errors


class OneOperation(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.spec = omware()
        cls.session_id = cls.spec.attr_sets['omware']['session-id'].value

    def test_refusing_policy_passes(self):
        """stats-get takes pad alone: an empty policy is what it wants."""
        self.assertEqual(errors(self.spec, 'stats-get', DO, {'do': 0},
                                {0: {}}), [])

    def test_do_and_dump_with_policies_pass(self):
        got = errors(self.spec, 'session-get', DO_DUMP, {'do': 0, 'dump': 1},
                     {0: {self.session_id: dict(U32_MIN1)}, 1: {}})
        self.assertEqual(got, [])

    def test_no_policy_fails(self):
        got = errors(self.spec, 'stats-get', {'cmd-cap-do'}, {}, {})
        self.assertIn('stats-get do: no policy, so no attribute is refused',
                      got)

    def test_dump_without_policy_fails(self):
        """haspol is per command: the do's policy must not cover the dump."""
        got = errors(self.spec, 'session-get', DO_DUMP, {'do': 0},
                     {0: {self.session_id: dict(U32_MIN1)}})
        self.assertEqual(
            got, ['session-get dump: no policy, so no attribute is refused'])

    def test_no_request_in_spec_still_fails(self):
        """A spec dump without a request gives no policy: still refused."""
        with open(spec_path('omware'), encoding='utf-8') as f:
            spdx = f.readline()
            y = yaml.safe_load(f)
        op = [o for o in y['operations']['list']
              if o['name'] == 'session-get'][0]
        del op['dump']['request']
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'omware.yaml')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(spdx)
                yaml.safe_dump(y, f, sort_keys=False)
            spec = load_family(path, connect=False)
        got = errors(spec, 'session-get', DO_DUMP, {'do': 0},
                     {0: {self.session_id: dict(U32_MIN1)}})
        self.assertEqual(
            got, ['session-get dump: no policy, so no attribute is refused'])


if __name__ == '__main__':
    sys.exit(tap_main(sys.modules[__name__]))
