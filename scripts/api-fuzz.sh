#!/usr/bin/env bash
# Hostile input against a real fpbridged: see scripts/api-fuzz.py.
#
#   scripts/api-fuzz.sh [--schemathesis] [--keep] [-v] [--binary PATH]
#
# Needs .build/debug/fpbridged (swift build --product fpbridged). Installs what the run needs:
# python3 and its venv module (apt-get), jsonschema and PyYAML (pip, in a venv under
# ~/.cache) to check every answer against api/fpbridged.openapi.yaml; with --schemathesis
# also socat (apt-get) and schemathesis (pip). Prints `N passed, M failed`; exits non-zero
# on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

schemathesis=""
for arg in "$@"; do [ "$arg" = "--schemathesis" ] && schemathesis=1; done

command -v python3 >/dev/null || bash scripts/install-packages.sh python3
venv="${XDG_CACHE_HOME:-$HOME/.cache}/fpbridge-api-fuzz-venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" 2>/dev/null || { bash scripts/install-packages.sh python3-venv; python3 -m venv "$venv"; }
fi
packages=(jsonschema pyyaml)
[ -n "$schemathesis" ] && packages+=(schemathesis)
if ! "$venv/bin/python" -c 'import jsonschema, yaml' 2>/dev/null \
        || { [ -n "$schemathesis" ] && [ ! -x "$venv/bin/schemathesis" ]; }; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${packages[@]}"
fi
if [ -n "$schemathesis" ]; then
    command -v socat >/dev/null || bash scripts/install-packages.sh socat
fi

export PATH="$venv/bin:$PATH"
exec "$venv/bin/python" scripts/api-fuzz.py "$@"
