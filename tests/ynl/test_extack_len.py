#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Every extack message of every module fits NETLINK_MAX_FMTMSG_LEN.

The kernel formats NL_SET_ERR_MSG*_FMT messages into an 80-byte buffer and
warns ("truncated extack") when one does not fit; the conventions hold the
fixed messages to the same limit.  Each message is measured at its longest:
every conversion at the widest value its type can print, plus the
"<module>: " prefix of the _MOD variants.  Prints TAP, one line a message.

  test_extack_len.py [SOURCE_DIR...]   (default: every module directory)
"""

import glob
import os
import re
import sys

LIMIT = 80          # NETLINK_MAX_FMTMSG_LEN, terminating NUL included
WIDEST = {'u': 10, 'd': 11, 'i': 11, 'x': 8, 'lu': 20, 'ld': 20,
          'llu': 20, 'lld': 20, 'llx': 16, 'lx': 16, 'zu': 20, 'zd': 20,
          'hu': 5, 'hd': 6, 'hhu': 3, 'c': 1, 'pM': 17, 'pI4': 15,
          's': 15}  # %s: a device name is the longest string printed
CONV = re.compile(r'%[-+ #0]*\d*(?:\.\d+)?(hh|h|ll|l|z)?([udixcs]|p[A-Za-z0-9]+)')
CALL = re.compile(r'\bNL_SET_ERR_MSG(_ATTR)?(_FMT)?(_MOD)?\s*\(')
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')

top = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def module_dirs():
    return sorted(os.path.dirname(k) for k in
                  glob.glob(os.path.join(top, '*', 'Kbuild')))


def widest(fmt):
    def width(m):
        return 'x' * WIDEST.get((m.group(1) or '') + m.group(2), 20)
    return len(CONV.sub(width, fmt.replace('%%', '%')))


def messages(path, modname):
    """(line, text, length) of every message in one source file."""
    src = open(path, encoding='utf-8').read()
    for m in CALL.finditer(src):
        # The message is the first run of adjacent string literals.
        rest = src[m.end():]
        first = LITERAL.search(rest)
        if not first:
            continue
        text, pos = '', first.start()
        for lit in LITERAL.finditer(rest, pos):
            if rest[pos:lit.start()].strip():
                break
            text += lit.group(1)
            pos = lit.end()
        length = widest(text) if m.group(2) else len(text)
        if m.group(3):
            length += len(modname) + 2
        line = src.count('\n', 0, m.start()) + 1
        yield line, text, length


def main():
    dirs = sys.argv[1:] or module_dirs()
    found = []
    for d in dirs:
        modname = os.path.basename(os.path.normpath(d))
        for path in sorted(glob.glob(os.path.join(d, '*.c'))):
            for line, text, length in messages(path, modname):
                found.append((os.path.relpath(path, top), line, text, length))
    if not found:
        print('1..0 # SKIP no extack messages found')
        return 4
    print(f'1..{len(found)}')
    bad = 0
    for i, (path, line, text, length) in enumerate(found, 1):
        ok = length < LIMIT
        bad += not ok
        print(f'{"ok" if ok else "not ok"} {i} {path}:{line} '
              f'{length} chars at most: "{text}"')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
