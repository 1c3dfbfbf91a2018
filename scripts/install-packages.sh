#!/usr/bin/env bash
# Installs the Debian packages named that are not installed yet (apt-get, with sudo when not root).
#
#   bash scripts/install-packages.sh [--no-recommends] PACKAGE...
#
# --no-recommends: without the packages they only recommend (apt-get --no-install-recommends).
# For a desktop program run headless in the tests: gnome-control-center's recommendations
# (NetworkManager, BlueZ, PipeWire, colord, printing, ...) are 355 more packages it runs without.
set -euo pipefail
options=()
if [ "${1:-}" = --no-recommends ]; then
  options+=(--no-install-recommends)
  shift
fi
missing=()
# Installed means "ii": dpkg -s also succeeds for a package removed with its configuration kept.
for p in "$@"; do
  dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${options[@]}" "${missing[@]}"
fi
