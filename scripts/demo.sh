#!/usr/bin/env bash
# Sets up, builds, and runs the narrated demos on the fake reader (no hardware): the
# engine's rules, then fingerprint login and payment against a real fpbridge-server
# started on loopback (seeds 000 and 002).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.build/debug/fpbridge demo
echo
.build/debug/fpbridge demo login
