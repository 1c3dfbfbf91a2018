#!/usr/bin/env python3
"""Runs the package's test suites (Swift Testing) several processes at a time.

    python3 scripts/swift-test.py [--jobs N] [--fast] [--record] [--timeout S] [PATTERN...]

Each suite runs in a process of its own, its tests one after another (`--no-parallel`, as
`swift test --no-parallel` ran them): suites share process-wide state (the environment that
points libfprint's virtual readers at their sockets, signal masks, the GLib loop), so two
suites never share a process, while suites in different processes only share the machine.
Most suites spend their time waiting for the programs they start (fpbridged, fprintd, a
private bus, PostgreSQL, swtpm, Chromium), so running a few at once on two cores takes the
time of the longest chain instead of the sum.

The slowest suites start first (their times are in Tests/suite-seconds.txt; `--record`
writes this run's times there). `--fast` runs only the fast tier (Tests/fast-suites.txt: the
suites that took under 2 s when the times were recorded, nearly all of them starting no
program). PATTERN narrows to suites whose name contains it (`CLITests.Fprintd`). Builds
nothing: run `swift build --build-tests` first (FPBRIDGE_TEST_BINARY names another binary).

Prints a line per suite as it ends and a table of the slowest; a failed suite's log is
repeated at the end. Exits 1 when any suite fails or hangs (--timeout, default 900 s a suite).
"""
import argparse
import shutil
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMES = os.path.join(ROOT, "Tests", "suite-seconds.txt")
FAST = os.path.join(ROOT, "Tests", "fast-suites.txt")
FAST_SECONDS = 2.0
ISSUE_LINES = re.compile(r"recorded an issue|error: |Fatal error|crashed|caught signal|✘")


def test_binary():
    # scripts/test.sh names it while other builds hold SwiftPM's lock on .build.
    if os.environ.get("FPBRIDGE_TEST_BINARY"):
        return os.environ["FPBRIDGE_TEST_BINARY"]
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    binary = os.path.join(out, "fpbridgePackageTests.xctest")
    if not os.access(binary, os.X_OK):
        sys.exit(f"swift-test: no test binary at {binary}: run `swift build --build-tests` first")
    return binary


