#!/usr/bin/env python3
"""The kiosk on libfprint's virtual_image: how much of an idle hour the reader is ready, and
how long a touch takes to become a welcome.

    python3 bench/kiosk.py --bin .build/release [--minutes 60] [--touches 10] [--server]

The real fpbridged (test mode, virtual_image, a gallery of 10 enrolled fingers from
bench/gallery.py) and the real fpbridge-kiosk; the page's state is read from the kiosk's
/events stream, the reader's heat from fpbridged's GET /v1/reader once a second.

1. Idle: nobody touches for --minutes. Availability is the share of the time the kiosk was
   `ready` (identify armed); cut-offs are the samples in which libfprint held the reader as
   hot (the aim: none). libfprint's model allows at most 47.5 % (scanning right up to the
   cut-off); the kiosk keeps a margin for whoever touches the screen.
2. Touches: a matching image played on the reader once the kiosk is ready; the time from the
   image to the kiosk's `welcome` (median and spread over --touches rounds).
3. With --server, the same touches through a login server: alice (NIST's whorl) enrolled and
   bound to a fresh fpbridge-server, the kiosk restarted with --server, so that a welcome is
   identify-and-prove plus the server's kiosk login (challenge, proof checked, session).
Prints figures; asserts nothing.
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
import gallery  # noqa: E402
from pgm import read_pgm  # noqa: E402
import run as bench_run  # noqa: E402


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def unix_get(path, url):
    with socket.socket(socket.AF_UNIX) as connection:
        connection.settimeout(5)
        connection.connect(path)
        connection.sendall(f"GET {url} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := connection.recv(65536):
            data += chunk
    return json.loads(data.split(b"\r\n\r\n", 1)[1])


def play_image(path, image):
    width, height, pixels = read_pgm(image)
    with socket.socket(socket.AF_UNIX) as connection:
        connection.connect(path)
        connection.sendall(struct.pack("=ii", width, height) + pixels)
        time.sleep(0.5)


class KioskWatch:
    """The kiosk's /events stream on a thread: every state with the time it began."""

    def __init__(self, url):
        self.states = []
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.thread = threading.Thread(target=self.follow, args=(url,), daemon=True)
        self.thread.start()

    def follow(self, url):
        with urllib.request.urlopen(url + "/events", timeout=3600 * 4) as stream:
            for raw in stream:
                line = raw.decode().strip()
                if not line.startswith("data:"):
                    continue
                state = json.loads(line[5:]).get("state")
                with self.changed:
                    if not self.states or self.states[-1][1] != state:
                        self.states.append((time.monotonic(), state))
                    self.changed.notify_all()

    def wait_for(self, state, after, timeout):
        """When the kiosk was in `state` at or after `after` (the state it is in counts)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for index, (at, seen) in enumerate(self.states):
                    current = index + 1 == len(self.states)
                    if seen == state and (at >= after or current):
                        return max(at, after)
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)

    def shares(self, start, end):
        with self.lock:
            states = list(self.states)
        totals = {}
        for index, (at, state) in enumerate(states):
            until = states[index + 1][0] if index + 1 < len(states) else end
            begin, finish = max(at, start), min(until, end)
            if finish > begin:
                totals[state] = totals.get(state, 0) + finish - begin
        return totals


def idle(minutes, service_socket, watch):
    """Nobody touches for `minutes`: the share of the time the kiosk is ready, and the hot samples."""
    start = time.monotonic()
    end = start + minutes * 60
    samples, hot, heats = 0, 0, []
    while time.monotonic() < end:
        reader = unix_get(service_socket, "/v1/reader")["reader"]
        samples += 1
        hot += reader.get("temperature") == "hot"
        heats.append(reader.get("heat") or 0)
        time.sleep(1)
    shares = watch.shares(start, end)
    total = end - start
    ready = shares.get("ready", 0) + shares.get("reading", 0)
    print(f"idle kiosk on virtual_image, {minutes:g} min: reader ready {100 * ready / total:.1f} % of the time; "
          f"thermal cut-offs: {hot} of {samples} one-second samples hot; heat {min(heats):.3f} to {max(heats):.3f}; "
          f"states: " + ", ".join(f"{name} {100 * seconds / total:.1f} %" for name, seconds in sorted(shares.items())), flush=True)


def play_frames(path, image, count):
    """`count` frames of one finger on one connection, paced as virtual_image needs them (enrollment)."""
    width, height, pixels = read_pgm(image)
    with socket.socket(socket.AF_UNIX) as connection:
        for _ in range(200):
            try:
                connection.connect(path)
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(2)
        for _ in range(count):
            connection.sendall(struct.pack("=ii", width, height) + pixels)
            time.sleep(0.6)
        time.sleep(0.5)


def bound_alice(bin_dir, work, service_socket, image_socket, state):
    """alice enrolled from NIST's whorl with passcode 2468, an account at a fresh fpbridge-server
    (SQLite, loopback) and this device bound to it; returns the server's URL and its process."""
    fpbridge = [os.path.join(bin_dir, "fpbridge"), "--service", service_socket, "--state-dir", state, "--user", "alice"]
    subprocess.run(fpbridge + ["passcode", "set", "--passcode-stdin"], input=b"2468\n", check=True, stdout=subprocess.DEVNULL)
    player = threading.Thread(target=play_frames, args=(image_socket, WHORL, 5))
    player.start()
    subprocess.run(fpbridge + ["enroll", "--finger", "right-index", "--passcode-stdin"], input=b"2468\n", check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    player.join()
    out = os.path.join(work, "server.out")
    server = subprocess.Popen([os.path.join(bin_dir, "fpbridge-server"), "--port", "0", "--database",
                               os.path.join(work, "server.sqlite"), "--password-cost", "10"],
                              stdout=open(out, "w"), stderr=subprocess.DEVNULL)
    url = None
    for _ in range(200):
        text = open(out).read()
        if "listening on" in text:
            url = text.split("listening on ", 1)[1].split()[0]
            break
        time.sleep(0.05)
    if url is None:
        raise SystemExit("bench/kiosk.py: fpbridge-server did not start")
    for step in ["register", "bind"]:
        subprocess.run(fpbridge + ["account", step, "--password-stdin", "--server", url, "--account", "alice"],
                       input=b"correct horse battery\n", check=True, stdout=subprocess.DEVNULL)
    return url, server


def touches(watch, image_socket, image, count, label):
    """Touch to welcome, `count` rounds: the image played once the kiosk is armed."""
    times = []
    for _ in range(count):
        if watch.wait_for("ready", time.monotonic(), 600) is None:
            print("touch: the kiosk never became ready", file=sys.stderr)
            break
        time.sleep(1)  # the identify is armed in fpbridged, not only announced
        touched = time.monotonic()
        play_image(image_socket, image)
        welcomed = watch.wait_for("welcome", touched, 30)
        if welcomed is None:
            print("touch: no welcome within 30 s", file=sys.stderr)
            continue
        times.append(1000 * (welcomed - touched))
    if times:
        print(f"touch to welcome, {label}: median {statistics.median(times):.0f} ms, min {min(times):.0f}, "
              f"max {max(times):.0f} over {len(times)} touches", flush=True)


WHORL = os.path.join(bench_run.ROOT, "..", "shared", "prints", "whorl.pgm")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(bench_run.ROOT, ".build", "release"),
                        help="the folder with fpbridged and fpbridge-kiosk")
    parser.add_argument("--minutes", type=float, default=60, help="the idle stretch (default 60)")
    parser.add_argument("--touches", type=int, default=10, help="rounds of touch-to-welcome (default 10)")
    parser.add_argument("--server", action="store_true",
                        help="also touches through a login server: alice bound to a fresh fpbridge-server (needs fpbridge "
                             "and fpbridge-server in --bin, and ../shared/prints)")
    arguments = parser.parse_args()
    for name in ["fpbridged", "fpbridge-kiosk"] + (["fpbridge", "fpbridge-server"] if arguments.server else []):
        if not os.access(os.path.join(arguments.bin, name), os.X_OK):
            raise SystemExit(f"bench/kiosk.py: no {name} in {arguments.bin}; build it first (scripts/build-release.sh --all)")

    work = tempfile.mkdtemp(prefix="fpbridge-kiosk-bench-")
    processes = []
    try:
        bench_run.compile_floor(work)
        built = gallery.build([10], lambda name: os.path.join(work, name), 40)
        state = os.path.join(work, "state")
        shutil.copytree(built.state_dir(10), state)
        os.chmod(state, 0o700)
        image_socket = os.path.join(work, "vi.sock")
        service_socket = os.path.join(work, "s.sock")
        env = dict(os.environ, FP_VIRTUAL_IMAGE=image_socket, FP_DRIVERS_WHITELIST="virtual_image",
                   FP_DRIVERS_ALLOWLIST="virtual_image")
        log = open(os.path.join(work, "fpbridged.log"), "w")
        processes.append(subprocess.Popen([os.path.join(arguments.bin, "fpbridged"), "--socket", service_socket,
                                           "--state-dir", state, "--test-mode", "--reader", "libfprint:virtual_image"],
                                          env=env, stdout=log, stderr=log))
        while not os.path.exists(service_socket):
            time.sleep(0.05)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        kiosk_log = open(os.path.join(work, "kiosk.log"), "w")
        processes.append(subprocess.Popen([os.path.join(arguments.bin, "fpbridge-kiosk"), "--service", service_socket,
                                           "--listen", f"127.0.0.1:{port}"], stdout=kiosk_log, stderr=kiosk_log))
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/", timeout=1).read()
                break
            except OSError:
                time.sleep(0.05)
        watch = KioskWatch(url)

        # 1. The idle stretch.
        if arguments.minutes > 0:
            idle(arguments.minutes, service_socket, watch)

        # 2. Touch to welcome, the kiosk identifying.
        touches(watch, image_socket, built.probe(10, "first"), arguments.touches,
                "identify through fpbridged and the kiosk (virtual_image, 10 prints)")

        # 3. The same with a login server: identify-and-prove, then the server's kiosk login.
        if arguments.server and os.path.exists(WHORL):
            processes[-1].terminate()
            processes[-1].wait(5)
            url, server = bound_alice(arguments.bin, work, service_socket, image_socket, state)
            processes.append(server)
            port = free_port()
            kiosk = f"http://127.0.0.1:{port}"
            processes.append(subprocess.Popen([os.path.join(arguments.bin, "fpbridge-kiosk"), "--service", service_socket,
                                               "--listen", f"127.0.0.1:{port}", "--server", url],
                                              stdout=kiosk_log, stderr=kiosk_log))
            for _ in range(200):
                try:
                    urllib.request.urlopen(kiosk + "/", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.05)
            touches(KioskWatch(kiosk), image_socket, WHORL, arguments.touches,
                    "identify-and-prove and fpbridge-server's kiosk login (SQLite, loopback; 11 prints)")
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
