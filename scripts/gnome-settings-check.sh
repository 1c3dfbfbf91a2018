#!/usr/bin/env bash
# GNOME Settings (Debian's gnome-control-center 43, its Users panel) enrolling the right index
# finger through fpbridged's fprintd D-Bus face on libfprint's virtual_image reader, showing each
# stage, listing the finger, deleting it; then a suspend (logind's PrepareForSleep(true)) during
# an enrollment, which the panel must show as a failure. Headless: Xvfb, private buses, mocked
# polkit, logind and AccountsService (Tests/Helpers/gnome_settings). Exits non-zero when a step
# fails; keeps a screenshot of each step in the folder it prints.
#
#   bash scripts/gnome-settings-check.sh [--install] [--daemon fprintd] [--shots DIR]
#
# fpbridged is this checkout's debug build (.build/debug/fpbridged; `swift build` first).
# --install installs the packages it needs (scripts/test.sh does this itself);
# --daemon fprintd runs the same steps against Debian's fprintd instead, as the reference.
set -euo pipefail
cd "$(dirname "$0")/.."

# The panel and what it runs on. gir1.2-atspi-2.0 is not needed (the tree is read with Gio),
# nor is gdm3 (the one schema key is compiled from Tests/Helpers/gnome_settings/desktop.py).
packages=(gnome-control-center xvfb xdotool python3-dbusmock python3-gi dbus-daemon libglib2.0-bin at-spi2-core)

daemon="$PWD/.build/debug/fpbridged"
shots=""
while [ $# -gt 0 ]; do
  case "$1" in
    --install) bash scripts/install-packages.sh --no-recommends "${packages[@]}" ;;
    --daemon) daemon=$2; shift ;;
    --shots) shots=$2; shift ;;
    *) echo "usage: bash scripts/gnome-settings-check.sh [--install] [--daemon fprintd|PATH] [--shots DIR]" >&2; exit 2 ;;
  esac
  shift
done

for tool in gnome-control-center Xvfb xdotool; do
  command -v "$tool" >/dev/null || { echo "gnome-settings check: $tool is missing (run with --install)" >&2; exit 2; }
done
if [ "$daemon" != fprintd ] && [ ! -x "$daemon" ]; then
  echo "gnome-settings check: $daemon is missing: build it first (swift build)" >&2
  exit 2
fi

# The finger: NIST's whorl from ../shared (FPBRIDGE_SHARED_DIR elsewhere), as the Swift tests
# find it. Without it the check cannot run: a skip outside CI, a failure under CI=true.
shared=${FPBRIDGE_SHARED_DIR:-../shared}
image="$shared/prints/whorl.pgm"
if [ ! -f "$image" ]; then
  if [ "${CI:-}" = true ]; then
    echo "gnome-settings check: $image is missing (CI needs ../shared)" >&2
    exit 1
  fi
  echo "gnome-settings check: skipped, $image is missing (../shared)"
  exit 0
fi

shots=${shots:-$(mktemp -d /tmp/fpbridge-gnome-settings-shots-XXXXXX)}
exec /usr/bin/python3 Tests/Helpers/gnome_settings --daemon "$daemon" --shots "$shots" --image "$image"
