#!/usr/bin/env bash
# Regenerates udev/70-fpbridge.rules from the installed libfprint's list of supported USB ids
# (60-autosuspend-libfprint-2.hwdb) and udev/libfprint-newer-ids.txt, the ids that only Debian 13's
# newer libfprint supports: the packages are built on Debian 12 and installed on both, and
# fpbridged (user fpbridge) opens a reader only through the rule's group. Run it after libfprint
# is updated, and commit the result.
#
#   bash scripts/generate-udev-rules.sh                   # the rules, from the two lists
#   bash scripts/generate-udev-rules.sh --refresh-newer   # first udev/libfprint-newer-ids.txt, from
#                                                         # Debian 13's libfprint-2-2 (downloaded)
set -euo pipefail
cd "$(dirname "$0")/.."
newer=udev/libfprint-newer-ids.txt
if [ "${1:-}" = --refresh-newer ]; then
  mirror=${FPBRIDGE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
  curl -fsS "$mirror/dists/trixie/main/binary-amd64/Packages.xz" | xz -d >"$work/Packages"
  file=$(awk '/^Package: libfprint-2-2$/ { p = 1 } p && /^Filename:/ { print $2; exit }' "$work/Packages")
  version=$(awk '/^Package: libfprint-2-2$/ { p = 1 } p && /^Version:/ { print $2; exit }' "$work/Packages")
  curl -fsS -o "$work/libfprint.deb" "$mirror/$file"
  dpkg-deb -x "$work/libfprint.deb" "$work/root"
  hwdb="$work/root/usr/lib/udev/hwdb.d/60-autosuspend-libfprint-2.hwdb"
  # Each supported id of Debian 13's list with its driver; the installed list's own are left out.
  python3 - "$hwdb" /usr/lib/udev/hwdb.d/60-autosuspend-libfprint-2.hwdb "$version" >"$newer" <<'PY'
import re, sys
def supported(path):
    ids, driver = {}, None
    for line in open(path):
        if line.startswith("# Supported by libfprint driver "):
            driver = line[len("# Supported by libfprint driver "):].strip()
        elif line.startswith("# Known unsupported devices"):
            driver = None
        elif driver and (m := re.match(r"usb:v([0-9A-F]{4})p([0-9A-F]{4})", line)):
            ids.setdefault(f"{m[1].lower()}:{m[2].lower()}", driver)
    return ids
newer, installed = supported(sys.argv[1]), supported(sys.argv[2])
print(f"# USB ids Debian 13's libfprint-2-2 {sys.argv[3]} supports and Debian 12's does not, with the driver:")
print("# each gets a rule (scripts/generate-udev-rules.sh --refresh-newer wrote this; facts, one a line).")
for id, driver in newer.items():
    if id not in installed:
        print(f"{id} {driver}")
PY
  echo "wrote $newer ($(grep -vc '^#' "$newer") ids, from libfprint-2-2 $version)"
fi
swift build --product fpbridge >/dev/null
.build/debug/fpbridge udev-rules --newer "$newer" > udev/70-fpbridge.rules.tmp
mv udev/70-fpbridge.rules.tmp udev/70-fpbridge.rules
echo "wrote udev/70-fpbridge.rules ($(grep -c 'TAG+="uaccess"' udev/70-fpbridge.rules) rules)"
