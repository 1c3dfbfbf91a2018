#!/usr/bin/env bash
# Installs the Debian packages fpbridge needs (with sudo when not root) and builds it.
#
#   bash scripts/setup.sh [--packages-only]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-packages.sh libfprint-2-dev libglib2.0-dev libpng-dev libsqlite3-dev libtss2-dev pkg-config umockdev gir1.2-umockdev-1.0 python3-gi strace curl util-linux e2fsprogs mount dbus-daemon python3-dbusmock libglib2.0-bin postgresql openssl systemd libpam0g-dev
# --packages-only: scripts/test.sh builds itself, while the tests' packages install.
[ "${1:-}" = --packages-only ] && exit 0
swift build --build-tests
