#!/usr/bin/env python3
"""A Unix-socket server that answers every connection wrongly, in one way, for the tests of
fpbridge's service client: misbehaving-service.py SOCKET MODE. Runs until killed.

Modes: silent-close (reads the request, closes without a word), reset (closes without reading
it), garbage (not HTTP), cut-stream (a streamed 200 that stops after its first line),
bad-chunk (a streamed 200 whose chunk size is not a number), oversized (a 17 MB body),
mute (reads the request and never answers); for pam_fpbridge.so's stream: endless-events (a
streamed 200 that says the reader waits, then sends an event line every 0.3 s for ever),
slow-bytes (the same head, then one byte of a line every 0.3 s for ever), huge-line (100 KB
of one line without its end), escapes (a result whose message holds terminal escapes and
bytes of 0x80 and above).
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
        elif mode in ("endless-events", "slow-bytes", "huge-line", "escapes"):
            def chunk(data):
                return b"%x\r\n" % len(data) + data + b"\r\n"
            try:
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n"
                                   b"Transfer-Encoding: chunked\r\n\r\n"
                                   + chunk(b'{"type":"event","event":{"kind":"presentFinger"}}\n'))
                if mode == "endless-events":
                    while True:
                        time.sleep(0.3)
                        connection.sendall(chunk(b'{"type":"event","event":{"kind":"fingerDetected"}}\n'))
                elif mode == "slow-bytes":
                    connection.sendall(b"100000\r\n")
                    while True:
                        time.sleep(0.3)
                        connection.sendall(b"x")
                elif mode == "huge-line":
                    connection.sendall(chunk(b'{"type":"event","event":{"kind":"' + b"x" * 100000))
                    time.sleep(30)
                else:
                    # Controls as JSON must write them (escaped), bytes of 0x80 and above raw.
                    message = b"locked \\u001b[2J\\u001b]0;owned\\u0007 \x9b31m \xc2\x9b \xe2\x80\xae done"
                    connection.sendall(chunk(b'{"type":"result","ok":false,"error":{"code":-8,"message":"'
                                             + message + b'"}}\n') + b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
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
