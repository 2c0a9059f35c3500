#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Make activity on CPU `target` from CPU `source` for `seconds` (tests/bpf/causes.sh):
  netrx  UDP datagrams to ourselves over loopback; with lo's rps_cpus steering to
         `target`, each one is received in a NET_RX softirq there
Prints the number of events it made on its last line (also when stopped by SIGTERM)."""
import os
import signal
import socket
import sys
import time


def netrx(source, target, seconds):
    os.sched_setaffinity(0, {source})
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.bind(("127.0.0.1", 0))
    rx.setblocking(False)
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    n, end = 0, time.monotonic() + seconds
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(print(n, flush=True)))
    while time.monotonic() < end:
        tx.sendto(b"x", rx.getsockname())
        n += 1
        try:
            while rx.recv(64):
                pass
        except BlockingIOError:
            pass
        time.sleep(0.0003)
    return n


def main():
    mode, source, target, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    n = {"netrx": netrx}[mode](source, target, seconds)
    print(n)


if __name__ == "__main__":
    main()
