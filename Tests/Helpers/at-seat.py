#!/usr/bin/python3
"""Runs a command where logind's records and the process's cgroup say what a test chooses, so
that pam_fpbridge.so's presence rule (Sources/CSeatPresence/include/presence.h) is judged on a machine without seats.

    at-seat.py RECORDS CGROUP [CONSOLE] -- COMMAND...

RECORDS is a folder laid out as /run/systemd is (seats/NAME, sessions/ID, users/UID), mounted
over /run/systemd in a mount namespace of the command's own (root only: unshare). CGROUP is a
path of units (`user.slice/user-0.slice/session-c1.scope`), made below a slice of this run's
own in systemd's named hierarchy (and the unified one, where mounted) and the command's process
moved into it; `-` leaves the process where it is. CONSOLE, when given, is what
/sys/class/tty/tty0/active says inside (the console the kernel shows). The module under test is
the real one: only the facts it reads are chosen. The cgroups are removed when the command ends.
Exits with the command's status.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import uuid

HIERARCHIES = ["/sys/fs/cgroup/systemd", "/sys/fs/cgroup/unified"]


def hierarchies():
    found = [h for h in HIERARCHIES if os.path.exists(os.path.join(h, "cgroup.procs"))]
    if not found and os.path.exists("/sys/fs/cgroup/cgroup.procs"):
        found = ["/sys/fs/cgroup"]  # the unified hierarchy alone
    return found


def main():
    if "--" not in sys.argv:
        sys.exit(__doc__)
    split = sys.argv.index("--")
    head, command = sys.argv[1:split], sys.argv[split + 1:]
    if len(head) not in (2, 3) or not command:
        sys.exit(__doc__)
    records, cgroup = head[0], head[1]
    console = head[2] if len(head) == 3 else None

    made = []
    if cgroup != "-":
        # A slice of this run's own: suites run side by side, each with its own tree.
        own = f"fpbridge_test_{uuid.uuid4().hex[:12]}.slice"
        for hierarchy in hierarchies():
            leaf = os.path.join(hierarchy, own, cgroup)
            os.makedirs(leaf, exist_ok=True)
            made.append((hierarchy, own, leaf))

    console_file = None
    if console is not None:
        console_file = tempfile.NamedTemporaryFile("w", prefix="at-seat-console-", delete=False)
        console_file.write(console + "\n")
        console_file.close()

    # The child: a namespace of its own, logind's records mounted, into the cgroup, then exec.
    script = ['set -e', 'mount -t tmpfs -o mode=755 fpbridge-test /run/systemd',
              'cp -r "$1"/. /run/systemd/']
    if console_file is not None:
        script.append('mount --bind "$2" /sys/class/tty/tty0/active')
    script.append('shift 2')
    for _, _, leaf in made:
        script.append(f'echo $$ > {leaf}/cgroup.procs')
    script.append('exec "$@"')
    argv = ["unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", "\n".join(script), "at-seat",
            records, console_file.name if console_file else "-"] + command
    try:
        status = subprocess.call(argv)
    finally:
        for hierarchy, own, leaf in made:
            # Depth first, once the command's processes have left (they ended).
            path = leaf
            while path != hierarchy:
                try:
                    os.rmdir(path)
                except OSError:
                    pass
                path = os.path.dirname(path)
        if console_file is not None:
            os.unlink(console_file.name)
    sys.exit(status)


if __name__ == "__main__":
    main()
