#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Drive the live omware family through the kernel's ynl library.

A session lives as long as the netlink socket that created it, and every
ynl command line run opens its own socket; the checks that need a session
therefore run here, several requests on one socket.

  omware_ynl.py [--ifname DEV] [--peer PEER] [--other-netns NS] [--id ID]
                CHECK...

CHECK is one of:
  probe        the family is registered (status 4 if not)
  policy       the spec agrees with the kernel's commands and policies
               (policy_check.py)
  lifecycle    session-new, session-get (defaults, owner), dump, session-del
  submit       two frames submitted out of order leave in time order, never
               early, reach PEER and are reported; counters follow
  owner-close  only the owner changes a session; it is gone once the
               owner socket is closed
  netns        a session is invisible from network namespace NS
  absent       (run inside NS by "netns") session --id is not visible here
  extack       refused submits: the extended ack names the attribute, and
               nothing of a refused request is queued

Several checks run in one process (Python start-up is slow in an emulated
guest).  Prints diagnostics as "# ..." lines and, after each check, a line
"@@ CHECK STATUS" (0 pass, 1 fail, 4 skip); exits with the worst status.
"""

import argparse
import errno
import os
import select
import socket
import subprocess
import sys
import time

import policy_check
from ynl_env import NlError, load_family, spec_path

ETH_P_TEST = 0x88b5		# IEEE 802 local experimental EtherType
MARK = b'timewire-ynl'


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def diag(msg):
    print(f'# {msg}', flush=True)


def expect_error(fn, codes, what):
    """Run fn, which must fail with one of the errno codes; return the extack."""
    try:
        fn()
    except NlError as e:
        check(e.error in codes,
              f'{what}: {os.strerror(e.error)}, expected '
              f"{' or '.join(os.strerror(c) for c in codes)}")
        return e.nl_msg.extack or {}
    raise Fail(f'{what}: succeeded, expected an error')


def portid(ynl):
    return ynl.sock.getsockname()[0]


def new_session(ynl, ifname, **attrs):
    attrs['ifindex'] = socket.if_nametoindex(ifname)
    rsp = ynl.do('session-new', attrs)
    check(rsp and rsp.get('session-id', 0) > 0,
          f'session-new reply without a session id: {rsp}')
    return rsp['session-id']


def session_ids(ynl):
    return [s['session-id'] for s in ynl.dump('session-get', {})]


def monotonic_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def wait_reports(ynl, sid, cookies, timeout=20.0):
    """Collect the reports of the given cookies, in arrival order."""
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < len(cookies):
        left = deadline - time.monotonic()
        check(left > 0, f'reports for cookies {sorted(set(cookies) - {r["cookie"] for r in got})} '
              f'not received within {timeout:.0f} s')
        select.select([ynl.sock], [], [], left)
        ynl.check_ntf()
        while ynl.async_msg_queue:
            ntf = ynl.async_msg_queue.pop(0)
            check(ntf['name'] == 'report', f'unexpected notification {ntf}')
            msg = ntf['msg']
            check(msg.get('session-id') == sid,
                  f'report for session {msg.get("session-id")}, expected {sid}')
            for rep in msg.get('report', []):
                check(rep.get('cookie') in cookies,
                      f'report for unknown cookie {rep}')
                got.append(rep)
    return got


# --- checks -----------------------------------------------------------------

def do_probe(args):
    try:
        load_family('omware')
    except Exception as e:  # the ynl library raises a bare Exception
        diag(str(e).splitlines()[-1])
        return 4
    return 0


def do_policy(args):
    return policy_check.main(['policy_check.py', spec_path('omware')])


def do_lifecycle(args):
    ynl = load_family('omware')
    ifindex = socket.if_nametoindex(args.ifname)
    sid = new_session(ynl, args.ifname)
    diag(f'session {sid} on {args.ifname} ({ifindex}), owner port {portid(ynl)}')

    s = ynl.do('session-get', {'session-id': sid})
    want = {'session-id': sid, 'ifindex': ifindex, 'ifname': args.ifname,
            'owner-portid': portid(ynl), 'clockid': time.CLOCK_MONOTONIC,
            'mode': 'timer', 'pending-pkts': 0,
            'late-ns': ynl.consts['late-ns-default']['value'],
            'pending-bytes': 0}
    for k, v in want.items():
        check(s.get(k) == v, f'session-get {k} = {s.get(k)!r}, expected {v!r}')
    check('stats' in s and s['stats'].get('submitted') == 0,
          f'session-get stats {s.get("stats")}')

    ids = session_ids(ynl)
    check(sid in ids, f'dump {ids} lacks session {sid}')

    ynl.do('session-del', {'session-id': sid})
    expect_error(lambda: ynl.do('session-get', {'session-id': sid}),
                 (errno.ENOENT,), 'session-get after session-del')
    expect_error(lambda: ynl.do('session-del', {'session-id': sid}),
                 (errno.ENOENT,), 'second session-del')
    ids = session_ids(ynl)
    check(sid not in ids, f'dump {ids} still lists session {sid}')
    return 0


def frame(dst, src, cookie, size=96):
    body = MARK + cookie.to_bytes(8, 'big')
    body += bytes(size - 14 - len(body))
    return dst + src + ETH_P_TEST.to_bytes(2, 'big') + body


def do_submit(args):
    check(args.peer, 'submit needs --peer')
    rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                       socket.htons(ETH_P_TEST))
    rx.bind((args.peer, ETH_P_TEST))
    rx.settimeout(5)
    tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
    tx.bind((args.ifname, 0))
    dst, src = rx.getsockname()[4], tx.getsockname()[4]
    tx.close()

    ynl = load_family('omware')
    before = ynl.do('stats-get', {})['stats']
    sid = new_session(ynl, args.ifname, xmit='direct')

    # Handed over in the opposite order of their send times.
    t0 = monotonic_ns()
    times = {1: t0 + 200_000_000, 2: t0 + 100_000_000}
    frames = {c: frame(dst, src, c) for c in times}
    ynl.do('submit', {'session-id': sid,
                      'pkt': [{'time': times[c], 'cookie': c, 'frame': frames[c]}
                              for c in (1, 2)]})

    reps = wait_reports(ynl, sid, list(times))
    diag('reports: ' + ', '.join(f"cookie {r['cookie']} {r.get('status')} "
                                 f"late {r.get('late-ns')} ns" for r in reps))
    for r in reps:
        c = r['cookie']
        check(r.get('status') == 'sent', f'cookie {c}: status {r.get("status")}')
        check(r.get('sched-ns') == times[c],
              f'cookie {c}: sched-ns {r.get("sched-ns")}, submitted {times[c]}')
        check(r.get('sent-ns', 0) >= times[c],
              f'cookie {c}: sent at {r.get("sent-ns")}, before its time {times[c]}')
        check(r.get('late-ns') == r['sent-ns'] - r['sched-ns'],
              f'cookie {c}: late-ns {r.get("late-ns")} is not sent-ns - sched-ns')
        check(r.get('rc') == 0, f'cookie {c}: rc {r.get("rc")}')
    sent = sorted(reps, key=lambda r: r['sent-ns'])
    check([r['cookie'] for r in sent] == [2, 1],
          f'send order {[r["cookie"] for r in sent]}, expected [2, 1]')

    seen = []
    while len(seen) < 2:
        try:
            data = rx.recv(2048)
        except socket.timeout:
            raise Fail(f'{args.peer} received {len(seen)} of 2 frames')
        for c, f in frames.items():
            if data == f:
                seen.append(c)
    check(seen == [2, 1], f'{args.peer} received cookies {seen}, expected [2, 1]')

    s = ynl.do('session-get', {'session-id': sid})
    check(s['stats'].get('submitted') == 2 and s['stats'].get('sent') == 2,
          f'session stats {s["stats"]}')
    check(s.get('pending-pkts') == 0, f'pending-pkts {s.get("pending-pkts")}')
    after = ynl.do('stats-get', {})['stats']
    for k in ('submitted', 'sent'):
        check(after[k] - before[k] == 2,
              f'module {k} went from {before[k]} to {after[k]}, expected +2')
    ynl.do('session-del', {'session-id': sid})
    return 0


def do_owner_close(args):
    owner = load_family('omware')
    other = load_family('omware')
    sid = new_session(owner, args.ifname)
    s = other.do('session-get', {'session-id': sid})
    check(s.get('owner-portid') == portid(owner),
          f'owner-portid {s.get("owner-portid")}, expected {portid(owner)}')
    for op in ('flush', 'session-del'):
        ext = expect_error(lambda: other.do(op, {'session-id': sid}),
                           (errno.EPERM,), f'{op} from another socket')
        check(ext.get('msg') and ext.get('bad-attr') == '.session-id',
              f'{op} from another socket: extack {ext}')
    owner.sock.close()
    # The release notifier runs synchronously; allow a little slack anyway.
    deadline = time.monotonic() + 5
    while sid in session_ids(other):
        check(time.monotonic() < deadline,
              f'session {sid} outlived its owner socket by 5 s')
        time.sleep(0.1)
    expect_error(lambda: other.do('session-get', {'session-id': sid}),
                 (errno.ENOENT,), 'session-get after the owner closed')
    return 0


def do_netns(args):
    check(args.other_netns, 'netns needs --other-netns')
    ynl = load_family('omware')
    sid = new_session(ynl, args.ifname)
    res = subprocess.run(['ip', 'netns', 'exec', args.other_netns,
                          sys.executable, os.path.abspath(__file__),
                          '--id', str(sid), 'absent'],
                         capture_output=True, text=True, check=False)
    for line in res.stdout.splitlines():
        if not line.startswith('@@'):
            print(line)
    sys.stdout.write(''.join(f'# {line}\n' for line in res.stderr.splitlines()))
    check(res.returncode == 0, f'session {sid} is visible from {args.other_netns}')
    check(sid in session_ids(ynl), f'session {sid} missing from its own netns')
    ynl.do('session-del', {'session-id': sid})
    return 0


def do_absent(args):
    ynl = load_family('omware')
    ids = session_ids(ynl)
    check(args.id not in ids, f'dump here lists session {args.id}: {ids}')
    expect_error(lambda: ynl.do('session-get', {'session-id': args.id}),
                 (errno.ENOENT,), f'session-get {args.id} from here')
    expect_error(lambda: ynl.do('session-del', {'session-id': args.id}),
                 (errno.ENOENT,), f'session-del {args.id} from here')
    return 0


def do_extack(args):
    ynl = load_family('omware')
    sid = new_session(ynl, args.ifname)
    far = monotonic_ns() + 60 * 10**9
    good = {'time': far, 'cookie': 1, 'frame': frame(b'\xff' * 6, b'\x02' + bytes(5), 1)}

    # A frame shorter than an Ethernet header breaks the policy.
    ext = expect_error(lambda: ynl.do('submit', {
        'session-id': sid, 'pkt': [good, {'time': far, 'frame': bytes(10)}]}),
        (errno.EINVAL, errno.ERANGE), 'submit of a 10-byte frame')
    diag(f'short frame: {ext}')
    check(ext.get('bad-attr') == '.pkt.frame',
          f'short frame: bad-attr {ext.get("bad-attr", ext.get("bad-attr-offs"))}, '
          'expected .pkt.frame')

    # Neither frame nor payload: refused by the handler, not the policy.
    ext = expect_error(lambda: ynl.do('submit', {
        'session-id': sid, 'pkt': [good, {'time': far, 'cookie': 2}]}),
        (errno.EINVAL,), 'submit of a packet without frame or payload')
    diag(f'no frame: {ext}')
    check(ext.get('msg'), 'no frame: no extack message')
    check(ext.get('bad-attr', '').startswith('.pkt') or 'miss-type' in ext,
          f'no frame: extack names no attribute: {ext}')

    # All or nothing: the good packet of the refused requests was not queued.
    s = ynl.do('session-get', {'session-id': sid})
    check(s.get('pending-pkts') == 0 and s['stats'].get('submitted') == 0,
          f'refused submits left pending {s.get("pending-pkts")}, '
          f'submitted {s["stats"].get("submitted")}')

    # An unknown session.
    ext = expect_error(lambda: ynl.do('flush', {'session-id': 0x7fffffff}),
                       (errno.ENOENT,), 'flush of an unknown session')
    check(ext.get('msg'), f'unknown session: no extack message: {ext}')
    ynl.do('session-del', {'session-id': sid})
    return 0


CHECKS = {'probe': do_probe, 'policy': do_policy,
          'lifecycle': do_lifecycle, 'submit': do_submit,
          'owner-close': do_owner_close, 'netns': do_netns,
          'absent': do_absent, 'extack': do_extack}


def run(name, args):
    try:
        return CHECKS[name](args)
    except Fail as e:
        diag(f'{name}: FAIL: {e}')
    except NlError as e:
        diag(f'{name}: FAIL: unexpected error: {os.strerror(e.error)} '
             f'{e.nl_msg.extack or ""}')
    except Exception as e:  # a crash fails this check, not the others
        diag(f'{name}: FAIL: {type(e).__name__}: {e}')
    return 1


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--ifname', default='veth0')
    p.add_argument('--peer')
    p.add_argument('--other-netns')
    p.add_argument('--id', type=int)
    p.add_argument('checks', nargs='+', choices=sorted(CHECKS), metavar='CHECK')
    args = p.parse_args()
    worst = 0
    for name in args.checks:
        rc = run(name, args)
        print(f'@@ {name} {rc}', flush=True)
        if rc == 1 or worst == 0:
            worst = rc
    return worst


if __name__ == '__main__':
    sys.exit(main())
