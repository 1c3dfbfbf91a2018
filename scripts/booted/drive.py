#!/usr/bin/python3
"""Drives one program in the booted container on a pseudo-terminal, as a person would.

    drive.py --leader PID --user USER [--desk] [--term NAME] [--vdev PATH] [--timeout S] STEP... -- COMMAND...

COMMAND runs in the container as USER in a transient unit with a terminal of its own
(`systemd-run --pty`, entered with nsenter from the host), so su, login, sudo, pkexec and
pkttyagent read their passwords from a real terminal. Such a unit is in no logind session.
--desk makes the unit USER's session at the seat instead, as a desk's login is: PAM's session
stack of `login` (pam_systemd) with XDG_SEAT=seat0, which a greeter names and a container,
having no virtual consoles, cannot give by a console. --term sets TERM (default dumb; tmux
needs a real one). The steps, in order:

    expect:REGEX   wait for REGEX in what the program wrote since the last match
    send:TEXT      type TEXT and Enter (after a moment: PAM flushes typed-ahead input when it
                   turns echo off)
    send-raw:TEXT  type TEXT alone, no Enter (the start of a password, say)
    scan:ID        libfprint's virtual_device reads finger ID (`SCAN ID` sent to the socket
                   --vdev names, from the host through /proc/PID/root)
    wait:S         wait S seconds
    until:CMD      wait until the shell command CMD, run as root in the container, succeeds
                   (polled every 0.1 s, up to the timeout)
    exit:N         the program ends with status N
    absent:REGEX   (checked at the end) REGEX never appeared

Prints the transcript as it goes; exits 0 when every step held, 1 otherwise.
"""
import argparse
import errno
import os
import pty
import re
import select
import socket
import subprocess
import sys
import time

GUEST_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"


def guest_until(leader, command, timeout):
    """Polls a shell command as root in the container until it exits 0; True if it did in time."""
    deadline = time.monotonic() + timeout
    argv = ["nsenter", "-t", leader, "-a", "/usr/bin/env", "-i", f"PATH={GUEST_PATH}", "LANG=C.UTF-8",
            "/bin/sh", "-c", command]
    while True:
        if subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def vdev_command(leader, path, command, timeout=15.0):
    """One virtual_device command: one connection, no newline, read until the driver closes it.
    Retries while the listener is not up (the reader opens when an operation claims it)."""
    target = f"/proc/{leader}/root{path}"
    deadline = time.monotonic() + timeout
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(target)
            break
        except OSError as e:
            s.close()
            if e.errno not in (errno.ENOENT, errno.ECONNREFUSED) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    with s:
        s.sendall(command.encode())
        s.settimeout(timeout)
        while s.recv(1024):
            pass


class Session:
    def __init__(self, argv, timeout):
        self.timeout = timeout
        self.buffer = ""      # everything not matched yet
        self.transcript = ""  # everything
        self.status = None
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvp(argv[0], argv)

    def _read(self, deadline):
        wait = max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 4096)
        except OSError:
            data = b""
        if not data:
            self._reap()
            return None
        text = data.decode(errors="replace").replace("\r", "")
        for line in text.splitlines(True):
            sys.stdout.write(("  | " if self.transcript.endswith("\n") or not self.transcript else "") + line)
            self.transcript += line
        sys.stdout.flush()
        self.buffer += text
        return True

    def _reap(self):
        if self.status is None:
            _, status = os.waitpid(self.pid, 0)
            self.status = os.waitstatus_to_exitcode(status)

    def expect(self, pattern):
        deadline = time.monotonic() + self.timeout
        regex = re.compile(pattern)
        while True:
            m = regex.search(self.buffer)
            if m:
                self.buffer = self.buffer[m.end():]
                return True
            if self.status is not None or time.monotonic() > deadline:
                return False
            if self._read(deadline) is None:
                m = regex.search(self.buffer)
                if m:
                    self.buffer = self.buffer[m.end():]
                    return True
                return False

    def send(self, text, enter=True):
        time.sleep(0.4)
        os.write(self.fd, (text + ("\r" if enter else "")).encode())

    def finish(self):
        deadline = time.monotonic() + self.timeout
        while self.status is None and time.monotonic() < deadline:
            self._read(deadline)
        if self.status is None:
            os.kill(self.pid, 9)
            self._reap()
            return None
        return self.status


