# SPDX-License-Identifier: GPL-2.0
"""Locate the kernel's ynl library and load netlink specs with it,
validated against the schema of their protocol.

In the source tree the library is in the kernel source extracted by
scripts/linux-src.sh.  Installed (make -C tests install), the suite carries
its own copy (cli.py and lib/ next to this file) and the specs it drives.

A spec is named by path, or by family: <name>.yaml next to this file, this
tree's Documentation/netlink/specs/<name>.yaml, then the kernel's.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The source tree; TW_ROOT names it when the suite runs installed elsewhere.
TOP = os.environ.get('TW_ROOT') or os.path.dirname(os.path.dirname(HERE))
INSTALLED = os.path.isfile(os.path.join(HERE, 'cli.py'))


def linux_src():
    return subprocess.run([os.path.join(TOP, 'scripts', 'linux-src.sh')],
                          check=True, capture_output=True,
                          text=True).stdout.strip()


SRC = None if INSTALLED else linux_src()
if INSTALLED:
    sys.path.insert(0, HERE)
else:
    for _d in ('tools/net/ynl', 'tools/net/ynl/pyynl'):
        if os.path.isdir(os.path.join(SRC, _d, 'lib')):
            sys.path.insert(0, os.path.join(SRC, _d))
            break

# pylint: disable=wrong-import-position
from lib import NlError, SpecFamily, YnlFamily  # noqa: E402


def spec_path(name):
    if os.sep in name or name.endswith('.yaml'):
        return name
    candidates = [os.path.join(HERE, name + '.yaml')]
    for base in (TOP, SRC):
        if base:
            candidates.append(os.path.join(base, 'Documentation', 'netlink',
                                           'specs', name + '.yaml'))
    for path in candidates:
        if os.path.exists(path):
            return path
    raise FileNotFoundError(f'no spec for family {name}')


def schema_path(spec):
    """The kernel's schema for the spec's protocol; '' (no validation) when
    YNL_NO_SCHEMA is set, as in the guest, where validating costs seconds
    and tests/ynl/test_spec.sh has validated the spec on the host."""
    if os.environ.get('YNL_NO_SCHEMA') or not SRC:
        return ''
    proto = 'genetlink'
    with open(spec, encoding='utf-8') as f:
        for line in f:
            if line.startswith('protocol:'):
                proto = line.split(':', 1)[1].strip()
                break
    return os.path.join(SRC, 'Documentation', 'netlink', proto + '.yaml')


def load_family(name, connect=True):
    """A YnlFamily with its socket, or only the parsed spec."""
    path = spec_path(name)
    if not connect:
        return SpecFamily(path, schema_path(path))
    # Unknown-attribute processing also decodes pad attributes, which
    # architectures without efficient unaligned access put before u64s.
    return YnlFamily(path, schema_path(path), process_unknown=True)


__all__ = ['NlError', 'TOP', 'SRC', 'INSTALLED', 'load_family', 'spec_path', 'schema_path']
