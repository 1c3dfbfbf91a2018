#!/usr/bin/env python3
"""Holds a FIDO hidraw node open across a change of the seat's occupant (scripts/vm/passkeys-guest.sh).

    hidraw-hold.py NODE MARK

Opens NODE, proves it answers (a CTAPHID INIT and its answer), writes "open" to MARK, then
sends an INIT every 0.2 s. Exits 0 once the node fails (the device was destroyed), with the
error in MARK; 1 when it still answers after 10 s, or never answered."""
import os
import select
import sys
import time

node, mark = sys.argv[1], sys.argv[2]


def init(fd):
    """One CTAPHID INIT on the broadcast channel; True when its answer comes within 2 s."""
    nonce = os.urandom(8)
    # A leading 0: hidraw's report ID byte, for a device that numbers none.
    os.write(fd, bytes([0]) + b"\xff\xff\xff\xff" + bytes([0x86, 0, 8]) + nonce + bytes(64 - 15))
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(0, deadline - time.monotonic()))
        if ready and os.read(fd, 64)[7:15] == nonce:
            return True
    return False


fd = os.open(node, os.O_RDWR)
if not init(fd):
    sys.exit(1)
with open(mark + ".new", "w") as out:
    out.write("open")
os.rename(mark + ".new", mark)
deadline = time.monotonic() + 10
while time.monotonic() < deadline:
    try:
        init(fd)  # an answer late or lost is not the proof: the node itself must fail
    except OSError as error:
        with open(mark, "w") as out:
            out.write(str(error))
        sys.exit(0)
    time.sleep(0.2)
sys.exit(1)
