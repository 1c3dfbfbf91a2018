#!/usr/bin/env python3
"""The kiosk on libfprint's virtual_image: how much of an idle hour the reader is ready, how long
a touch or a PIN takes to become a welcome, and how soon a tap on the screen arms a resting reader.

    python3 bench/kiosk.py --bin .build/release [--minutes 60] [--touches 20] [--server]
                           [--prints 100,1000] [--pins 20] [--rests 10] [--rest-reader virtual_image]

The real fpbridged (test mode, virtual_image, galleries of enrolled synthetic fingers from
bench/gallery.py) and the real fpbridge-kiosk; the page's state is read from the kiosk's
/events stream, the reader's heat from fpbridged's GET /v1/reader once a second.

1. Idle: nobody touches for --minutes. Availability is the share of the time the kiosk was
   `ready` (identify armed); cut-offs are the samples in which libfprint held the reader as
   hot (the aim: none). libfprint's model allows at most 47.5 % (scanning right up to the
   cut-off); the kiosk keeps a margin for whoever touches the screen.
2. Touches without a login server: a matching image (the first of 10 prints) played on the
   reader once the kiosk is ready; the time from the image to the kiosk's `welcome`.
3. A tap on a resting reader: the kiosk rests an image reader between scan bursts (docs/kiosk.md,
   "Always ready without overheating"); once it is `resting`, the page's tap (POST /wake) and the
   time to `ready` on /events, over --rests rests (the first rest of a cold reader comes after
   about 165 s armed). After each tap that armed a scan, the finger is played and the welcome
   awaited, as the person at the screen would. `--rest-reader fake` takes fpbridged's fake
   reader held at heat 0.72 instead (a rest at once, every one with a tap scan): the smoke's
   cheap way through this part; its figures are not virtual_image's.
4. With --server, for each gallery size of --prints: the gallery plus zz-alice (NIST's whorl,
   passcode 2468), bound to a fresh fpbridge-server (SQLite, loopback). fpbridge offers the prints
   in user-name order, so zz-alice's print is the last (the bench reads the order from the state
   directory and says her position); `fpbridge identify` then must compare every print before
   its match ("Compared with X of Y"; fewer would mean someone earlier matched). A welcome is
   identify-and-prove over the whole gallery plus the server's kiosk login (challenge, proof
   checked, session): median, p90 (nearest rank), min and max over --touches.
5. With --server, PIN to welcome on the largest gallery's kiosk: POST /pin with zz-alice's right
   PIN as the page sends it, timed to the answer (a PIN's welcome is the answer to the page that
   typed it, with the server's session; the event stream carries only the reader's results).
Prints figures; asserts nothing.
"""
import argparse
import json
import math
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
import urllib.error
import urllib.request

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
import gallery  # noqa: E402
from pgm import read_pgm  # noqa: E402
import run as bench_run  # noqa: E402

WHORL = os.path.join(bench_run.ROOT, "..", "shared", "prints", "whorl.pgm")
# The bound user, named to sort after the gallery's g000, g001…: fpbridge offers everyone's
# prints in user-name order (PrintStore.userNames, byte order) and stops at the first match,
# so this finger is compared last of all.
BOUND_USER = "zz-alice"
PASSCODE = "2468"


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


def post(url, body=None, timeout=30):
    """POSTs JSON (or nothing); returns the status and the decoded answer (None when empty)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST",
                                     headers={"Content-Type": "application/json"} if data is not None else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    return status, (json.loads(text) if text else None)


def summary(times):
    """median, p90 (nearest rank), min, max and n of a list of milliseconds."""
    ordered = sorted(times)
    p90 = ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]
    return (f"median {statistics.median(ordered):.0f} ms, p90 {p90:.0f}, min {ordered[0]:.0f}, "
            f"max {ordered[-1]:.0f}, n {len(ordered)}")


class KioskWatch:
    """The kiosk's /events stream on a thread: every state with the time it began, its message
    and its user."""

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
                snapshot = json.loads(line[5:])
                state = snapshot.get("state")
                with self.changed:
                    # A new result (the next person's welcome) counts even in the same state.
                    if (not self.states or self.states[-1][1] != state
                            or self.states[-1][4] != snapshot.get("result")):
                        self.states.append((time.monotonic(), state, snapshot.get("message"), snapshot.get("user"),
                                            snapshot.get("result")))
                    self.changed.notify_all()

    def entry(self, state, after, timeout):
        """The (time, state, message, user, result) the kiosk was in `state` at or after `after` (the
        state it is in counts, its time then `after`); None when it did not come within `timeout`."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for index, (at, seen, message, user, result) in enumerate(self.states):
                    current = index + 1 == len(self.states)
                    if seen == state and (at >= after or current):
                        return max(at, after), seen, message, user, result
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)

    def wait_for(self, state, after, timeout):
        """When the kiosk was in `state` at or after `after` (the state it is in counts)."""
        found = self.entry(state, after, timeout)
        return None if found is None else found[0]

    def shares(self, start, end):
        with self.lock:
            states = [(at, state) for at, state, *_ in self.states]
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


