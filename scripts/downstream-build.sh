#!/usr/bin/env bash
# `swift build` of a package that depends on fpbridge by path (Examples/FingerprintLogin, the
# downstream example; Benchmarks, the in-process benchmarks), in the one scratch folder both
# share, .build-downstream. Each in a folder of its own builds every fpbridge module it uses
# again, swift-crypto's C included (131 s for the example on two cores); the second in the
# same folder finds them built and compiles only its own (37 s for the benchmarks after the
# example, against about 130 s alone; 2026-12-04). SwiftPM plans again when the package changes.
#
#   bash scripts/downstream-build.sh Examples/FingerprintLogin [SWIFT BUILD OPTION]...
#   bash scripts/downstream-build.sh Benchmarks --product EngineBenchmarks
#   bash scripts/downstream-build.sh Benchmarks --show-bin-path
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && [ -f "$1/Package.swift" ] || { echo "usage: bash scripts/downstream-build.sh PACKAGE_DIR [SWIFT BUILD OPTION]..." >&2; exit 2; }
package=$1
shift
# Absolute: a relative --scratch-path is taken from the package's folder.
exec swift build --package-path "$package" --scratch-path "$PWD/.build-downstream" "$@"
