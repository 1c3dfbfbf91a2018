#!/usr/bin/env bash
# Sets up, builds, and runs every test: fake reader, store, engine, CLI, and
# libfprint's virtual readers. Fails when any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift test --skip-build --no-parallel

# Fuzzing smoke: every parser under libFuzzer for a short budget (FPBRIDGE_FUZZ_SECONDS, default 60 s each).
bash scripts/fuzz.sh "${FPBRIDGE_FUZZ_SECONDS:-60}"
