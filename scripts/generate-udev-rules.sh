#!/usr/bin/env bash
# Regenerates udev/70-fpbridge.rules from the installed libfprint's list of
# supported USB ids (60-autosuspend-libfprint-2.hwdb). Run it after libfprint
# is updated, and commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product fpbridge >/dev/null
.build/debug/fpbridge udev-rules "$@" > udev/70-fpbridge.rules.tmp
mv udev/70-fpbridge.rules.tmp udev/70-fpbridge.rules
echo "wrote udev/70-fpbridge.rules ($(grep -c 'TAG+="uaccess"' udev/70-fpbridge.rules) rules)"