def suites(binary):
    """Module.Suite of every test, in the order listed (a nested suite runs with its parent)."""
    listed = subprocess.run([binary, "--testing-library", "swift-testing", "--list-tests"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.split()
    names = []
    for test in listed:
        suite = test.split("/")[0]
        if "." in suite and suite not in names:
            names.append(suite)
    if not names:
        sys.exit("swift-test: the test binary listed no tests")
    return names


def read_lines(path):
    try:
        with open(path) as f:
            return [line.split("#")[0].strip() for line in f if line.split("#")[0].strip()]
    except FileNotFoundError:
        return []


def recorded_times():
    times = {}
    for line in read_lines(TIMES):
        seconds, suite = line.split(None, 1)
        times[suite] = float(seconds)
    return times


def ran_no_test(log):
    with open(log, errors="replace") as f:
        return re.search(r"Test run with 0 tests", f.read()) is not None


def run_suite(binary, suite, timeout, logdir):
    """Runs one suite; returns (suite, status, seconds, log path)."""
    log = os.path.join(logdir, suite + ".log")
    started = time.monotonic()
    with open(log, "w") as out:
        # A session of its own, so that a hung suite's children go with it.
        process = subprocess.Popen([binary, "--testing-library", "swift-testing", "--no-parallel",
                                    "--filter", "^" + re.escape(suite) + "/"],
                                   cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = process.wait(timeout=timeout)
            status = "passed" if code == 0 else f"failed (exit {code})" if code > 0 else f"died (signal {-code})"
            if code == 0 and ran_no_test(log):
                status = "ran no test (the filter matched none: a renamed suite?)"
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            status = f"hung (killed after {timeout} s)"
    return suite, status, time.monotonic() - started, log


SIGPIPE_MARKER = "fpbridge-tests: SIGPIPE"  # Tests/CTestProcess/include/CTestProcess.h
FRAME = re.compile(r"^(?P<object>/\S+?)\((?P<symbol>[^)+]*)\+(?P<offset>0x[0-9a-f]+)\)")


def symbolized(frame):
    """One frame of backtrace_symbols_fd as function and file:line, where the toolchain's
    llvm-symbolizer and swift-demangle can tell (the test binary's own frames); else as it came."""
    match = FRAME.match(frame.strip())
    symbolizer, demangler = shutil.which("llvm-symbolizer"), shutil.which("swift-demangle")
    if not match or match["symbol"] or not symbolizer or not os.path.exists(match["object"]):
        return frame.strip()
    try:
        found = subprocess.run([symbolizer, "--obj=" + match["object"], match["offset"]], capture_output=True,
                               text=True, timeout=30).stdout.split("\n")
        if demangler:
            found = subprocess.run([demangler, "--simplified"], input="\n".join(found), capture_output=True,
                                   text=True, timeout=30).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        return frame.strip()
    function, place = (found + ["", ""])[:2]
    return f"{function.strip()} ({place.strip()})" if function.strip() and function.strip() != "??" else frame.strip()


def report_sigpipes(results):
    """Says, for each suite whose process met a SIGPIPE (CTestProcess catches it and writes the
    writer's frames), which write it was: the process went on, the write failed with EPIPE."""
    for suite, _, _, log in results:
        with open(log, errors="replace") as f:
            lines = f.read().splitlines()
        for index, line in enumerate(lines):
            if SIGPIPE_MARKER not in line:
                continue
            print(f"=== {suite}: a SIGPIPE in the test process (it went on; the write failed with EPIPE). The writer:")
            for frame in lines[index + 1:index + 25]:
                if frame.startswith("fpbridge-tests: end of"):
                    break
                print("   ", symbolized(frame))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("FPBRIDGE_TEST_JOBS", "3")),
                        help="suites at once (FPBRIDGE_TEST_JOBS, default 3)")
    parser.add_argument("--fast", action="store_true", help="only the fast tier (Tests/fast-suites.txt)")
    parser.add_argument("--record", action="store_true", help="write this run's times to Tests/suite-seconds.txt")
    parser.add_argument("--timeout", type=float, default=900, help="seconds before a suite counts as hung")
    parser.add_argument("patterns", nargs="*", help="run only suites whose name contains one of these")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")

    binary = test_binary()
    chosen = suites(binary)
    if args.fast:
        fast = set(read_lines(FAST))
        unknown = fast - set(chosen)
        if unknown:
            sys.exit(f"swift-test: {FAST} names suites that do not exist: {', '.join(sorted(unknown))}")
        chosen = [s for s in chosen if s in fast]
    if args.patterns:
        chosen = [s for s in chosen if any(p in s for p in args.patterns)]
    if not chosen:
        sys.exit("swift-test: no suite matches")
    times = recorded_times()
    # The longest first, so that no long suite starts last; a suite not timed yet counts as long.
    chosen.sort(key=lambda s: -times.get(s, 60.0))

    logdir = tempfile.mkdtemp(prefix="fpbridge-swift-test-")
    print(f"swift-test: {len(chosen)} suites, {args.jobs} at a time; logs in {logdir}", flush=True)
    started = time.monotonic()
    results = []
    lock = threading.Lock()

    def finished(future):
        suite, status, seconds, _ = result = future.result()
        with lock:
            results.append(result)
            mark = "✔" if status == "passed" else "✘"
            print(f"{mark} {seconds:7.1f}s  {suite}  {status}  [{len(results)}/{len(chosen)}]", flush=True)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for suite in chosen:
            pool.submit(run_suite, binary, suite, args.timeout, logdir).add_done_callback(finished)

    wall = time.monotonic() - started
    total = sum(r[2] for r in results)
    print(f"=== {len(results)} suites in {wall:.0f} s ({total:.0f} s of suite time, {args.jobs} at a time); the slowest:")
    for suite, status, seconds, _ in sorted(results, key=lambda r: -r[2])[:12]:
        print(f"  {seconds:7.1f}s  {suite}")

    if args.record:
        merged = recorded_times()
        merged.update({suite: seconds for suite, _, seconds, _ in results})
        with open(TIMES, "w") as f:
            f.write("# Seconds each suite took in its own process in the run that recorded them (scripts/swift-test.py\n")
            f.write("# --record, several at a time), slowest first: the runner starts the slowest first. Re-record\n")
            f.write("# when suites change much; a suite missing here counts as 60 s.\n")
            for suite, seconds in sorted(merged.items(), key=lambda kv: -kv[1]):
                f.write(f"{seconds:.1f} {suite}\n")
        if not args.patterns and not args.fast:
            with open(FAST, "w") as f:
                f.write(f"# The fast tier (scripts/swift-test.py --fast): the suites that took under {FAST_SECONDS:g} s in the\n")
                f.write("# run that recorded Tests/suite-seconds.txt, most of them without starting a program.\n")
                for suite in sorted(s for s, seconds in merged.items() if seconds < FAST_SECONDS and s in chosen):
                    f.write(suite + "\n")

    report_sigpipes(results)
    failed = [r for r in results if r[1] != "passed"]
    if failed:
        print(f"=== {len(failed)} suites failed; from their logs:")
        for suite, status, _, log in failed:
            print(f"--- {suite}: {status} ({log})")
            with open(log, errors="replace") as f:
                lines = f.read().splitlines()
            issues = [line for line in lines if ISSUE_LINES.search(line) and "passed after" not in line]
            for line in (issues or lines)[-40:]:
                print("   ", line)
        return 1
    print("swift-test: every suite passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
