#!/usr/bin/env bash
# The packages proven on a booted Debian 12 or 13 (--release): systemd as PID 1 under systemd-nspawn, the real
# dbus-daemon, polkitd, logind and PAM. Installs the .deb files with apt-get inside the booted
# system and checks, in order:
#   a  fpbridged active as its own user, owning net.reactivated.Fprint, fprintd not running;
#      `systemd-analyze security fpbridged`
#   b  Debian's fprintd-enroll/-verify/-list/-delete as alice (polkit through pkttyagent),
#      bob refused, root allowed (libfprint's virtual_device given to the unit by a drop-in)
#   c  su, login, sudo and pkexec with pam_fprintd and the password profile enabled by
#      `pam-auth-update --enable fprintd fpbridge-password`: a finger logs in, five wrong fingers
#      lock, the password (and the fpbridge passcode) lifts the lockout, another user is unaffected
#   t  touch or type: `pam-auth-update --enable fpbridge fpbridge-password` (fprintd's profile
#      goes); at alice's desk (a session at seat0) su, sudo, sudo -s, pkexec, systemd-run --user
#      and a tmux pane take the finger or the password at one prompt; a typed password cancels
#      the scan and counts nothing; nothing typed before the finger reaches sudo -s's shell; a
#      wrong finger, max-tries, the lockout; the password alone, no scan, for sudo -S, ssh (sshd's
#      login, sudo in the session), tmux attached from ssh, systemd-run --user from ssh, bob's
#      su - alice, a daemon in no session, login on a pseudo-terminal and in a seatless session
#   d  the socket CLI as alice; the fpbridge-kiosk unit as a member of fpbridge-kiosk; its browser
#      session (cage and Chromium, headless) waits for the kiosk, shows the page, survives a crash
#   e  a lockout and prints survive `systemctl restart fpbridged` and a reboot
#   f  upgrade to a newer build keeps state; remove keeps it and gives fprintd back; purge
#      leaves nothing; fprintd works again
#
#   bash scripts/booted-check.sh [--release bookworm|trixie] [--debs DIR] [--only abctdef] [--keep]
#   bash scripts/booted-check.sh [--release R] --reference   # the same tools and PAM against Debian's fprintd
#   bash scripts/booted-check.sh [--release R] --prepare   # builds the cached root only (CI: beside the tests)
#   bash scripts/booted-check.sh --clean         # stops and removes what --keep left running
#
# --debs: where fpbridge_*.deb, fpbridged_*.deb, fpbridge-kiosk_*.deb are (default: dist/;
# the newest version of each is used). --keep: leave the container running at the end.
# --release: bookworm (Debian 12, the default) or trixie (Debian 13); the same .deb files on both.
# Root only (debootstrap, mounts, nspawn). The Debian root is cached in
# ${FPBRIDGE_BOOTED_CACHE:-/var/cache/fpbridge-booted}/RELEASE (first build about 60 s, with network);
# each run boots an overlay over it, thrown away at the end. Exits 1 if any check failed.
# Output: each step prints what it ran ("$ ...") and what it saw; a failure prints the unit's
# journal and the bus log. scripts/booted/ holds the parts.
set -uo pipefail
cd "$(dirname "$0")/.."
here=scripts/booted
source $here/lib.sh
source $here/root.sh
source $here/container.sh
source $here/helpers.sh
source $here/checks.sh
source $here/touch-or-type.sh

debs_dir=dist
only=abctdef
reference=""
prepare=""
while [ $# -gt 0 ]; do
  case "$1" in
    --debs) debs_dir=$2; shift ;;
    --release) set_release "${2:-}"; shift ;;
    --only) only=$2; shift ;;
    --keep) KEEP_RUN=1 ;;
    --reference) reference=1 ;;
    --prepare) prepare=1 ;;
    --clean) clean_kept; exit 0 ;;
    *) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
  esac
  shift
done
[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, mounts, systemd-nspawn)"
for tool in debootstrap systemd-nspawn nsenter dpkg-deb /usr/bin/python3; do
  command -v "$tool" >/dev/null || die "$tool is missing (apt-get install debootstrap systemd-container util-linux python3)"
done

# newest_deb NAME: the highest version of package NAME in $debs_dir.
newest_deb() {
  local f best="" bestv=""
  for f in "$debs_dir"/"$1"_*.deb; do
    [ -f "$f" ] || continue
    [ "$(dpkg-deb -f "$f" Package)" = "$1" ] || continue
    local v; v=$(dpkg-deb -f "$f" Version)
    if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$bestv"; then best=$f; bestv=$v; fi
  done
  echo "$best"
}

