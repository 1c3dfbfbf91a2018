#!/usr/bin/env bash
# Builds what the stages after the tests need, so that scripts/test.sh can run it at the
# lowest priority while the test suites run: most suites wait for the programs they start,
# and the compiler takes the cores they leave idle. Each later stage's own build then finds
# its products built (the same options, so nothing is compiled twice).
#
#   bash scripts/build-ahead.sh
#
# The release products (scripts/build-release.sh, for the release smoke), the example package
# (scripts/example.sh), the in-process benchmarks (bench/run.sh --smoke) and the fuzzing binary
# (scripts/fuzz.sh). One after another: they would only compete with each other.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "build-ahead: $1 ($SECONDS s so far)"; }
step "release products"
bash scripts/build-release.sh
step "example package"
bash scripts/downstream-build.sh Examples/FingerprintLogin
step "in-process benchmarks"
# In the example's scratch folder, where the fpbridge modules they use are built already.
for product in EngineBenchmarks MatcherBenchmarks; do bash scripts/downstream-build.sh Benchmarks --product "$product"; done
step "fuzzing binary"
bash scripts/fuzz.sh --build-only
step "done"
