#!/usr/bin/env bash
# Installs the Debian packages fpbridge needs (with sudo when not root) and builds it.
set -euo pipefail
packages=(libfprint-2-dev libglib2.0-dev libpng-dev libsqlite3-dev pkg-config umockdev gir1.2-umockdev-1.0 python3-gi strace curl util-linux dbus-daemon python3-dbusmock libglib2.0-bin postgresql openssl systemd)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
cd "$(dirname "$0")/.."
swift build --build-tests
