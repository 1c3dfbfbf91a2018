#!/usr/bin/env bash
# The engine's in-process benchmarks (Benchmarks/EngineBenchmarks): verify, identify over
# 1,001 prints with the files read every time and kept decoded as fpbridged keeps them, and
# the passcode check, on the fake reader, with no process start and no real reader; and
# bozorth3 per comparison (Benchmarks/MatcherBenchmarks: tables cached or built, genuine and
# impostor pairs of the score-for-score fixture, libfprint's score checked). Run by
# ordo-one's benchmark plugin, which builds them in release and prints a table for each.
#
#   bash bench/inprocess.sh [BENCHMARK OPTION]...    # e.g. --target EngineBenchmarks (--filter selects nothing here)
#
# Benchmarks/ is a package of its own (with its own .build), so that fpbridge's package
# and the packages depending on it never resolve the benchmark library. Needs Swift 6.3.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-packages.sh libfprint-2-dev libglib2.0-dev libpng-dev pkg-config
exec swift package --package-path Benchmarks benchmark --no-progress "$@"