def fpbridge_as(bin_dir, service_socket, state, user):
    return [os.path.join(bin_dir, "fpbridge"), "--service", service_socket, "--state-dir", state, "--user", user]


def bound_user(bin_dir, work, service_socket, image_socket, state, user, tag):
    """`user` enrolled from NIST's whorl with passcode 2468, an account at a fresh fpbridge-server
    (SQLite, loopback) and this device bound to it; returns the server's URL and its process."""
    fpbridge = fpbridge_as(bin_dir, service_socket, state, user)
    subprocess.run(fpbridge + ["passcode", "set", "--passcode-stdin"], input=(PASSCODE + "\n").encode(), check=True,
                   stdout=subprocess.DEVNULL)
    player = threading.Thread(target=play_frames, args=(image_socket, WHORL, 5))
    player.start()
    subprocess.run(fpbridge + ["enroll", "--finger", "right-index", "--passcode-stdin"], input=(PASSCODE + "\n").encode(),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    player.join()
    out = os.path.join(work, f"server-{tag}.out")
    server = subprocess.Popen([os.path.join(bin_dir, "fpbridge-server"), "--port", "0", "--database",
                               os.path.join(work, f"server-{tag}.sqlite"), "--password-cost", "10"],
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
        subprocess.run(fpbridge + ["account", step, "--password-stdin", "--server", url, "--account", user],
                       input=b"correct horse battery\n", check=True, stdout=subprocess.DEVNULL)
    return url, server


def gallery_position(state, user):
    """Where `user`'s first print is in the order fpbridge offers prints to the matcher, and how
    many there are: users in name order (PrintStore.userNames: the names sorted, byte order for
    these ASCII names), each user's print files in order (Gallery.identification)."""
    prints = os.path.join(state, "prints")
    position, total = None, 0
    for name in sorted(entry for entry in os.listdir(prints) if not entry.startswith(".")):
        for folder, subfolders, files in sorted(os.walk(os.path.join(prints, name))):
            subfolders.sort()
            for file in sorted(f for f in files if f.endswith(".json")):
                total += 1
                if name == user and position is None:
                    position = total
    return position, total


def compared_count(bin_dir, service_socket, image_socket, state, user):
    """`fpbridge identify` with the whorl played: how many prints it compared ("Compared with X
    of Y") and whether it found `user`. The search stops at the first match in gallery order
    (on every core: a small gallery may be compared whole even when the match is first), so it
    compares at least as many as the match's position; fewer means someone earlier matched.
    Also warms fpbridged's prepared prints for the kiosk."""
    player = threading.Thread(target=play_frames, args=(image_socket, WHORL, 1))
    player.start()
    result = subprocess.run(fpbridge_as(bin_dir, service_socket, state, user) + ["identify"],
                            capture_output=True, text=True, timeout=120)
    player.join()
    words = result.stdout + result.stderr
    compared = None
    for line in words.splitlines():
        if "Compared with" in line:
            fields = line.split()
            compared = (int(fields[fields.index("with") + 1]), int(fields[fields.index("of") + 1]))
    found = user if user in result.stdout else None
    return compared, found, words.strip()


def start_service(bin_dir, work, state, tag, reader="libfprint:virtual_image"):
    """fpbridged in test mode on its own virtual_image socket; returns the process and both sockets."""
    image_socket = os.path.join(work, f"vi-{tag}.sock")
    service_socket = os.path.join(work, f"s-{tag}.sock")
    env = dict(os.environ, FP_VIRTUAL_IMAGE=image_socket, FP_DRIVERS_WHITELIST="virtual_image",
               FP_DRIVERS_ALLOWLIST="virtual_image")
    log = open(os.path.join(work, f"fpbridged-{tag}.log"), "w")
    process = subprocess.Popen([os.path.join(bin_dir, "fpbridged"), "--socket", service_socket, "--state-dir", state,
                                "--test-mode", "--reader", reader], env=env, stdout=log, stderr=log)
    for _ in range(1200):
        if os.path.exists(service_socket) or process.poll() is not None:
            break
        time.sleep(0.05)
    if not os.path.exists(service_socket):
        raise SystemExit(f"bench/kiosk.py: fpbridged did not start (see {log.name})")
    return process, service_socket, image_socket


def start_kiosk(bin_dir, work, service_socket, tag, server=None):
    """fpbridge-kiosk on a free loopback port, answering; returns the process and its URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(os.path.join(work, f"kiosk-{tag}.log"), "w")
    process = subprocess.Popen([os.path.join(bin_dir, "fpbridge-kiosk"), "--service", service_socket,
                                "--listen", f"127.0.0.1:{port}"] + (["--server", server] if server else []),
                               stdout=log, stderr=log)
    for _ in range(400):
        try:
            urllib.request.urlopen(url + "/", timeout=1).read()
            break
        except OSError:
            time.sleep(0.05)
    return process, url


def stop(process):
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def touch_once(watch, image_socket, image):
    """One finger on the armed kiosk: when it was played, and the welcome's entry (None when no
    welcome came within 30 s)."""
    time.sleep(1)  # the identify is armed in fpbridged, not only announced
    touched = time.monotonic()
    play_image(image_socket, image)
    return touched, watch.entry("welcome", touched, 30)


def touches(watch, image_socket, image, count, label, user=None):
    """Touch to welcome, `count` rounds: the image played once the kiosk is armed. With `user`, a
    welcome of anyone else is counted as a false match and left out of the figures."""
    times, missing, others = [], 0, []
    for _ in range(count):
        if watch.wait_for("ready", time.monotonic(), 600) is None:
            print("touch: the kiosk never became ready", file=sys.stderr)
            break
        touched, welcome = touch_once(watch, image_socket, image)
        if welcome is None:
            missing += 1
            print("touch: no welcome within 30 s", file=sys.stderr)
            continue
        if user is not None and welcome[3] != user:
            others.append(welcome[3])
            continue
        times.append(1000 * (welcome[0] - touched))
    trouble = (f"; {missing} with no welcome within 30 s" if missing else "") + \
              (f"; {len(others)} welcomed someone else: {', '.join(sorted(set(map(str, others))))}" if others else "")
    if times:
        print(f"touch to welcome, {label}: {summary(times)}{trouble}", flush=True)
    else:
        print(f"touch to welcome, {label}: no welcome{trouble}", flush=True)


def pins(kiosk, user, count):
    """PIN to welcome: POST /pin with the right PIN as the page sends it, timed to its answer."""
    times, refused = [], []
    sessions = 0
    for _ in range(count):
        started = time.monotonic()
        status, answer = post(kiosk + "/pin", {"user": user, "pin": PASSCODE})
        elapsed = 1000 * (time.monotonic() - started)
        if status == 200 and answer and answer.get("ok") and answer.get("user") == user:
            times.append(elapsed)
            sessions += bool(answer.get("session"))
        else:
            refused.append(f"{status} {(answer or {}).get('message')}")
        time.sleep(0.2)  # the next person at the pad
    trouble = f"; refused {len(refused)}: {', '.join(sorted(set(refused)))}" if refused else ""
    if times:
        print(f"PIN to welcome (POST /pin to its answer, the right PIN, a session at the login server): "
              f"{summary(times)}; {sessions} of {len(times)} answers carried a session{trouble}", flush=True)
    else:
        print(f"PIN to welcome: no PIN accepted{trouble}", flush=True)


def taps(watch, kiosk, count, label, image_socket=None, image=None, first_rest_limit=420):
    """A tap on a resting reader (POST /wake, as the page sends it on any touch of the screen or
    key) to `ready` on /events, over `count` rests. A rest's message says whether a tap can arm
    a scan now (restingTap) or only the rest's end will (resting: too warm even for the short
    scan kept for someone at the screen). After a tap that armed a scan, the finger (`image`)
    is played once the identify is armed, and its welcome awaited, as the person would."""
    started = time.monotonic()
    tapped_ready, untapped_ready, welcomed = [], [], []
    rests, tappable, missing, unwelcomed, first_rest = 0, 0, 0, 0, None
    after = time.monotonic()
    for index in range(count):
        limit = first_rest_limit if index == 0 else 300
        rest = watch.entry("resting", after, limit)
        if rest is None:
            print(f"tap to ready, {label}: the kiosk did not rest within {limit} s", file=sys.stderr)
            break
        if first_rest is None:
            first_rest = rest[0] - started
        rests += 1
        can_tap = rest[2] == "restingTap"
        tappable += can_tap
        time.sleep(1.5)  # someone walks up during the rest
        tapped = time.monotonic()
        status, _ = post(kiosk + "/wake")
        ready = watch.wait_for("ready", tapped, 30 if can_tap else 240)
        if ready is None or status != 204:
            missing += 1
            print(f"tap: no ready (status {status}, {rest[2]})", file=sys.stderr)
            after = time.monotonic()
            continue
        (tapped_ready if can_tap else untapped_ready).append(1000 * (ready - tapped))
        after = ready
        if can_tap and image_socket and image:
            touched, welcome = touch_once(watch, image_socket, image)
            if welcome is None:
                unwelcomed += 1
                after = time.monotonic()
            else:
                welcomed.append(1000 * (welcome[0] - touched))
                after = welcome[0]
    line = f"tap to ready, {label}: {rests} rests, {tappable} with a tap scan available"
    if first_rest is not None:
        line += f" (first rest {first_rest:.0f} s after this part began)"
    if tapped_ready:
        line += f"; tap to ready: {summary(tapped_ready)}"
    if untapped_ready:
        line += f"; rests too warm for a tap scan, tap to ready (the rest's end): {summary(untapped_ready)}"
    if welcomed:
        line += f"; then touch to welcome: {summary(welcomed)}"
    if missing:
        line += f"; {missing} taps with no ready"
    if unwelcomed:
        line += f"; {unwelcomed} touches after a tap with no welcome within 30 s"
    print(line, flush=True)


def build_galleries(sizes, work):
    """The gallery for these sizes: the cached one of 10, 100 and 1,000 prints (bench/run.py's)
    when they fit in it, else one of their own."""
    wanted = sorted(set(sizes) | {10})
    if wanted == [10]:
        return gallery.build([10], work, 40)
    if set(wanted) <= {10, 100, 1000}:
        return gallery.build([10, 100, 1000], work, 120)
    return gallery.build(wanted, work, 120)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(bench_run.ROOT, ".build", "release"),
                        help="the folder with fpbridged and fpbridge-kiosk")
    parser.add_argument("--minutes", type=float, default=60, help="the idle stretch (default 60)")
    parser.add_argument("--touches", type=int, default=20, help="rounds of touch-to-welcome for each path (default 20)")
    parser.add_argument("--prints", default="100,1000",
                        help="gallery sizes for the touches through the login server, comma-separated (default 100,1000)")
    parser.add_argument("--pins", type=int, default=20, help="rounds of PIN-to-welcome (default 20)")
    parser.add_argument("--rests", type=int, default=10, help="rests of the reader tapped (default 10)")
    parser.add_argument("--rest-reader", choices=["virtual_image", "fake"], default="virtual_image",
                        help="where the taps are measured: the kiosk on virtual_image (waits for its heat, about "
                             "165 s armed from cold), or fpbridged's fake reader held warm (a rest at once; the smoke's)")
    parser.add_argument("--server", action="store_true",
                        help="also touches and PINs through a login server: the gallery plus zz-alice bound to a fresh "
                             "fpbridge-server (needs fpbridge and fpbridge-server in --bin, and ../shared/prints)")
    arguments = parser.parse_args()
    try:
        sizes = [int(size) for size in arguments.prints.split(",") if size.strip()]
    except ValueError:
        raise SystemExit(f"bench/kiosk.py: --prints takes sizes like 100,1000, not {arguments.prints!r}")
    if not sizes or min(sizes) < 1:
        raise SystemExit("bench/kiosk.py: --prints needs at least one size of 1 or more")
    for name in ["fpbridged", "fpbridge-kiosk"] + (["fpbridge", "fpbridge-server"] if arguments.server else []):
        if not os.access(os.path.join(arguments.bin, name), os.X_OK):
            raise SystemExit(f"bench/kiosk.py: no {name} in {arguments.bin}; build it first (scripts/build-release.sh --all)")
    if arguments.server and not os.path.exists(WHORL):
        raise SystemExit(f"bench/kiosk.py: --server needs NIST's whorl at {os.path.normpath(WHORL)}")

    work = tempfile.mkdtemp(prefix="fpbridge-kiosk-bench-")
    processes = []

    def started(process):
        processes.append(process)
        return process

    def stop_all():
        while processes:
            stop(processes.pop())

    try:
        bench_run.compile_floor(work)
        built = build_galleries(sizes if arguments.server else [10], work)
        state = os.path.join(work, "state-10")
        shutil.copytree(built.state_dir(10), state)
        os.chmod(state, 0o700)
        service, service_socket, image_socket = start_service(arguments.bin, work, state, "10")
        started(service)
        kiosk_process, kiosk = start_kiosk(arguments.bin, work, service_socket, "10")
        started(kiosk_process)
        watch = KioskWatch(kiosk)

        # 1. The idle stretch.
        if arguments.minutes > 0:
            idle(arguments.minutes, service_socket, watch)

        # 2. Touch to welcome, the kiosk identifying.
        touches(watch, image_socket, built.probe(10, "first"), arguments.touches,
                "identify through fpbridged and the kiosk, no login server (virtual_image, 10 prints, "
                "the touched one first)")

        # 3. A tap on the resting reader: here, warm after the idle stretch when there was one.
        if arguments.rests > 0:
            if arguments.rest_reader == "fake":
                stop_all()
                script = os.path.join(work, "warm.txt")
                with open(script, "w") as file:
                    file.write("set heat 0.72\n")  # 7 s of scanning left: under the kiosk's margin, over a tap's
                fake_state = os.path.join(work, "state-fake")
                os.makedirs(fake_state, mode=0o700)
                service, fake_socket, _ = start_service(arguments.bin, work, fake_state, "fake", "fake:" + script)
                started(service)
                kiosk_process, fake_kiosk = start_kiosk(arguments.bin, work, fake_socket, "fake")
                started(kiosk_process)
                taps(KioskWatch(fake_kiosk), fake_kiosk, arguments.rests,
                     "fpbridged's fake reader held at heat 0.72 (not virtual_image's figures)", first_rest_limit=60)
            else:
                taps(watch, kiosk, arguments.rests, "virtual_image, no login server", image_socket,
                     built.probe(10, "first"))

        # 4. Through a login server, for each gallery size: identify-and-prove, then the kiosk login.
        if arguments.server:
            kiosk = None
            for size in sizes:
                stop_all()
                state = os.path.join(work, f"state-{size}-server")
                shutil.copytree(built.state_dir(size), state)
                os.chmod(state, 0o700)
                service, service_socket, image_socket = start_service(arguments.bin, work, state, f"{size}-server")
                started(service)
                url, server = bound_user(arguments.bin, work, service_socket, image_socket, state, BOUND_USER, str(size))
                started(server)
                position, total = gallery_position(state, BOUND_USER)
                compared, found, words = compared_count(arguments.bin, service_socket, image_socket, state, BOUND_USER)
                if compared is None or found is None or compared[0] < position or compared[1] != total:
                    print(f"gallery of {size}: fpbridge identify did not find {BOUND_USER} at position {position} of "
                          f"{total} as expected: {words}", file=sys.stderr)
                where = (f"at position {position} of {total} in the order fpbridge offers them, "
                         + (f"fpbridge identify compared {compared[0]} of {compared[1]}" if compared
                            else "fpbridge identify did not say how many it compared"))
                kiosk_process, kiosk = start_kiosk(arguments.bin, work, service_socket, f"{size}-server", server=url)
                started(kiosk_process)
                touches(KioskWatch(kiosk), image_socket, WHORL, arguments.touches,
                        f"identify-and-prove and fpbridge-server's kiosk login (SQLite, loopback), {size} prints + "
                        f"{BOUND_USER}'s, hers {where}", user=BOUND_USER)

            # 5. PIN to welcome on the last gallery's kiosk, with the session.
            if arguments.pins > 0 and kiosk:
                pins(kiosk, BOUND_USER, arguments.pins)
    finally:
        stop_all()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
