"""Sends one command to the glasses peer's control socket and prints the answer.

    peerctl.py SOCKET COMMAND...      exit 0 when the answer starts with "ok"
"""

import socket
import sys

if len(sys.argv) < 3:
    sys.exit("usage: peerctl.py SOCKET COMMAND...")
with socket.socket(socket.AF_UNIX) as control:
    control.connect(sys.argv[1])
    control.sendall((" ".join(sys.argv[2:]) + "\n").encode())
    answer = control.makefile().readline().strip()
print(answer)
sys.exit(0 if answer.startswith("ok") else 1)
