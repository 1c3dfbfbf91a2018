#!/usr/bin/env bash
# Makes the Debian packages fpbridge, fpbridged and fpbridge-kiosk from the release products, with
# Debian's own tools (dpkg-shlibdeps, dpkg-gencontrol, dpkg-deb), and runs lintian on them.
#
#   bash scripts/make-deb.sh [--bin-dir DIR] [--out DIR] [--fast] [--no-lintian]
#
# --bin-dir DIR  take fpbridge, fpbridged and fpbridge-kiosk from DIR (built elsewhere with
#                scripts/build-release.sh) instead of building them here
# --out DIR      where the .deb files go (default: dist/)
# --fast         xz at level 1, not Debian's default 6: 10% larger, about 30 s sooner (scripts/test.sh)
# --no-lintian   skip lintian (it fails the script on any error or warning not overridden)
#
# The packaging sources are in packaging/debian/ (docs/packaging.md); the units, the sysusers
# files, the bus policy, the polkit actions and the udev rules are the ones `make install`
# installs (systemd/, dbus/, polkit/, udev/), with ExecStart pointed at the packaged programs.
# The version is FPBridgeVersion.current plus the Debian revision of packaging/debian/changelog.
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022

bin_dir="" out="dist" lintian=yes level=6
while [ $# -gt 0 ]; do
  case "$1" in
    --bin-dir) bin_dir=${2:?--bin-dir needs a directory}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --fast) level=1; shift ;;
    --no-lintian) lintian=no; shift ;;
    *) echo "usage: bash scripts/make-deb.sh [--bin-dir DIR] [--out DIR] [--fast] [--no-lintian]" >&2; exit 2 ;;
  esac
done
# Debian's tools (dpkg-shlibdeps, dpkg-gencontrol), strip and readelf, lintian: installed if missing.
bash scripts/install-packages.sh dpkg-dev binutils lintian
packaging=packaging/debian
packages=(fpbridge fpbridged fpbridge-kiosk)

# The version: the project's, and the changelog must be about it (dch -v VERSION-1 when it moves).
upstream=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/FPAuthentication/Context/FPBridgeVersion.swift)
version=$(dpkg-parsechangelog -l "$packaging/changelog" -S Version)
if [ -z "$upstream" ] || [ "${version%-*}" != "$upstream" ]; then
  echo "make-deb: packaging/debian/changelog is about $version, but FPBridgeVersion.current is '$upstream':" >&2
  echo "make-deb: add an entry for $upstream-1 (dch -c packaging/debian/changelog -v $upstream-1)" >&2
  exit 1
fi
SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l "$packaging/changelog" -S Timestamp)
export SOURCE_DATE_EPOCH
arch=$(dpkg --print-architecture)

if [ -z "$bin_dir" ]; then
  bash scripts/build-release.sh
  bin_dir=$(swift build -c release --show-bin-path)
fi
for program in fpbridge fpbridged fpbridge-kiosk; do
  [ -x "$bin_dir/$program" ] || { echo "make-deb: $bin_dir/$program is missing (bash scripts/build-release.sh)" >&2; exit 1; }
  # The packages carry no Swift runtime: a program that needs one was not built by build-release.sh.
  if readelf -d "$bin_dir/$program" | grep -q -E 'NEEDED.*\[lib(swift|Foundation|dispatch|BlocksRuntime)'; then
    echo "make-deb: $bin_dir/$program links the Swift runtime dynamically; build it with scripts/build-release.sh (--static-swift-stdlib)" >&2
    exit 1
  fi
done

