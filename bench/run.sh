#!/usr/bin/env bash
# The benchmark: installs what it needs, builds fpbridge (release), and prints
# the table of fpbridge against the C floor and fprintd (see bench/run.py; its
# short process rows timed again by hyperfine, bench/crosscheck.py), then
# fpbridge-server's logins per second on SQLite and PostgreSQL (bench/login.py).
#
#   bash bench/run.sh            # the full table, 15 rounds
#   bash bench/run.sh --smoke    # 2 rounds on the debug build: proves every command runs (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-packages.sh libfprint-2-dev libglib2.0-dev libsqlite3-dev pkg-config gcc fprintd python3-dbusmock dbus-daemon libglib2.0-bin python3-numpy postgresql hyperfine
if [ "${1:-}" = "--smoke" ]; then
  swift build --product fpbridge >/dev/null
  swift build --product fpbridged >/dev/null
  swift build --product fpbridge-server >/dev/null
  swift build --product fpbridge-login-bench >/dev/null
  swift build --product EngineBenchmarks >/dev/null
  # The in-process benchmarks, run once each on the debug build (bench/inprocess.sh runs them for real).
  FPBRIDGE_BENCH_SMOKE=1 "$(swift build --show-bin-path)/EngineBenchmarks" >/dev/null
  # --baseline with the same binary: the side-by-side mode runs too.
  /usr/bin/python3 bench/run.py --smoke --binary "$(swift build --show-bin-path)/fpbridge" \
    --baseline "$(swift build --show-bin-path)/fpbridge"
  exec /usr/bin/python3 bench/login.py --smoke --bin "$(swift build --show-bin-path)"
fi
bash scripts/build-release.sh --all >/dev/null
/usr/bin/python3 bench/run.py --binary "$(swift build -c release --show-bin-path)/fpbridge" "$@"
exec /usr/bin/python3 bench/login.py --bin "$(swift build -c release --show-bin-path)"
