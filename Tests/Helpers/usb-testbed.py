#!/usr/bin/python3
"""Plugs recorded readers into an emulated /sys and /dev while programs run.

Run under umockdev-wrapper (the testbed's own udev lookups must see the
emulated tree). Prints the testbed's root on its first line; a program started
with UMOCKDEV_DIR set to it and libumockdev-preload.so.0 in LD_PRELOAD sees
the readers plugged here, with a uevent for each change. Then reads commands,
one per line, and answers "ok" or "error: ..." for each:

    plug DIR      add the devices described in DIR/device (parents first),
                  answering the reader's requests from DIR/capture.ioctl
    unplug DIR    remove them again (the reader first)

DIR is a recording as in ../shared/replays.
"""
import os
import sys

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402


def records(folder):
    """The device records of a recording, child first as umockdev-record writes them."""
    with open(folder + "/device") as description:
        text = description.read()
    return [block.strip() + "\n" for block in text.split("\n\n") if block.strip()]


def syspath(record):
    return "/sys" + record.splitlines()[0][len("P: "):]


def replay(testbed, folder):
    """Answers the reader's USB requests from its recording, as umockdev-run -i does."""
    for name in ("capture", "custom"):
        path = "%s/%s.ioctl" % (folder, name)
        if os.path.exists(path):
            with open(path) as recording:
                node = recording.readline().split(" ", 1)[1].strip()
            if node.endswith(" (SPI)"):
                node = node[: -len(" (SPI)")]
            testbed.load_ioctl(node, path)
            return


def main():
    testbed = UMockdev.Testbed.new()
    print(testbed.get_root_dir(), flush=True)
    plugged = {}
    # The recorded traffic stays loaded across unplug and plug: umockdev keeps its socket.
    answering = set()
    for line in sys.stdin:
        command, _, folder = line.strip().partition(" ")
        try:
            if command == "plug":
                # Parents first: a reader announced before its hub has no port
                # path, and libfprint 1.94.5 aborts building its wakeup path.
                paths = []
                for record in reversed(records(folder)):
                    if not testbed.add_from_string(record):
                        raise RuntimeError("umockdev refused " + syspath(record))
                    paths.append(syspath(record))
                plugged[folder] = paths
                if folder not in answering:
                    replay(testbed, folder)
                    answering.add(folder)
            elif command == "unplug":
                for path in reversed(plugged.pop(folder)):
                    testbed.uevent(path, "remove")
                    testbed.remove_device(path)
            else:
                raise RuntimeError("unknown command " + repr(command))
            print("ok", flush=True)
        except Exception as error:  # the test reads the reason
            print("error: %s" % error, flush=True)


if __name__ == "__main__":
    main()