work=$(mktemp -d /tmp/fpbridge-deb-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
cp "$packaging/control" "$packaging/changelog" "$work/debian/"
# One set of packages for Debian 12 and 13 (docs/packaging.md, "One build for Debian 12 and 13"):
# dpkg-shlibdeps reads debian/shlibs.local before the libraries' own symbols files, and it names
# the one library that Debian 13 ships under a name that does not provide Debian 12's.
cp "$packaging/shlibs.local" "$work/debian/"

# swift-argument-parser's generate-manual, from the checkout the programs were built with (its own
# scratch path: built once, about 20 s).
parser=""
for candidate in "${FPBRIDGE_ARGUMENT_PARSER:-}" .build/checkouts/swift-argument-parser \
    "$bin_dir/../checkouts/swift-argument-parser" "$bin_dir/../../checkouts/swift-argument-parser"; do
  if [ -n "$candidate" ] && [ -f "$candidate/Tools/generate-manual/GenerateManual.swift" ]; then parser=$(cd -P "$candidate" && pwd); break; fi
done
[ -n "$parser" ] || { echo "make-deb: no swift-argument-parser checkout (swift package resolve, or FPBRIDGE_ARGUMENT_PARSER=DIR)" >&2; exit 1; }
swift build -q -c release -Xswiftc -suppress-warnings --package-path "$parser" --scratch-path .build/generate-manual --product generate-manual
generate_manual="$(pwd)/.build/generate-manual/release/generate-manual"

root() { echo "$work/$1"; }
put() {  # put PACKAGE MODE SOURCE DESTINATION
  install -D -m "$2" "$3" "$(root "$1")$4"
}

# Man pages: generate-manual reads --experimental-dump-help; the help subcommand ArgumentParser adds
# to every command is left out (fpbridged would otherwise show "fpbridged subcommand"), and an
# empty line in a help text becomes a paragraph break (an empty line is a warning in mdoc).
man_page() {  # man_page PACKAGE PROGRAM SECTION
  local package=$1 program=$2 section=$3 dump="$work/dump-help"
  cat >"$dump" <<EOF
#!/bin/sh
"$bin_dir/$program" --experimental-dump-help | python3 -c '
import json, sys
def drop_help(command):
    subcommands = [c for c in command.get("subcommands", []) if c["commandName"] != "help"]
    for c in subcommands: drop_help(c)
    if subcommands: command["subcommands"] = subcommands
    else: command.pop("subcommands", None)
info = json.load(sys.stdin)
drop_help(info["command"])
json.dump(info, sys.stdout)'
EOF
  chmod 755 "$dump"
  mkdir -p "$work/man"
  "$generate_manual" "$dump" --section "$section" --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)" -o "$work/man" >/dev/null
  sed 's/^$/.Pp/' "$work/man/$program.$section" | gzip -9n >"$work/man/$program.$section.gz"
  put "$package" 0644 "$work/man/$program.$section.gz" "/usr/share/man/man$section/$program.$section.gz"
}

# fpbridge: the command line, its man page and completions.
put fpbridge 0755 "$bin_dir/fpbridge" /usr/bin/fpbridge
man_page fpbridge fpbridge 1
"$bin_dir/fpbridge" --generate-completion-script bash | sed '1{/^#!/d}' >"$work/fpbridge.bash"
"$bin_dir/fpbridge" --generate-completion-script zsh >"$work/fpbridge.zsh"
"$bin_dir/fpbridge" --generate-completion-script fish >"$work/fpbridge.fish"
put fpbridge 0644 "$work/fpbridge.bash" /usr/share/bash-completion/completions/fpbridge
put fpbridge 0644 "$work/fpbridge.zsh" /usr/share/zsh/vendor-completions/_fpbridge
put fpbridge 0644 "$work/fpbridge.fish" /usr/share/fish/vendor_completions.d/fpbridge.fish

# fpbridged: the service, its unit (ExecStart rewritten as `make install` does), accounts, udev
# rules, fprintd's bus name, activation and polkit actions, and the PAM profiles.
put fpbridged 0755 "$bin_dir/fpbridged" /usr/sbin/fpbridged
man_page fpbridged fpbridged 8
sed 's|/usr/local/bin/fpbridged|/usr/sbin/fpbridged|g' systemd/fpbridged.service >"$work/fpbridged.service"
put fpbridged 0644 "$work/fpbridged.service" /usr/lib/systemd/system/fpbridged.service
put fpbridged 0644 systemd/fpbridge.sysusers /usr/lib/sysusers.d/fpbridge.conf
put fpbridged 0644 udev/70-fpbridge.rules /usr/lib/udev/rules.d/70-fpbridge.rules
put fpbridged 0644 dbus/fpbridge-fprintd.conf /usr/share/dbus-1/system.d/fpbridge-fprintd.conf
put fpbridged 0644 "$packaging/net.reactivated.Fprint.service" /usr/share/dbus-1/system-services/net.reactivated.Fprint.service
put fpbridged 0644 polkit/net.reactivated.fprint.device.policy /usr/share/polkit-1/actions/net.reactivated.fprint.device.policy
# The two pam-auth-update profiles: fpbridge (touch or type, in fprintd's place) and
# fpbridge-password (a password lifts the lockout); docs/packaging.md.
put fpbridged 0644 "$packaging/fpbridge.pam-config" /usr/share/pam-configs/fpbridge
put fpbridged 0644 "$packaging/fpbridge-password.pam-config" /usr/share/pam-configs/fpbridge-password
# The PAM module the profile names (pam/, C: it is loaded into su, sudo, login and polkit's helper).
bash scripts/build-pam-module.sh "$work/pam_fpbridge.so" >/dev/null
put fpbridged 0644 "$work/pam_fpbridge.so" "/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/security/pam_fpbridge.so"

