#!/usr/bin/env bash
# Sets up, builds, and runs the narrated demo on the fake reader (no hardware).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.build/debug/fpbridge demo
