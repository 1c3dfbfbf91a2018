#!/usr/bin/python3
"""fpbridge against its anchors, measured side by side in one run.

    bench/run.py [--rounds N] [--binary PATH] [--smoke]

Anchors: the C floor (bench/c, the least a program does with libfprint) and
fprintd, what Linux users run today, headless on a private D-Bus bus with
python3-dbusmock's polkitd template. Every command is one process, timed from
spawn to exit, with its peak resident set. The commands of a row run
interleaved, round after round, so that a machine busy with something else
slows all of them alike; each figure is the median with min and max, and the
ratio is fpbridge's median over the anchor's.

Readers: libfprint's virtual_device, fingers played by bench/c/vdrive.
Standard library only: run it with Debian's /usr/bin/python3 (bench/run.sh does).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import crosscheck
import gallery
from figures import milliseconds, ratios

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
PASSCODE = b"2468\n"


def compile_floor(out):
    """Builds the C programs with cc and pkg-config, as a user of libfprint would."""
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libfprint-2"], check=True,
                           capture_output=True, text=True).stdout.split()
    for name in ["floor-enumerate", "floor-verify", "floor-enroll", "floor-identify", "gallery-enroll", "gallery-score"]:
        subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", os.path.join(out, name),
                        os.path.join(BENCH, "c", name + ".c")] + flags, check=True)
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", os.path.join(out, "vdrive"),
                    os.path.join(BENCH, "c", "vdrive.c")], check=True)


class Fprintd:
    """fprintd on a private bus that stands in for the system bus, polkit mocked to allow.

    With `fpbridged` (the path of the binary), fpbridged serves fprintd's D-Bus API on that
    bus instead (--dbus on, test mode, its own state): the same clients against the other daemon."""

    def __init__(self, work, fpbridged=None):
        self.work = work
        self.fpbridged = fpbridged
        self.name = "fpbridged" if fpbridged else "fprintd"
        self.processes = []
        self.socket = os.path.join(work, f"{self.name}-vd.sock")

    def start(self):
        bus = subprocess.Popen(["dbus-daemon", "--session", "--print-address=1", "--nofork", "--nopidfile"],
                               stdout=subprocess.PIPE, text=True)
        self.processes.append(bus)
        self.address = bus.stdout.readline().strip()
        env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address)
        self.env = env
        polkit = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--system", "--template", "polkitd"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.processes.append(polkit)
        self.call_until_ready(["gdbus", "call", "--system", "-d", "org.freedesktop.PolicyKit1", "-o",
                               "/org/freedesktop/PolicyKit1/Authority", "-m",
                               "org.freedesktop.DBus.Mock.AllowUnknown", "true"])
        state = os.path.join(self.work, f"{self.name}-state")
        os.makedirs(state, mode=0o700, exist_ok=True)
        daemon_env = dict(env, FP_VIRTUAL_DEVICE=self.socket, FP_DRIVERS_WHITELIST="virtual_device",
                          STATE_DIRECTORY=state)
        argv = ["/usr/libexec/fprintd", "-t"]
        if self.fpbridged:
            argv = [self.fpbridged, "--test-mode", "--dbus", "on", "--reader", "libfprint:virtual_device",
                    "--socket", os.path.join(self.work, "fpbridged-dbus.sock"), "--state-dir", state,
                    "--reader-idle-seconds", "3600"]
        daemon = subprocess.Popen(argv, env=daemon_env, stdout=subprocess.DEVNULL,
                                  stderr=open(os.path.join(self.work, f"{self.name}.log"), "w"))
        self.processes.append(daemon)
        self.call_until_ready(["fprintd-list", os.environ.get("USER", "root")])

    def call_until_ready(self, command, wait=15):
        deadline = time.time() + wait
        while True:
            result = subprocess.run(command, env=self.env, capture_output=True)
            if result.returncode == 0:
                return
            if time.time() > deadline:
                raise SystemExit(f"bench: {' '.join(command)} failed: {result.stderr.decode()}")
            time.sleep(0.2)

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()


class Command:
    """One process to time: argv, environment, standard input."""

    # Set once the C programs are built: every command runs under vdrive, which forks
    # it from a small process and reports its own peak RSS. (wait4 on a process
    # spawned from Python reports Python's RSS for small programs: the high-water
    # mark of the memory a vfork-spawned child shared before exec counts.)
    vdrive = None
    rss_file = None

    def __init__(self, label, argv, env, stdin=None, expect=0, says=None):
        self.label, self.env, self.stdin, self.expect, self.says = label, env, stdin, expect, says
        self.argv = argv if argv[0] == Command.vdrive else [Command.vdrive, "--"] + argv
        self.argv = [self.argv[0], "--rss", Command.rss_file] + self.argv[1:]
        self.seconds, self.rss_kb = [], []

    def replacing(self, binary, other, label):
        """The same command with another binary in place of `binary`, labelled `label`."""
        argv = [other if argument == binary else argument for argument in self.argv]
        # Without the "--rss FILE" the constructor puts back.
        return Command(label, argv[:1] + argv[3:], self.env, self.stdin, self.expect, self.says)

    def run(self):
        read, write = os.pipe()
        if self.stdin:
            os.write(write, self.stdin)
        os.close(write)
        devnull = os.open(os.devnull, os.O_WRONLY)
        # A command that has to say something (who was identified) writes its stdout to a
        # file, read after the clock stops.
        output = tempfile.TemporaryFile() if self.says else None
        out = output.fileno() if output else devnull
        start = time.perf_counter()
        pid = os.posix_spawnp(self.argv[0], self.argv, self.env,
                              file_actions=[(os.POSIX_SPAWN_DUP2, read, 0), (os.POSIX_SPAWN_DUP2, out, 1),
                                            (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, status = os.waitpid(pid, 0)
        elapsed = time.perf_counter() - start
        os.close(read)
        os.close(devnull)
        code = os.waitstatus_to_exitcode(status)
        if code != self.expect:
            raise SystemExit(f"bench: '{self.label}' exited {code} (expected {self.expect}): {' '.join(self.argv)}")
        if output:
            output.seek(0)
            said = output.read().decode(errors="replace")
            output.close()
            if self.says not in said:
                raise SystemExit(f"bench: '{self.label}' said {said.strip()!r}, not {self.says!r}: {' '.join(self.argv)}")
        self.seconds.append(elapsed)
        with open(Command.rss_file) as file:
            self.rss_kb.append(int(file.read().split()[-1]))


class Row:
    def __init__(self, name, subject, anchors, bound, rounds=None, cross_check=False):
        self.name, self.subject, self.anchors, self.bound, self.rounds = name, subject, anchors, bound, rounds
        # Timed again by hyperfine after the table (bench/crosscheck.py).
        self.cross_check = cross_check

    @property
    def commands(self):
        return [self.subject] + self.anchors


def table(rows, rounds):
    # A row with fewer rounds than the rest (the 1,000-print gallery) says so in its name.
    for row in rows:
        if row.rounds and row.rounds < rounds and "rounds)" not in row.name:
            row.name += f" ({row.rounds} rounds)"
    lines = [f"| measure | command | median ms | min | max | peak RSS MB | ratio |",
             "|---|---|---:|---:|---:|---:|---|"]
    for row in rows:
        for command in row.commands:
            median, low, high = milliseconds(command.seconds)
            rss = statistics.median(command.rss_kb) / 1024
            if command is row.subject:
                ratio = ratios(row.subject.seconds, [(a.label, a.seconds) for a in row.anchors])
            else:
                ratio = "anchor"
            lines.append(f"| {row.name if command is row.subject else ''} | {command.label} | {median:.1f} | "
                         f"{low:.1f} | {high:.1f} | {rss:.1f} | {ratio} |")
    return "\n".join(lines) + f"\n\n{rounds} rounds, interleaved; ratio: fpbridge's median over the anchor's.\n"


ROUND_TRIPS = r"""
import statistics, sys, time
import dbus
bus = dbus.SystemBus()
manager = dbus.Interface(bus.get_object("net.reactivated.Fprint", "/net/reactivated/Fprint/Manager"),
                         "net.reactivated.Fprint.Manager")