# newer_build DEB... -> DIR: each package again with its version bumped (+booted1, and the
# exact dependencies between them), as an upgrade; the files are the same.
newer_build() {
  local out=$1; shift
  mkdir -p "$out"
  local d
  for d in "$@"; do
    local tree; tree=$(mktemp -d "$RUN/repack.XXXXXX")
    dpkg-deb -R "$d" "$tree"
    local v; v=$(dpkg-deb -f "$d" Version)
    sed -i -e "s/^Version: .*/Version: $v+booted1/" -e "s/(= $v)/(= $v+booted1)/g" "$tree/DEBIAN/control"
    dpkg-deb -Znone -b "$tree" "$out/" >/dev/null || die "could not repack $d"
    rm -rf "$tree"
  done
}

T_START=$(now)
say "release: $RELEASE_NAME ($RELEASE)"
if [ -n "$prepare" ]; then
  mkdir -p "$(dirname "$CACHE")"
  exec 9>"$CACHE.lock"
  flock -x 9
  ensure_root
  exit 0
fi
DEBS=()
if [ -z "$reference" ]; then
  for p in fpbridge fpbridged; do
    f=$(newest_deb $p)
    [ -n "$f" ] || die "no ${p}_*.deb in $debs_dir (make deb, or --debs DIR; --reference runs against fprintd)"
    DEBS+=("$f")
  done
  KIOSK_DEB=$(newest_deb fpbridge-kiosk)
  say "packages: ${DEBS[*]} ${KIOSK_DEB:-(no fpbridge-kiosk)}"
fi
ALL_DEBS=("${DEBS[@]}" ${KIOSK_DEB:+"$KIOSK_DEB"})

# The cache: built or updated under an exclusive lock, read by runs under a shared one.
mkdir -p "$(dirname "$CACHE")"
exec 9>"$CACHE.lock"
flock -x 9
ensure_root
[ ${#ALL_DEBS[@]} -eq 0 ] || ensure_deps "${ALL_DEBS[@]}"
flock -s 9

trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM
make_run_dir
install_reader_dropins "$RUN/root"
if [ ${#ALL_DEBS[@]} -gt 0 ]; then
  mkdir -p "$RUN/root/var/tmp/debs"
  cp "${ALL_DEBS[@]}" "$RUN/root/var/tmp/debs/"
  case $only in *f*) newer_build "$RUN/root/var/tmp/debs-newer" "${ALL_DEBS[@]}" ;; esac
  # What purge must take away: every file and link of the packages, and their own directories.
  PACKAGE_FILES=$(for d in "${ALL_DEBS[@]}"; do dpkg-deb -c "$d"; done |
    awk '{ p = $6; sub(/^\./, "", p); if (substr($1, 1, 1) != "d" || p ~ /fpbridge/) print p }' | sed 's#/$##' | sort -u)
fi

boot
TIMING_FIRST_BOOT=$TIMING_BOOT

if [ -n "$reference" ]; then
  DAEMON=fprintd
  check_reference_fprintd
else
  section install "apt-get install of the packages inside the booted system (no network: dependencies are in the root)"
  # fprintd holds the name, as on a desktop where something asked it (dbus activation):
  # the install must take the name from it.
  run_shown root busctl --system call net.reactivated.Fprint /net/reactivated/Fprint/Manager net.reactivated.Fprint.Manager GetDevices
  run_shown root systemctl is-active fprintd
  INSTALL_T0=$(now)
  guest_debs=(); for d in "${DEBS[@]}"; do guest_debs+=("/var/tmp/debs/$(basename "$d")"); done
  if run_shown root apt-get install -y --no-install-recommends "${guest_debs[@]}" libpam-fprintd; then
    pass "apt-get install ./fpbridge ./fpbridged ($(elapsed "$INSTALL_T0") s)"
  else
    fail "apt-get install failed"
  fi
  setup_pam_and_first_logins
  case $only in *a*) check_a_service ;; esac
  case $only in *b*) check_b_tools ;; esac
  case $only in *c*) check_c_pam ;; esac
  case $only in *t*) check_t_touch_or_type ;; esac
  case $only in *d*) check_d_cli_kiosk ;; esac
  case $only in *e*) check_e_persistence ;; esac
  case $only in *f*) check_f_upgrade_remove_purge ;; esac
fi

[ -n "$reference" ] || crash_report
echo
say "=== summary"
say "${#passes[@]} passed, ${#failures[@]} failed"
for f in "${failures[@]}"; do say "  FAILED $f"; done
say "timings: first boot to running ${TIMING_FIRST_BOOT}s; boot to fpbridged active ${TIMING_BOOT_TO_ACTIVE:-n/a}s;" \
    "apt-get install to first fprintd-verify answer ${TIMING_FIRST_VERIFY:-n/a}s; root build ${TIMING_ROOT_BUILD:-cached};" \
    "whole check $(elapsed "$T_START")s"
[ -z "${SECURITY:-}" ] || say "systemd-analyze security: $SECURITY"
[ ${#failures[@]} -eq 0 ]