def main():
    args = sys.argv[1:]
    if "--" not in args:
        sys.exit(__doc__)
    split = args.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("--leader", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--vdev", default="/run/fpbridge/vdev.sock")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--desk", action="store_true")
    parser.add_argument("--term", default="dumb")
    parser.add_argument("steps", nargs="*")
    options = parser.parse_args(args[:split])
    command = args[split + 1:]

    desk = ["-p", "PAMName=login", "-E", "XDG_SEAT=seat0", "-E", "XDG_SESSION_CLASS=user"] if options.desk else []
    if command[:1] == ["login"]:
        # login starts as getty leaves it: leading a session on its terminal. Debian 13's login
        # (util-linux) makes itself a process group of its own, which under the shell below is a
        # background group, so its first tcsetattr stopped it (SIGTTOU) and nothing was printed;
        # Debian 12's (shadow) does not. setsid --ctty gives it the terminal in the foreground.
        command = ["setsid", "--ctty", "--wait", *command]
    argv = ["nsenter", "-t", options.leader, "-a", "/usr/bin/env", "-i", f"PATH={GUEST_PATH}",
            "LANG=C.UTF-8", f"TERM={options.term}", "systemd-run", "-q", "--pty", "--wait", "-G",
            f"-p", f"User={options.user}", *desk, "-E", "LANG=C.UTF-8", "-E", f"TERM={options.term}", "--",
            # A fixed wait, on purpose: systemd 252's pty forwarder (systemd-run --pty) stops when the
            # unit's process exits, and under load the program's last lines were still on their way
            # (fprintd-list's prints, fprintd-verify's result: seen lost with exit 0). The unit lingers
            # 0.3 s after the program, with the program's exit status.
            "/bin/sh", "-c", '"$@"; status=$?; sleep 0.3; exit $status', "sh", *command]
    where = "at the desk: a session at seat0" if options.desk else "on a terminal"
    print(f"  $ ({options.user}, {where}) {' '.join(command)}", flush=True)
    started = time.monotonic()
    session = Session(argv, options.timeout)
    ok = True
    absent = []
    for step in options.steps:
        kind, _, value = step.partition(":")
        if kind == "expect":
            if not session.expect(value):
                print(f"\n  ! expected /{value}/ within {options.timeout:.0f} s, not seen", flush=True)
                ok = False
                break
        elif kind == "send":
            session.send(value)
        elif kind == "send-raw":
            session.send(value, enter=False)
        elif kind == "scan":
            try:
                vdev_command(options.leader, options.vdev, f"SCAN {value}")
            except OSError as e:
                print(f"\n  ! SCAN {value}: {options.vdev}: {e}", flush=True)
                ok = False
                break
        elif kind == "until":
            if not guest_until(options.leader, value, options.timeout):
                print(f"\n  ! `{value}` did not succeed within {options.timeout:.0f} s", flush=True)
                ok = False
                break
        elif kind == "wait":
            time.sleep(float(value))
        elif kind == "absent":
            absent.append(value)
        elif kind == "exit":
            status = session.finish()
            if status != int(value):
                print(f"\n  ! exit status {status}, expected {value}", flush=True)
                ok = False
        else:
            sys.exit(f"unknown step {step}")
    if session.status is None:
        status = session.finish()
    for pattern in absent:
        if re.search(pattern, session.transcript):
            print(f"\n  ! /{pattern}/ appeared", flush=True)
            ok = False
    if not session.transcript.endswith("\n"):
        print()
    print(f"  ({time.monotonic() - started:.1f} s, exit {session.status})", flush=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
