#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What QEMU sees of a guest that has gone silent, over its QMP socket.

Usage: qmp-state.py SOCKET state      run state, each virtio device's
                                      queues, interrupts, CPU registers
       qmp-state.py SOCKET keys K...  press keys K together (QEMU's
                                      qcodes: alt sysrq t)

A virtqueue whose used index trails its available one holds requests the
device has not answered; one whose used index is ahead of the last it
signalled has answers the guest was never told of.  Exit status 1 when
the socket does not answer.
"""

import json
import socket
import sys


class Qmp:
    """One QMP session: a command in, its answer out (events skipped)."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.file = self.sock.makefile("rw")
        self.file.readline()            # the greeting
        self.run("qmp_capabilities")

    def run(self, command, **arguments):
        request = {"execute": command}
        if arguments:
            request["arguments"] = arguments
        self.file.write(json.dumps(request) + "\n")
        self.file.flush()
        while True:
            line = self.file.readline()
            if not line:
                raise OSError("QMP closed the connection")
            answer = json.loads(line)
            if "return" in answer:
                return answer["return"]
            if "error" in answer:
                return {"error": answer["error"].get("desc", "?")}

    def hmp(self, line):
        return self.run("human-monitor-command", **{"command-line": line})


QUEUE_FIELDS = ("last-avail-idx", "shadow-avail-idx", "used-idx",
                "signalled-used", "signalled-used-valid", "inuse")


def virtio_state(qmp):
    devices = qmp.run("x-query-virtio")
    if not isinstance(devices, list):
        print(f"virtio: {devices.get('error', devices)}")
        return
    for device in devices:
        path = device["path"]
        status = qmp.run("x-query-virtio-status", path=path)
        print(f"{path} {device.get('name')}: isr {status.get('isr')}"
              f" status {status.get('status')}")
        for queue in range(status.get("num-vqs", 0) or 0):
            got = qmp.run("x-query-virtio-queue-status", path=path,
                          queue=queue)
            if "error" in got:
                break
            fields = " ".join(f"{k} {got.get(k)}" for k in QUEUE_FIELDS)
            print(f"  queue {queue}: {fields}")


def state(qmp):
    print("status:", qmp.run("query-status"))
    virtio_state(qmp)
    for line in ("info irq", "info pic", "info registers -a"):
        print(f"--- {line}")
        print(str(qmp.hmp(line)).rstrip())


def main(argv):
    if len(argv) < 3 or argv[2] not in ("state", "keys"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        qmp = Qmp(argv[1])
        if argv[2] == "state":
            state(qmp)
        else:
            keys = [{"type": "qcode", "data": k} for k in argv[3:]]
            print("keys:", " ".join(argv[3:]), qmp.run("send-key", keys=keys))
    except (OSError, ValueError) as err:
        print(f"qmp: {argv[1]}: {err}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
