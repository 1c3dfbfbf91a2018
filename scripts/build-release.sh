#!/usr/bin/env bash
# The release build of the CLI and the service, as `make install` installs them
# and the benchmark measures them.
#
#   bash scripts/build-release.sh [SWIFT BUILD OPTION]...
#
# The Swift runtime and Foundation are linked in (no Swift toolchain needed on
# the machine, and a faster start). Linking them statically makes swiftc export
# every symbol of our own code from the executable (35,000 of them); nothing
# looks them up, but the loader's symbol lookups and the runtime's dladdr at
# start-up scan them, so they are not exported (see BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
for product in fpbridge fpbridged; do
  swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product "$product" "$@"
done
