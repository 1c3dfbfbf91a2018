#!/usr/bin/env bash
# The benchmark: installs what it needs, builds fpbridge (release), and prints
# the table of fpbridge against the C floor and fprintd (see bench/run.py), then
# fpbridge-server's logins per second on SQLite and PostgreSQL (bench/login.py).
#
#   bash bench/run.sh            # the full table, 15 rounds
#   bash bench/run.sh --smoke    # 2 rounds on the debug build: proves every command runs (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(libfprint-2-dev libglib2.0-dev libsqlite3-dev pkg-config gcc fprintd python3-dbusmock dbus-daemon libglib2.0-bin python3-numpy postgresql)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ "${1:-}" = "--smoke" ]; then
  swift build --product fpbridge >/dev/null
  swift build --product fpbridged >/dev/null
  swift build --product fpbridge-server >/dev/null
  swift build --product fpbridge-login-bench >/dev/null
  # --baseline with the same binary: the side-by-side mode runs too.
  /usr/bin/python3 bench/run.py --smoke --binary "$(swift build --show-bin-path)/fpbridge" \
    --baseline "$(swift build --show-bin-path)/fpbridge"
  exec /usr/bin/python3 bench/login.py --smoke --bin "$(swift build --show-bin-path)"
fi
bash scripts/build-release.sh --all >/dev/null
/usr/bin/python3 bench/run.py --binary "$(swift build -c release --show-bin-path)/fpbridge" "$@"
exec /usr/bin/python3 bench/login.py --bin "$(swift build -c release --show-bin-path)"
