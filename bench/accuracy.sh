#!/usr/bin/env bash
# The accuracy benchmark (bench/accuracy.py): how often 1:N identification welcomes a
# stranger or the wrong person, old rule against new, at 100, 1,000 and 10,000 prints.
# Installs what it needs, builds fpbridge-accuracy (release: bozorth3 is the cost), runs.
#
#   bash bench/accuracy.sh            # the full run (hours the first time; cached after)
#   bash bench/accuracy.sh --smoke    # tiny galleries: proves every step runs
#   bash bench/accuracy.sh --sizes 100,1000
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-packages.sh libfprint-2-dev libglib2.0-dev pkg-config gcc python3-numpy python3-matplotlib
nice -n 19 swift build -c release --product fpbridge-accuracy >/dev/null
exec /usr/bin/python3 bench/accuracy.py --bin "$(swift build -c release --show-bin-path)" "$@"
