"""The finger on libfprint's virtual_image reader: PGM images sent over its Unix socket
(header: width and height as native int32, then the pixels), one connection kept open for a
whole enrollment, as Tests/TestSupport/VirtualReaderDriver.swift does."""

import os
import socket
import struct
import sys
import time

# The project's one PGM reader (bench/pgm.py, which bench/kiosk.py uses too).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'bench'))
from pgm import read_pgm  # noqa: E402


class Finger:
    """A connection to the reader, made once it listens (libfprint's virtual readers listen
    only while the device is open)."""

    def __init__(self, path, image, wait=30):
        self.width, self.height, self.pixels = read_pgm(image)
        deadline = time.monotonic() + wait
        while True:
            self.connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                self.connection.connect(path)
                return
            except OSError:
                self.connection.close()
                if time.monotonic() > deadline:
                    raise TimeoutError(f'no virtual_image reader listening on {path} within {wait} s')
                time.sleep(0.1)

    def swipe(self):
        """One scan of the image."""
        self.connection.sendall(struct.pack('=ii', self.width, self.height) + self.pixels)

    def close(self):
        self.connection.close()
