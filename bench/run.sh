#!/usr/bin/env bash
# The benchmark: installs what it needs, builds fpbridge (release), and prints
# the table of fpbridge against the C floor and fprintd (see bench/run.py; its
# short process rows timed again by hyperfine, bench/crosscheck.py), then
# fpbridge-server's logins per second on SQLite and PostgreSQL (bench/login.py),
# then what pam_fpbridge.so's touch or type costs (bench/pam.py), then the kiosk's
# availability over an idle hour, its touch- and PIN-to-welcome and its time to
# ready after a tap (bench/kiosk.py).
#
#   bash bench/run.sh            # the full table, 15 rounds
#   bash bench/run.sh --smoke    # 2 rounds on the debug build: proves every command runs (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-packages.sh libfprint-2-dev libglib2.0-dev libsqlite3-dev libtss2-dev pkg-config gcc fprintd python3-dbusmock dbus-daemon libglib2.0-bin python3-numpy postgresql hyperfine libpam0g-dev libpam-wrapper
if [ "${1:-}" = "--smoke" ]; then
  for product in fpbridge fpbridged fpbridge-server fpbridge-login-bench fpbridge-service-probe fpbridge-kiosk; do swift build --product "$product" >/dev/null; done
  bin="$(swift build --show-bin-path)"
  # --baseline with the same binary: the side-by-side mode runs too.
  /usr/bin/python3 bench/run.py --smoke --binary "$bin/fpbridge" --baseline "$bin/fpbridge"
  /usr/bin/python3 bench/login.py --smoke --bin "$bin"
  # The kiosk on virtual_image: a few idle seconds, two touches without a server and two through it
  # (10 prints), two PINs, and one tap on fpbridged's fake reader held warm (virtual_image needs
  # about 165 s armed before its first rest).
  /usr/bin/python3 bench/kiosk.py --bin "$bin" --minutes 0.2 --touches 2 --server --prints 10 --pins 2 --rests 1 --rest-reader fake
  # pam_fpbridge.so's touch or type against the verify itself and the password module alone.
  /usr/bin/python3 bench/pam.py --bin "$bin" --rounds 2
  # The in-process benchmarks (a package of their own), each run once on the debug build.
  for product in EngineBenchmarks MatcherBenchmarks; do
    bash scripts/downstream-build.sh Benchmarks --product "$product" >/dev/null
    FPBRIDGE_BENCH_SMOKE=1 "$(bash scripts/downstream-build.sh Benchmarks --show-bin-path)/$product" >/dev/null
  done
  exit 0
fi
bash scripts/build-release.sh --all >/dev/null
bin="$(swift build -c release --show-bin-path)"
/usr/bin/python3 bench/run.py --binary "$bin/fpbridge" "$@"
/usr/bin/python3 bench/login.py --bin "$bin"
/usr/bin/python3 bench/pam.py --bin "$bin"
# An idle hour of the kiosk (availability), touches to a welcome at 100 and 1,000 prints, PINs, and taps
# on the resting reader: FPBRIDGE_KIOSK_MINUTES=0 skips the hour.
exec /usr/bin/python3 bench/kiosk.py --bin "$bin" --minutes "${FPBRIDGE_KIOSK_MINUTES:-60}" --server
