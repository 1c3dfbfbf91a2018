#!/usr/bin/env python3
"""Logins per second against fpbridge-server, on SQLite and on PostgreSQL.

Each login is what a device does: a challenge, a signature by a software key (the
fingerprint is not what is measured here), and the verified assertion that returns a
session token. The load generator (fpbridge-login-bench) runs on the same machine as the
server, so both share its cores. Each row: the median of N runs with min and max.

    python3 bench/login.py --bin DIR [--runs 3] [--seconds 5] [--smoke]
"""
import argparse, json, os, re, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start_server(binary, database, log_dir):
    out = open(os.path.join(log_dir, "server.out"), "w+")
    err = open(os.path.join(log_dir, "server.err"), "w")
    # Limits raised so that the rate limiter is not what is measured.
    process = subprocess.Popen([binary, "--port", "0", "--database", database, "--password-cost", "10",
                                "--challenges-per-credential", "100000000",
                                "--challenges-per-address", "100000000", "--password-logins-per-address", "100000",
                                "--registrations-per-address", "100000"], stdout=out, stderr=err)
    deadline = time.time() + 30
    while time.time() < deadline:
        out.seek(0)
        match = re.search(r"listening on (\S+)", out.read())
        if match:
            return process, match.group(1)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise SystemExit("fpbridge-server did not start: " + open(err.name).read())


def measure(bench, address, seconds, concurrency):
    result = subprocess.run([bench, "--server", address, "--accounts", str(concurrency), "--concurrency", str(concurrency),
                             "--seconds", str(seconds)], capture_output=True, text=True, timeout=seconds + 120)
    if result.returncode != 0:
        raise SystemExit("fpbridge-login-bench failed: " + result.stderr + result.stdout)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="folder holding fpbridge-server and fpbridge-login-bench")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.seconds = 1, 1
    server = os.path.join(args.bin, "fpbridge-server")
    bench = os.path.join(args.bin, "fpbridge-login-bench")
    work = tempfile.mkdtemp(prefix="fpbridge-login-bench-")
    os.chmod(work, 0o755)
    rows = []
    pg_dir = os.path.join(work, "postgres")
    try:
        # PostgreSQL with fsync on, as a deployment runs it; SQLite in WAL mode with synchronous=NORMAL.
        env = dict(os.environ, PG_FSYNC="on")
        url = subprocess.run(["bash", os.path.join(ROOT, "scripts/postgres.sh"), "start", pg_dir], env=env,
                             capture_output=True, text=True, check=True).stdout.strip()
        for name, database in [("SQLite", os.path.join(work, "bench.sqlite")), ("PostgreSQL", url)]:
            process, address = start_server(server, database, work)
            try:
                runs = [measure(bench, address, args.seconds, args.concurrency) for _ in range(args.runs)]
            finally:
                process.terminate()
                process.wait(timeout=10)
            failures = sum(run["failures"] for run in runs)
            rates = [run["loginsPerSecond"] for run in runs]
            rows.append((name, statistics.median(rates), min(rates), max(rates),
                         statistics.median(run["p50ms"] for run in runs), statistics.median(run["p99ms"] for run in runs), failures))
    finally:
        subprocess.run(["bash", os.path.join(ROOT, "scripts/postgres.sh"), "stop", pg_dir], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    print(f"\nLogins per second (challenge + signature + verified assertion + token), {args.concurrency} in flight, "
          f"{args.runs} run(s) of {args.seconds:g} s, load generator on the same {os.cpu_count()} cores")
    print(f"{'database':<12} {'logins/s':>9} {'min':>7} {'max':>7} {'p50 ms':>8} {'p99 ms':>8} {'failed':>7}")
    for name, median, low, high, p50, p99, failures in rows:
        print(f"{name:<12} {median:>9.0f} {low:>7.0f} {high:>7.0f} {p50:>8.2f} {p99:>8.2f} {failures:>7}")
    if any(row[6] for row in rows):
        raise SystemExit("some logins failed")


if __name__ == "__main__":
    main()
