#!/usr/bin/env python3
"""Host end of the VM's second 16550 (/dev/ttyS1): connects to QEMU's UNIX socket and appends
everything the guest writes to a log file until QEMU closes the socket.

usage: uart_host.py SOCKET LOGFILE TIMEOUT_SECONDS
"""
import os
import socket
import sys
import time

path, logfile, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
deadline = time.monotonic() + timeout
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
while True:
    try:
        s.connect(path)
        break
    except (FileNotFoundError, ConnectionRefusedError):
        if time.monotonic() > deadline:
            sys.exit("uart_host: no socket " + path)
        time.sleep(0.05)
with open(logfile, "ab", buffering=0) as out:
    while True:
        data = s.recv(4096)
        if not data:
            break
        out.write(data)
