#!/usr/bin/env bash
# The release build, as `make install` installs it and the benchmark measures it.
#
#   bash scripts/build-release.sh             # the CLI, the service and the kiosk (fpbridge, fpbridged, fpbridge-kiosk)
#   bash scripts/build-release.sh --all       # every product (the benchmark's server and load generator too)
#   bash scripts/build-release.sh PRODUCT...  # those products (the kiosk demo's four)
#
# The Swift runtime and Foundation are linked in (no Swift toolchain needed on
# the machine, and a faster start). Linking them statically makes swiftc export
# every symbol of our own code from the executable (35,000 of them); nothing
# looks them up, but the loader's symbol lookups and the runtime's dladdr at
# start-up scan them, so they are not exported (see BENCHMARKS.md).
#
# The loader resolves every symbol at start (-z now, lintian's hardening-no-bindnow), so the
# relocation table can be made read-only before the program runs: a relink, no recompile.
#
# Every release product is built here, with these same options: SwiftPM compiles
# every Swift module again when a build's options differ from the last build's,
# so a product built without them after one built with them costs minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
options=(-c release --static-swift-stdlib -Xlinker --no-export-dynamic -Xlinker -z -Xlinker now)
case "${1:-}" in
  "")
    for product in fpbridge fpbridged fpbridge-kiosk; do swift build "${options[@]}" --product "$product"; done ;;
  --all)
    # One build of everything, so that linking one program overlaps compiling the next.
    swift build "${options[@]}" ;;
  -*)
    echo "usage: bash scripts/build-release.sh [--all | PRODUCT...]" >&2; exit 2 ;;
  *)
    for product in "$@"; do swift build "${options[@]}" --product "$product"; done ;;
esac