# fpbridge-kiosk: the kiosk, its unit and its account.
put fpbridge-kiosk 0755 "$bin_dir/fpbridge-kiosk" /usr/bin/fpbridge-kiosk
man_page fpbridge-kiosk fpbridge-kiosk 1
sed 's|/usr/local/bin/fpbridge-kiosk|/usr/bin/fpbridge-kiosk|g' systemd/fpbridge-kiosk.service >"$work/fpbridge-kiosk.service"
put fpbridge-kiosk 0644 "$work/fpbridge-kiosk.service" /usr/lib/systemd/system/fpbridge-kiosk.service
put fpbridge-kiosk 0644 systemd/fpbridge-kiosk.sysusers /usr/lib/sysusers.d/fpbridge-kiosk.conf
# The browser session (cage and Chromium on tty1), installed and not enabled (docs/kiosk.md).
put fpbridge-kiosk 0644 systemd/fpbridge-kiosk-browser.service /usr/lib/systemd/system/fpbridge-kiosk-browser.service

gzip -9nc "$packaging/changelog" >"$work/changelog.Debian.gz"
mkdir -p "$out"
for package in "${packages[@]}"; do
  r=$(root "$package")
  # What every package carries: the copyright, the changelog, lintian's overrides (with reasons).
  put "$package" 0644 "$packaging/copyright" "/usr/share/doc/$package/copyright"
  put "$package" 0644 "$work/changelog.Debian.gz" "/usr/share/doc/$package/changelog.Debian.gz"
  if [ -f "$packaging/$package.lintian-overrides" ]; then
    put "$package" 0644 "$packaging/$package.lintian-overrides" "/usr/share/lintian/overrides/$package"
  fi
  # Stripped as dh_strip strips a program (the symbols stay in the build tree).
  mapfile -t programs < <(find "$r/usr" -path "$r/usr/bin/*" -type f -o -path "$r/usr/sbin/*" -type f)
  strip --remove-section=.comment --remove-section=.note "${programs[@]}"
  # Shared objects (the PAM module) as dh_strip strips them: what the dynamic loader needs stays.
  mapfile -t modules < <(find "$r/usr/lib" -name '*.so' -type f 2>/dev/null)
  if [ ${#modules[@]} -gt 0 ]; then
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "${modules[@]}"
    programs+=("${modules[@]}")
  fi
  mkdir -p "$r/DEBIAN"
  for script in preinst postinst prerm postrm; do
    if [ -f "$packaging/$package.$script" ]; then install -m 0755 "$packaging/$package.$script" "$r/DEBIAN/$script"; fi
  done
  # Depends from the libraries the programs link (${shlibs:Depends}), never written by hand.
  (cd "$work" && dpkg-shlibdeps -T"debian/$package.substvars" "${programs[@]}")
  (cd "$work" && dpkg-gencontrol -p"$package" -P"$r" -T"debian/$package.substvars" -f"$work/files")
  (cd "$r" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum >DEBIAN/md5sums)
  chmod 0644 "$r/DEBIAN/md5sums" "$r/DEBIAN/control"
  find "$r" -depth -newermt "@$SOURCE_DATE_EPOCH" -print0 | xargs -0r touch --no-dereference --date="@$SOURCE_DATE_EPOCH"
  dpkg-deb --root-owner-group --threads-max=2 -Zxz -z"$level" --build "$r" "$out/${package}_${version}_${arch}.deb" >/dev/null
  echo "make-deb: $out/${package}_${version}_${arch}.deb ($(du -h "$out/${package}_${version}_${arch}.deb" | cut -f1))"
done

if [ "$lintian" = yes ]; then
  debs=()
  for package in "${packages[@]}"; do debs+=("$out/${package}_${version}_${arch}.deb"); done
  echo "make-deb: lintian (errors and warnings fail it; info is shown; overrides, with their reasons, are in packaging/debian/*.lintian-overrides)"
  lintian --display-info --fail-on error,warning "${debs[@]}"
fi
