#!/usr/bin/env python3
"""A Unix-socket server that answers every connection wrongly, in one way, for the tests of
fpbridge's service client: misbehaving-service.py SOCKET MODE. Runs until killed.

Modes: silent-close (reads the request, closes without a word), reset (closes without reading
it), garbage (not HTTP), cut-stream (a streamed 200 that stops after its first line),
bad-chunk (a streamed 200 whose chunk size is not a number), oversized (a 17 MB body),
mute (reads the request and never answers).
The socket appears at SOCKET only once it listens."""
import os
import signal
import socket
import sys
import time

# A child of a Swift test inherits the signal mask of the thread that spawned it (Dispatch
# threads block most signals): without this, SIGTERM would not end it.
signal.pthread_sigmask(signal.SIG_SETMASK, set())

path, mode = sys.argv[1], sys.argv[2]
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path + ".binding")
server.listen(8)
os.rename(path + ".binding", path)


def read_request(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        piece = connection.recv(65536)
        if not piece:
            return
        data += piece
    head, _, body = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
            while len(body) < length:
                piece = connection.recv(65536)
                if not piece:
                    return
                body += piece


while True:
    connection, _ = server.accept()
    with connection:
        if mode == "reset":
            # Unread bytes at close make the kernel reset the connection.
            time.sleep(0.1)
            continue
        read_request(connection)
        if mode == "garbage":
            connection.sendall(b"SSH-2.0-OpenSSH_9.2\r\n\r\n")
        elif mode == "cut-stream":
            line = b'{"type":"started","operation":"op-1"}\n'
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n"
                               b"Transfer-Encoding: chunked\r\n\r\n" + b"%x\r\n" % len(line) + line + b"\r\n")
        elif mode == "bad-chunk":
            connection.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n")
            time.sleep(0.5)
        elif mode == "mute":
            time.sleep(3600)
        elif mode == "oversized":
            size = 17 * 1024 * 1024
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % size)
            try:
                connection.sendall(b" " * size)
            except (BrokenPipeError, ConnectionResetError):
                pass
        # silent-close: nothing
        try:
            connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