device = dbus.Interface(bus.get_object("net.reactivated.Fprint", manager.GetDevices()[0]), "net.reactivated.Fprint.Device")
def timed(call, count):
    times = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, min(times) * 1000, max(times) * 1000
def pair():
    device.Claim("")
    device.Release()
count = int(sys.argv[1])
for label, call in [("GetDevices", manager.GetDevices), ("Claim + Release", pair)]:
    print(label, *("%.3f" % value for value in timed(call, count)))
"""


def round_trips(daemons, count):
    """D-Bus round trips against each daemon, from one client connection (python3-dbus)."""
    lines = ["| round trip | daemon | median ms | min | max |", "|---|---|---:|---:|---:|"]
    for daemon in daemons:
        result = subprocess.run(["/usr/bin/python3", "-c", ROUND_TRIPS, str(count)], env=daemon.env,
                                capture_output=True, text=True, check=True)
        for line in result.stdout.splitlines():
            *label, median, low, high = line.split()
            lines.append(f"| {' '.join(label)} | {daemon.name} | {median} | {low} | {high} |")
    return "\n".join(lines) + f"\n\n{count} calls each, one connection per daemon, after one call to warm up.\n"


def start_service(fpbridge, work, socket, device):
    """fpbridged beside the fpbridge binary, in test mode, on its own virtual_device; ready when its socket answers."""
    state = os.path.join(work, "service-state")
    os.makedirs(state, mode=0o700)
    env = dict(os.environ, FP_VIRTUAL_DEVICE=device, FP_DRIVERS_WHITELIST="virtual_device")
    service = subprocess.Popen([os.path.join(os.path.dirname(fpbridge), "fpbridged"), "--test-mode", "--socket", socket,
                                "--state-dir", state, "--reader-idle-seconds", "3600"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 20
    while not os.path.exists(socket):
        if service.poll() is not None or time.time() > deadline:
            raise SystemExit("bench: fpbridged did not start")
        time.sleep(0.05)
    return service


def start_identify_service(fpbridge, work, name, state, image_socket, host_matching):
    """A warm fpbridged on its own virtual_image over a gallery's state; FPBRIDGE_HOST_MATCHING=0 makes
    libfprint match instead of fpbridge's bozorth3 (the same service otherwise)."""
    socket = os.path.join(work, f"{name}.sock")
    env = dict(os.environ, FP_VIRTUAL_IMAGE=image_socket, FP_DRIVERS_WHITELIST="virtual_image",
               FP_DRIVERS_ALLOWLIST="virtual_image", FPBRIDGE_HOST_MATCHING="1" if host_matching else "0")
    service = subprocess.Popen([os.path.join(os.path.dirname(fpbridge), "fpbridged"), "--test-mode", "--socket", socket,
                                "--state-dir", state, "--reader", "libfprint:virtual_image",
                                "--reader-idle-seconds", "3600"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 20
    while not os.path.exists(socket):
        if service.poll() is not None or time.time() > deadline:
            raise SystemExit(f"bench: fpbridged ({name}) did not start")
        time.sleep(0.05)
    # No FPBRIDGE_STATE_DIR: a test-mode service would take the client's for the request's.
    client = {key: value for key, value in os.environ.items() if key != "FPBRIDGE_STATE_DIR"}
    client["FPBRIDGE_SERVICE"] = socket
    return service, client


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def identification_rows(work, floor, fpbridge, smoke, rounds, services, sizes=None):
    """fpbridge identify over galleries of synthetic fingers on virtual_image: through a warm fpbridged and
    in-process, each with fpbridge's bozorth3 (the subject) and with libfprint's matching, beside the C floor.

    Returns the rows and a note on the gallery (its genuine and false match rates) and on the services' memory.
    The services started are appended to `services` (the caller stops them)."""
    sizes = sizes or ([10] if smoke else [10, 100, 1000])
    started = time.time()
    built = gallery.build(sizes, work, scored=40 if smoke else 120)
    rows, memory = [], []
    for size in sizes:
        # Private copies of the state: fpbridge writes its attempt counters there.
        state = os.path.join(work, f"identify-state-{size}")
        shutil.copytree(built.state_dir(size), state)
        image = os.path.join(work, f"vi-{size}.sock")
        env = dict(os.environ, FP_VIRTUAL_IMAGE=image, FP_DRIVERS_WHITELIST="virtual_image",
                   FP_DRIVERS_ALLOWLIST="virtual_image", FPBRIDGE_STATE_DIR=state,
                   FPBRIDGE_READER="libfprint:virtual_image")
        libfprint_env = dict(env, FPBRIDGE_HOST_MATCHING="0")
        warm = {}
        # libfprint's matching keeps the reader in its identify action for the whole search,
        # about 50 s over 10,000 prints; virtual_image's thermal model (as a real image
        # reader's) disables a reader after about 180 s of such work, so a warm service
        # cannot run those rounds back to back. The in-process and C floor columns (a cold
        # reader in each process) keep libfprint's matching in the same run.
        libfprint_service = size < LIBFPRINT_SERVICE_LIMIT
        for host in (True, False) if libfprint_service else (True,):
            service_state = os.path.join(work, f"identify-service-{size}-{'host' if host else 'libfprint'}")
            shutil.copytree(built.state_dir(size), service_state)
            service_image = os.path.join(work, f"vi-{size}-{'host' if host else 'libfprint'}.sock")
            service, client = start_identify_service(fpbridge, work, f"identify-{size}-{'host' if host else 'libfprint'}",
                                                     service_state, service_image, host)
            services.append(service)
            warm[host] = (service, client, service_image, rss_mb(service.pid))
        for case, label, code in [("first", "match first", 0), ("last", "match last", 0), ("none", "no match", 1)]:
            probe = built.probe(size, case)
            # vdrive's own limit (60 s by default) is shorter than libfprint's identify over 10,000 prints.
            drive = lambda command, socket=image: [Command.vdrive, "--timeout", "600", "--image", socket, "--frame", probe,
                                                   "--"] + command
            fpbridge_code = 0 if code == 0 else FPBRIDGE_NO_MATCH
            # Every round names the probe's own user and finger (the C floor its position):
            # the same answer every way, not only the same exit status.
            expected = built.expected(size, case)
            if (expected is None) != (code != 0):
                raise SystemExit(f"bench: the {label} probe of {size} prints is {'not ' if expected is None else ''}enrolled")
            says = f"Identified {expected[1]} ({expected[2]})." if expected else None
            floor_says = f"match {expected[0] + 1}" if expected else "no match"
            _, host_client, host_image, _ = warm[True]
            through_libfprint_service = []
            if libfprint_service:
                _, libfprint_client, libfprint_image, _ = warm[False]
                through_libfprint_service = [Command("via fpbridged, libfprint matching",
                                                     drive([fpbridge, "identify"], libfprint_image), libfprint_client,
                                                     expect=fpbridge_code, says=says)]
            rows.append(Row(f"identify {size:,} prints: {label}",
                            Command("via fpbridged, fpbridge's bozorth3", drive([fpbridge, "identify"], host_image),
                                    host_client, expect=fpbridge_code, says=says),
                            through_libfprint_service +
                            [Command("in-process, fpbridge's bozorth3", drive([fpbridge, "identify"]), env, expect=fpbridge_code,
                                     says=says),
                             Command("in-process, libfprint matching", drive([fpbridge, "identify"]), libfprint_env,
                                     expect=fpbridge_code, says=says),
                             Command("C floor identify", drive([floor("floor-identify"), built.list_file(size)]), env,
                                     expect=code, says=floor_says)],
                            IDENTIFY_BOUNDS[case], rounds=min(rounds, 5) if size >= 1000 else None))
        memory.append((size, warm))
    rates = built.rates
    note = (f"Gallery: {rates['fingers']} synthetic fingers enrolled on virtual_image "
            f"({rates['refused_at_enroll']} refused at enrollment); genuine matches "
            f"{rates['genuine_matches']}/{rates['genuine_trials']} "
            f"({100 * rates['genuine_matches'] / max(1, rates['genuine_trials']):.1f}%), false matches "
            f"{rates['false_matches']}/{rates['impostor_trials']} impostor pairs "
            f"({100 * rates['false_matches'] / max(1, rates['impostor_trials']):.3f}%); "
            f"gallery ready in {time.time() - started:.0f} s (built: {rates['seconds']}).")
    return rows, note, memory


def memory_note(memory):
    """What the warm services hold for their galleries: resident memory grown since start, with and without
    fpbridge's tables (both keep the decoded print files)."""
    lines = ["| gallery | fpbridged RSS grown, fpbridge's bozorth3 | the same, libfprint matching | difference per 1,000 prints |",
             "|---:|---:|---:|---:|"]
    for size, warm in memory:
        if size < 100:
            continue  # a few MB of noise for a small gallery
        grown = {host: rss_mb(service.pid) - before for host, (service, _, _, before) in warm.items()}
        if False not in grown:
            lines.append(f"| {size:,} | {grown[True]:.1f} MB | not run (see the rows) | — |")
            continue
        difference = (grown[True] - grown[False]) * 1000 / size
        lines.append(f"| {size:,} | {grown[True]:.1f} MB | {grown[False]:.1f} MB | {difference:+.1f} MB |")
    return "\n".join(lines) + ("\n\nResident memory after the rounds minus at start. The difference is fpbridge's cached "
                               "pair tables less what libfprint's own matching leaves on the heap; with one table a "
                               "print (a virtual_image print repeats one sample) the two are of a size.\n")


FPBRIDGE_NO_MATCH = 1
# Galleries this large get no warm service with libfprint's matching (identification_rows says why).
LIBFPRINT_SERVICE_LIMIT = 10_000
# The rows that need the warm service: it is started only when one of them runs.
VERIFY_THROUGH_SERVICE = "verify through fpbridged (warm)"
SIGN_THROUGH_SERVICE = "sign with a key through fpbridged (warm)"
STATUS_THROUGH_SERVICE = "status through fpbridged: a client without libfprint"
FPRINTD_VERIFY_BOTH = "fprintd-verify: fpbridged's D-Bus face against fprintd (both warm)"
IDENTIFY_BOUNDS = {
    "first": "one scan; in-process also start-up and reading every print file (and, with fpbridge's bozorth3, "
             "building every print's tables); the comparisons stop at the first print",
    "last": "the same, then bozorth3 against every print before the last one matches: libfprint's on one core against "
            "each of a print's 5 samples, rebuilding both tables for each comparison; fpbridge's on both cores from cached "
            "tables, each distinct sample once (a virtual_image print repeats one)",
    "none": "the same as match last: every print compared, none matches",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--binary", default=None, help="the fpbridge binary (default: the release build)")
    parser.add_argument("--smoke", action="store_true", help="2 rounds: proves every command runs, measures nothing")
    parser.add_argument("--baseline", default=None, metavar="BINARY",
                        help="another fpbridge binary (e.g. one built before a change) run in every row beside "
                             "--binary, on the same state: a before/after in one run")
    parser.add_argument("--only", default=None, metavar="TEXT",
                        help="only the rows whose name contains TEXT (e.g. 'cold start', 'verify'): a quick before/after")
    parser.add_argument("--gallery-sizes", default=None, metavar="N,N,...",
                        type=lambda text: sorted({int(size) for size in text.split(",")}),
                        help="the identification galleries (default 10,100,1000; 10000 takes about 50 minutes to "
                             "draw, enroll and score the first time, ten times the 1,000-print gallery, then comes from the cache)")
    arguments = parser.parse_args()
    rounds = 2 if arguments.smoke else arguments.rounds
    if rounds < 1:
        parser.error("--rounds must be at least 1")
    fpbridge = arguments.binary or os.path.join(ROOT, ".build", "release", "fpbridge")
    if not os.access(fpbridge, os.X_OK):
        raise SystemExit(f"bench: no fpbridge binary at {fpbridge}; build it first (bench/run.sh does)")

    if shutil.which("hyperfine") is None:
        raise SystemExit("bench: hyperfine is not installed (apt-get install hyperfine; bench/run.sh installs it): "
                         "it times the short rows a second time after the table")
    if arguments.baseline is not None and not os.access(arguments.baseline, os.X_OK):
        parser.error(f"--baseline {arguments.baseline}: not an executable file")
    wanted = lambda row: arguments.only is None or arguments.only in row
    work = tempfile.mkdtemp(prefix="fpbridge-bench-")
    fprintd = Fprintd(work)
    bridge = Fprintd(work, fpbridged=os.path.join(os.path.dirname(fpbridge), "fpbridged"))
    identify_services = []
    try:
        compile_floor(work)
        floor = lambda name: os.path.join(work, name)
        vdrive = floor("vdrive")
        Command.vdrive, Command.rss_file = vdrive, os.path.join(work, "rss")
        user = os.environ.get("USER") or subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
        socket = os.path.join(work, "vd.sock")
        env = dict(os.environ, FP_VIRTUAL_DEVICE=socket, FP_DRIVERS_WHITELIST="virtual_device",
                   FPBRIDGE_STATE_DIR=os.path.join(work, "state"), FPBRIDGE_READER="libfprint:virtual_device")
        fprintd.start()
        fenv = dict(fprintd.env)
        bridge.start()
        benv = dict(bridge.env)

        def drive(scans, command, device=socket, after=None):
            argv = [vdrive, "--device", device]
            if after:
                argv += ["--after", after]
            for scan in scans:
                argv += ["--scan", scan]
            return argv + ["--"] + command

        five = ["p1"] * 5
        # What every verify needs: one enrolled print in each program's own store.
        setup = [
            Command("passcode", [fpbridge, "passcode", "set", "--passcode-stdin"], env, PASSCODE),
            Command("fpbridge enroll", drive(five, [fpbridge, "enroll", "--finger", "right-index", "--passcode-stdin"]),
                    env, PASSCODE),
            Command("C enroll", drive(five, [floor("floor-enroll"), user, os.path.join(work, "print.fp")]), env),
            Command("fprintd enroll", drive(five, ["fprintd-enroll", "-f", "right-index-finger", user],
                                            device=fprintd.socket, after="Enrolling"), fenv),
            Command("fprintd enroll via fpbridged", drive(five, ["fprintd-enroll", "-f", "right-index-finger", user],
                                                          device=bridge.socket, after="Enrolling"), benv),
            # biometryAny: the enroll row changes the prints each round, which would invalidate a
            # biometryCurrentSet key; the signing costs the same.
            Command("key create", [fpbridge, "key", "create", "--label", "bench", "--access-control",
                                   "biometry-any"], env, PASSCODE),
        ]
        for command in setup:
            command.run()

        # The service, warm: its libfprint context made and its reader kept open between requests.
        service_socket, service_device = os.path.join(work, "fpbridged.sock"), os.path.join(work, "vd-service.sock")
        senv = dict(os.environ, FPBRIDGE_SERVICE=service_socket, FPBRIDGE_STATE_DIR=os.path.join(work, "service-client-state"),
                    FPBRIDGE_READER="libfprint:virtual_device")
        if any(wanted(name) for name in (VERIFY_THROUGH_SERVICE, SIGN_THROUGH_SERVICE, STATUS_THROUGH_SERVICE)):
            service = start_service(fpbridge, work, service_socket, service_device)
            os.makedirs(senv["FPBRIDGE_STATE_DIR"], mode=0o700)
            for command in [
                Command("service passcode", [fpbridge, "passcode", "set", "--passcode-stdin"], senv, PASSCODE),
                Command("service enroll", drive(five, [fpbridge, "enroll", "--finger", "right-index", "--passcode-stdin"],
                                                device=service_device), senv, PASSCODE),
                Command("service key create", [fpbridge, "key", "create", "--label", "bench", "--access-control",
                                               "biometry-any"], senv, PASSCODE),
            ]:
                command.run()

        enumerate_floor = lambda: Command("C enumerate", [floor("floor-enumerate")], env)
        # A client of the service built on FPServiceClient alone (no libfprint, GLib or engine).
        probe = os.path.join(os.path.dirname(fpbridge), "fpbridge-service-probe")
        sign = [fpbridge, "key", "sign", "--label", "bench", "--data-base64", "YmVuY2htYXJr"]
        rows = [
            Row("cold start: --help", Command("fpbridge --help", [fpbridge, "--help"], env), [enumerate_floor()],
                "process start-up: dynamic loading, Swift runtime, argument parsing", cross_check=True),
            Row("cold start: status", Command("fpbridge status", [fpbridge, "status"], env), [enumerate_floor()],
                "start-up plus libfprint context and enumeration, state files read", cross_check=True),
            Row("cold start: can-evaluate", Command("fpbridge can-evaluate", [fpbridge, "can-evaluate"], env),
                [enumerate_floor()], "start-up plus enumeration, passcode, prints and counter read", cross_check=True),
            Row("enroll (virtual_device, 5 scans)",
                Command("fpbridge enroll", drive(five, [fpbridge, "enroll", "--finger", "left-index", "--replace",
                                                        "--passcode-stdin"]), env, PASSCODE),
                [Command("C floor enroll", drive(five, [floor("floor-enroll"), user, os.path.join(work, "print2.fp")]), env),
                 Command("fprintd-enroll", drive(five, ["fprintd-enroll", "-f", "left-index-finger", user],
                                                 device=fprintd.socket, after="Enrolling"), fenv)],
                "the passcode's scrypt check (N=32768) before the scans, then five scans"),
            Row("verify (virtual_device)",
                Command("fpbridge verify", drive(["p1"], [fpbridge, "verify", "--finger", "right-index"]), env),
                [Command("C floor verify", drive(["p1"], [floor("floor-verify"), os.path.join(work, "print.fp")]), env),
                 Command("fprintd-verify", drive(["p1"], ["fprintd-verify", "-f", "right-index-finger", user],
                                                 device=fprintd.socket, after="Verify started"), fenv)],
                "open + one scan + match + close; fprintd's daemon is warm, its client is one process",
                cross_check=True),
            Row(VERIFY_THROUGH_SERVICE,
                Command("fpbridge verify via fpbridged", drive(["p1"], [fpbridge, "verify", "--finger", "right-index"],
                                                                device=service_device), senv),
                [Command("fpbridge verify in-process", drive(["p1"], [fpbridge, "verify", "--finger", "right-index"]), env),
                 Command("fprintd-verify", drive(["p1"], ["fprintd-verify", "-f", "right-index-finger", user],
                                                 device=fprintd.socket, after="Verify started"), fenv)],
                "the CLI's start-up and one request on the socket; the service's context and reader are warm"),
            Row(FPRINTD_VERIFY_BOTH,
                Command("fprintd-verify via fpbridged", drive(["p1"], ["fprintd-verify", "-f", "right-index-finger", user],
                                                              device=bridge.socket, after="Verify started"), benv),
                [Command("fprintd-verify via fprintd", drive(["p1"], ["fprintd-verify", "-f", "right-index-finger", user],
                                                             device=fprintd.socket, after="Verify started"), fenv)],
                "Debian's fprintd-verify, one process: Claim, ListEnrolledFingers, VerifyStart, one scan, VerifyStop, "
                "Release; the daemons are warm, fpbridged's scan goes through the engine and its counter"),
            Row("sign with a key (virtual_device)",
                Command("fpbridge key sign", drive(["p1"], sign), env),
                [Command("fpbridge verify", drive(["p1"], [fpbridge, "verify", "--finger", "right-index"]), env)],
                "a verify, then the key's file read and decrypted and one ECDSA P-256 signature; "
                "nothing outside fpbridge signs after a match, so the anchor is fpbridge's own verify"),
            Row(SIGN_THROUGH_SERVICE,
                Command("fpbridge key sign via fpbridged", drive(["p1"], sign, device=service_device), senv),
                [Command("fpbridge key sign in-process", drive(["p1"], sign), env)],
                "the CLI's start-up and one request; the service decrypts the key after the match and signs"),
            Row(STATUS_THROUGH_SERVICE,
                Command("fpbridge-service-probe", [probe, service_socket], senv),
                [Command("fpbridge status via fpbridged", [fpbridge, "--json", "status"], senv)],
                "one status request on the socket: a program on the service client alone, against the CLI "
                "(which links libfprint, GLib and the engine) making the same request"),
        ]
        gallery_note, identify_memory = "", []
        if arguments.only is None or "identify" in arguments.only or "prints" in arguments.only:
            galleries, gallery_note, identify_memory = identification_rows(work, floor, fpbridge, arguments.smoke, rounds,
                                                                           identify_services, arguments.gallery_sizes)
            rows += galleries
        if arguments.only is not None:
            rows = [row for row in rows if wanted(row.name)]
            if not rows:
                parser.error(f"--only {arguments.only!r} names no row")
        if arguments.baseline is not None:
            for row in rows:
                if fpbridge in row.subject.argv:
                    row.anchors.insert(0, row.subject.replacing(fpbridge, arguments.baseline, row.subject.label + " (baseline)"))
        for round in range(rounds):
            for row in rows:
                if row.rounds is not None and round >= row.rounds:
                    continue
                for command in row.commands:
                    command.run()
        print(table(rows, rounds))
        if any(row.name == STATUS_THROUGH_SERVICE for row in rows):
            sizes = {name: os.path.getsize(path) / 1e6 for name, path in [("fpbridge", fpbridge), ("fpbridge-service-probe", probe)]}
            print("Sizes: " + ", ".join(f"{name} {size:.1f} MB" for name, size in sizes.items()) + "\n")
        cross_check = crosscheck.table(rows, rounds, 0 if arguments.smoke else 2, work)
        if cross_check:
            print(cross_check)
        if arguments.only is None or arguments.only in FPRINTD_VERIFY_BOTH:
            print(round_trips([bridge, fprintd], 20 if arguments.smoke else 500))
        if gallery_note:
            print(gallery_note)
        if identify_memory:
            print(memory_note(identify_memory))
        print("What bounds each row:")
        for row in rows:
            print(f"- {row.name}: {row.bound}")
    finally:
        if 'service' in locals():
            service.terminate()
            service.wait(timeout=10)
        for identify_service in identify_services:
            identify_service.terminate()
            identify_service.wait(timeout=10)
        fprintd.stop()
        bridge.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
