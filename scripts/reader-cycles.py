#!/usr/bin/env python3
"""Opens and closes a libfprint reader in a running fpbridged, many times: enrolls one finger,
then verifies it N times, each time waiting past the service's --reader-idle-seconds so that the
reader closes between verifies. Exits non-zero if a command fails or the service dies.

A release fpbridged built with Synchronization's Mutex inlined into async code crashed in the
reader's close, one close in three ("Call to unlock Mutex on a thread which hasn't acquired the
lock": FPVocabulary/Locked.swift says why); only a release build, only with a reader that
closes, showed it. scripts/release-smoke.sh runs this against the release fpbridged.

    reader-cycles.py FPBRIDGE SOCKET VIRTUAL_DEVICE_SOCKET SERVICE_PID [CYCLES] [IDLE_SECONDS]
"""
import os
import socket
import subprocess
import sys
import threading
import time

fpbridge, service_socket, reader_socket, pid = sys.argv[1:5]
cycles = int(sys.argv[5]) if len(sys.argv) > 5 else 10
idle = float(sys.argv[6]) if len(sys.argv) > 6 else 1.0


def scan(print_id):
    """One SCAN command to libfprint's virtual_device, read to its end as the reader answers."""
    deadline = time.monotonic() + 20
    while True:
        try:
            connection = socket.socket(socket.AF_UNIX)
            connection.connect(reader_socket)
            break
        except OSError:
            connection.close()
            if time.monotonic() > deadline:
                sys.exit(f"reader-cycles: no virtual reader on {reader_socket}")
            time.sleep(0.05)
    connection.sendall(f"SCAN {print_id}".encode())
    connection.shutdown(socket.SHUT_WR)
    while connection.recv(100):
        pass
    connection.close()


def run(arguments, scans=(), stdin=None):
    process = subprocess.Popen([fpbridge, "--service", service_socket] + arguments, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def finger():
        for print_id in scans:
            # The verify or the enrollment's stage is waiting for the finger by then (it opens the
            # reader first); a scan sent before would be taken as the previous stage's.
            time.sleep(0.6)
            scan(print_id)
    feeder = threading.Thread(target=finger)
    feeder.start()
    output, _ = process.communicate(stdin, timeout=60)
    feeder.join()
    if process.returncode != 0:
        sys.exit(f"reader-cycles: fpbridge {' '.join(arguments)} exited {process.returncode}:\n{output}")


def alive():
    try:
        with open(f"/proc/{pid}/status") as status:
            return "zombie" not in status.read()
    except FileNotFoundError:
        return False


run(["passcode", "set", "--passcode-stdin"], stdin="2468\n")
run(["enroll", "--finger", "right-index", "--passcode-stdin"], scans=["p1"] * 5, stdin="2468\n")
for cycle in range(1, cycles + 1):
    run(["verify"], scans=["p1"])
    time.sleep(idle + 0.5)
    if not alive():
        sys.exit(f"reader-cycles: fpbridged died after the reader's close number {cycle}")
print(f"reader-cycles: {cycles} verifies, the reader closed after each, fpbridged still running")
