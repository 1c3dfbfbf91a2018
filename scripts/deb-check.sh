#!/usr/bin/env bash
# Checks the .deb files scripts/make-deb.sh made, without installing them (the booted check
# installs them): the files and their modes, no /usr/local, the units pointing at the packaged
# programs, Depends computed from the libraries, stripped programs, and the maintainer scripts
# taken out of the packages and run against stand-ins for systemd-sysusers, systemctl, dbus,
# udev, pam-auth-update and dpkg-divert, in a private mount namespace (tmpfs over /run and
# /var/lib), to see the order of what they do with and without a running systemd.
#
#   bash scripts/deb-check.sh [DIR]      # DIR: where the .deb files are (default: dist/)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-dist}
upstream=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/FPAuthentication/Context/FPBridgeVersion.swift)
version=$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)
arch=$(dpkg --print-architecture)
work=$(mktemp -d /tmp/fpbridge-deb-check-XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "deb-check: FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "deb-check: ok: $*"; }

[ "${version%-*}" = "$upstream" ] || fail "the packages' version $version is not FPBridgeVersion.current ($upstream)"

# The files each package holds, with their modes (programs 0755, everything else 0644, owned by root).
expected_fpbridge="-rwxr-xr-x ./usr/bin/fpbridge
-rw-r--r-- ./usr/share/bash-completion/completions/fpbridge
-rw-r--r-- ./usr/share/doc/fpbridge/changelog.Debian.gz
-rw-r--r-- ./usr/share/doc/fpbridge/copyright
-rw-r--r-- ./usr/share/fish/vendor_completions.d/fpbridge.fish
-rw-r--r-- ./usr/share/lintian/overrides/fpbridge
-rw-r--r-- ./usr/share/man/man1/fpbridge.1.gz
-rw-r--r-- ./usr/share/zsh/vendor-completions/_fpbridge"
expected_fpbridged="-rw-r--r-- ./usr/lib/systemd/system/fpbridged.service
-rw-r--r-- ./usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/security/pam_fpbridge.so
-rw-r--r-- ./usr/lib/sysusers.d/fpbridge.conf
-rw-r--r-- ./usr/lib/udev/rules.d/70-fpbridge.rules
-rwxr-xr-x ./usr/sbin/fpbridged
-rw-r--r-- ./usr/share/dbus-1/system-services/net.reactivated.Fprint.service
-rw-r--r-- ./usr/share/dbus-1/system.d/fpbridge-fprintd.conf
-rw-r--r-- ./usr/share/doc/fpbridged/changelog.Debian.gz
-rw-r--r-- ./usr/share/doc/fpbridged/copyright
-rw-r--r-- ./usr/share/lintian/overrides/fpbridged
-rw-r--r-- ./usr/share/man/man8/fpbridged.8.gz
-rw-r--r-- ./usr/share/pam-configs/fpbridge
-rw-r--r-- ./usr/share/pam-configs/fpbridge-password
-rw-r--r-- ./usr/share/polkit-1/actions/net.reactivated.fprint.device.policy"
expected_fpbridge_kiosk="-rwxr-xr-x ./usr/bin/fpbridge-kiosk
-rw-r--r-- ./usr/lib/systemd/system/fpbridge-kiosk-browser.service
-rw-r--r-- ./usr/lib/systemd/system/fpbridge-kiosk.service
-rw-r--r-- ./usr/lib/sysusers.d/fpbridge-kiosk.conf
-rw-r--r-- ./usr/share/doc/fpbridge-kiosk/changelog.Debian.gz
-rw-r--r-- ./usr/share/doc/fpbridge-kiosk/copyright
-rw-r--r-- ./usr/share/lintian/overrides/fpbridge-kiosk
-rw-r--r-- ./usr/share/man/man1/fpbridge-kiosk.1.gz"

for package in fpbridge fpbridged fpbridge-kiosk; do
  deb="$dir/${package}_${version}_${arch}.deb"
  [ -f "$deb" ] || { fail "$deb is missing (bash scripts/make-deb.sh)"; continue; }
  var="expected_${package//-/_}"
  dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $1, $6}' | sort >"$work/$package.files"
  if diff <(echo "${!var}" | sort) "$work/$package.files" >"$work/diff"; then
    pass "$package holds the expected files with the expected modes"
  else
    fail "$package's files or modes differ (< expected, > in the package):"; cat "$work/diff"
  fi
  dpkg-deb -c "$deb" | awk '$2 != "root/root" {print}' >"$work/owners"
  [ ! -s "$work/owners" ] || { fail "$package has files not owned by root:"; cat "$work/owners"; }
  dpkg-deb -c "$deb" | awk '$1 ~ /^d/ && $1 != "drwxr-xr-x" {print}' >"$work/dirs"
  [ ! -s "$work/dirs" ] || { fail "$package has directories not 0755:"; cat "$work/dirs"; }
  mkdir -p "$work/$package/root" "$work/$package/control"
  dpkg-deb -x "$deb" "$work/$package/root"
  dpkg-deb -e "$deb" "$work/$package/control"

  if grep -rIl /usr/local "$work/$package/root" >"$work/local"; then
    fail "$package names /usr/local in: $(sed "s|$work/$package/root||" "$work/local" | tr '\n' ' ')"
  else
    pass "$package names no /usr/local in its text files"
  fi
  for program in $(find "$work/$package/root/usr/bin" "$work/$package/root/usr/sbin" -type f 2>/dev/null); do
    if readelf -S "$program" | grep -q -E '\.symtab|\.debug_'; then fail "$package: ${program#"$work/$package/root"} is not stripped"; fi
    # Stripped, it still runs and is the version the package says.
    got=$("$program" --version 2>&1) || true
    [ "$got" = "$upstream" ] || fail "$package: ${program#"$work/$package/root"} --version printed '$got', not $upstream"
  done
  for script in preinst postinst prerm postrm; do
    s="$work/$package/control/$script"
    [ -f "$s" ] || continue
    [ "$(stat -c %a "$s")" = 755 ] || fail "$package's $script is not 0755"
    sh -n "$s" || fail "$package's $script is not valid sh"
    head -1 "$s" | grep -qx '#!/bin/sh' || fail "$package's $script does not start with #!/bin/sh"
    grep -qx 'set -e' "$s" || fail "$package's $script does not set -e"
  done

  # Depends: the version pinned between the packages, and the libraries from dpkg-shlibdeps.
  dpkg-deb -f "$deb" Version | grep -qx "$version" || fail "$package's Version is not $version"
  depends=$(dpkg-deb -f "$deb" Depends)
  case "$depends" in *'${'*) fail "$package's Depends has an unexpanded substitution: $depends" ;; esac
  echo "$depends" | grep -q 'libc6 (>= ' || fail "$package's Depends has no versioned libc6 (dpkg-shlibdeps did not run?): $depends"
done
pass "maintainer scripts are valid sh with set -e"

r="$work/fpbridged/root" k="$work/fpbridge-kiosk/root"
if [ -d "$r" ]; then
  grep -qx 'ExecStart=/usr/sbin/fpbridged .*' "$r/usr/lib/systemd/system/fpbridged.service" || fail "fpbridged.service does not start /usr/sbin/fpbridged"
  grep -qx 'SystemdService=fpbridged.service' "$r/usr/share/dbus-1/system-services/net.reactivated.Fprint.service" || fail "the activation file does not name fpbridged.service"
  # The two profiles (docs/packaging.md): fpbridge, touch or type in fprintd's place (Primary, above
  # pam_unix's 256 and pam_fprintd's 260, which it turns off); fpbridge-password, after the stack.
  profile="$r/usr/share/pam-configs/fpbridge" password_profile="$r/usr/share/pam-configs/fpbridge-password"
  grep -qx 'Name: Fingerprint or password (fpbridge)' "$profile" || fail "the profile fpbridge is not named \"Fingerprint or password (fpbridge)\""
  grep -qP '^\t\[success=end default=ignore\]\tpam_fpbridge.so$' "$profile" || fail "the profile fpbridge does not run [success=end default=ignore] pam_fpbridge.so (touch or type)"
  grep -qx 'Auth-Type: Primary' "$profile" || fail "the profile fpbridge is not Auth-Type: Primary"
  grep -qx 'Conflicts: fprintd' "$profile" || fail "the profile fpbridge does not conflict with fprintd's"
  priority=$(sed -n 's/^Priority: //p' "$profile")
  [ "${priority:-0}" -gt 260 ] || fail "the profile fpbridge's Priority ($priority) is not above pam_fprintd's 260 and pam_unix's 256"
  grep -qx 'Default: no' "$profile" && grep -qx 'Default: no' "$password_profile" || fail "a PAM profile is not Default: no"
  grep -qP '^\toptional\tpam_fpbridge.so password-proved$' "$password_profile" || fail "the profile fpbridge-password does not run pam_fpbridge.so password-proved"
  grep -qx 'Auth-Type: Additional' "$password_profile" || fail "the profile fpbridge-password is not Auth-Type: Additional"
  module="$r/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/security/pam_fpbridge.so"
  exported=$(nm -D --defined-only "$module" | awk '{print $3}' | sort | tr '\n' ' ')
  [ "$exported" = "pam_sm_authenticate pam_sm_setcred " ] || fail "the packaged PAM module exports more than pam_sm_*: $exported"
  case "$(dpkg-deb -f "$dir/fpbridged_${version}_${arch}.deb" Depends)" in *libpam0g*) ;; *) fail "fpbridged's Depends lacks libpam0g (the module's library)" ;; esac
  cmp -s systemd/fpbridge.sysusers "$r/usr/lib/sysusers.d/fpbridge.conf" || fail "the packaged sysusers file is not systemd/fpbridge.sysusers"
  depends=$(dpkg-deb -f "$dir/fpbridged_${version}_${arch}.deb" Depends)
  # Debian 13's name for libtss2-mu.so.0 beside Debian 12's (packaging/debian/shlibs.local): without
  # it apt on Debian 13 refuses the package (issue 51).
  for need in "fpbridge (= $version)" 'dbus' 'libpam-runtime' 'init-system-helpers' 'libfprint-2-2 (>= ' \
      'libtss2-mu0 (>= 3.0.1) | libtss2-mu-4.0.1-0t64'; do
    case "$depends" in *"$need"*) ;; *) fail "fpbridged's Depends lacks '$need': $depends" ;; esac
  done
  # Computed, not written: the control template names no library the programs link.
  if grep -E '^ *(Depends|[^:]*,)' packaging/debian/control | grep -q -E 'libfprint|libglib|libc6|libgusb'; then
    fail "packaging/debian/control names a library by hand (they come from \${shlibs:Depends})"
  fi
  pass "fpbridged: unit, activation file, PAM profiles, sysusers and Depends as expected"
fi
if [ -d "$k" ]; then
  grep -qx 'ExecStart=/usr/bin/fpbridge-kiosk .*' "$k/usr/lib/systemd/system/fpbridge-kiosk.service" || fail "fpbridge-kiosk.service does not start /usr/bin/fpbridge-kiosk"
  dpkg-deb -f "$dir/fpbridge-kiosk_${version}_${arch}.deb" Depends | grep -qF "fpbridged (= $version)" || fail "fpbridge-kiosk does not depend on fpbridged (= $version)"
fi

# The maintainer scripts, run. Each stand-in logs its name and arguments; systemctl is-active says
# dbus and fprintd run (FPRINTD_ACTIVE=no: fprintd does not). In a private mount namespace with
# tmpfs over /run (where "systemd runs" is /run/systemd/system) and /var/lib (purge removes
# /var/lib/fpbridge), so that nothing of this machine is touched.
stubs="$work/stubs"
mkdir -p "$stubs"
for command in systemd-sysusers systemctl deb-systemd-invoke deb-systemd-helper udevadm pam-auth-update \
    dbus-send dpkg-divert userdel groupdel getent; do
  cat >"$stubs/$command" <<'EOF'
#!/bin/sh
echo "$(basename "$0") $*" >>"$STUB_LOG"
case "$(basename "$0") $*" in
  "systemctl is-active --quiet fprintd.service") [ "${FPRINTD_ACTIVE:-yes}" = yes ]; exit ;;
  # dpkg-divert as the real one answers: --listpackage prints the diversion's owner (LOCAL for
  # an administrator's, nothing when there is none); removing another owner's diversion as
  # fpbridged's fails with status 2.
  "dpkg-divert --listpackage"*) [ -z "${DIVERSION_OWNER:-}" ] || echo "$DIVERSION_OWNER" ;;
  "dpkg-divert --package fpbridged "*"--remove "*)
    if [ -n "${DIVERSION_OWNER:-}" ] && [ "$DIVERSION_OWNER" != fpbridged ]; then
      echo "dpkg-divert: error: mismatch on package" >&2; exit 2
    fi ;;
esac
exit 0
EOF
  chmod 755 "$stubs/$command"
done

run_script() {  # run_script CASE PACKAGE SCRIPT ARGS...: the log in $work/CASE.log, its status in $work/CASE.status
  local name=$1 package=$2 script=$3; shift 3
  : >"$work/$name.log"
  set +e
  STUB_LOG="$work/$name.log" PATH="$stubs:/usr/sbin:/usr/bin:/sbin:/bin" \
    FPRINTD_ACTIVE="${FPRINTD_ACTIVE:-yes}" DIVERSION_OWNER="${DIVERSION_OWNER-fpbridged}" \
    USB_DEVICES="${USB_DEVICES:-}" RULES="$work/fpbridged/root/usr/lib/udev/rules.d/70-fpbridge.rules" PAM_STACK="${PAM_STACK:-}" unshare -m --propagation private sh -c '
    set -e
    mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /var/lib && mountpoint -q /run && mountpoint -q /var/lib
    # USB_DEVICES="1-1=VVVV:PPPP ...": the USB devices sysfs shows (a tmpfs over /sys/bus), and
    # the package'"'"'s udev rules where it installs them.
    if [ -n "$USB_DEVICES" ]; then
      mkdir -p /usr/lib/udev/rules.d && mount -t tmpfs tmpfs /usr/lib/udev/rules.d
      cp "$RULES" /usr/lib/udev/rules.d/
      mount -t tmpfs tmpfs /sys/bus
      for device in $USB_DEVICES; do
        mkdir -p "/sys/bus/usb/devices/${device%%=*}"
        id=${device#*=}; echo "${id%:*}" >"/sys/bus/usb/devices/${device%%=*}/idVendor"; echo "${id#*:}" >"/sys/bus/usb/devices/${device%%=*}/idProduct"
      done
    fi
    # PAM_STACK=FILE: /etc/pam.d/common-auth as the scripts see it.
    [ -z "$PAM_STACK" ] || mount --bind "$PAM_STACK" /etc/pam.d/common-auth
    case "$SYSTEMD" in yes) mkdir -p /run/systemd/system ;; esac
    case "$BUS" in yes) mkdir -p /run/dbus && python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"/run/dbus/system_bus_socket\")" ;; esac
    case "$UDEV" in yes) mkdir -p /run/udev && python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"/run/udev/control\")" ;; esac
    mkdir -p /var/lib/fpbridge && touch /var/lib/fpbridge/state
    sh "$@" >"$OUT" 2>&1 || { echo $? >"$STATUS"; exit 0; }
    echo 0 >"$STATUS"
    [ -e /var/lib/fpbridge ] && echo "state kept" >>"$STUB_LOG" || echo "state removed" >>"$STUB_LOG"
  ' sh "$work/$package/control/$script" "$@"
  set -e
}
# in_order CASE PATTERN...: each pattern matches a line of CASE's log, in this order.
in_order() {
  local name=$1 last=0 pattern line; shift
  for pattern in "$@"; do
    line=$(grep -n -E -- "$pattern" "$work/$name.log" | head -1 | cut -d: -f1 || true)
    if [ -z "$line" ]; then fail "$name: '$pattern' was not run:"; sed 's/^/    /' "$work/$name.log"; return; fi
    if [ "$line" -le "$last" ]; then fail "$name: '$pattern' did not run after the step before it:"; sed 's/^/    /' "$work/$name.log"; return; fi
    last=$line
  done
  pass "$name: $(echo "$@" | sed 's/\^//g; s/\\//g')"
}
status_is() {  # status_is CASE STATUS
  [ "$(cat "$work/$1.status" 2>/dev/null)" = "$2" ] || { fail "$1 exited $(cat "$work/$1.status" 2>/dev/null), expected $2:"; cat "$work/$1.out"; }
}
not_run() {  # not_run CASE PATTERN
  if grep -q -E -- "$2" "$work/$1.log"; then fail "$1: '$2' ran:"; sed 's/^/    /' "$work/$1.log"; fi
}
export SYSTEMD BUS UDEV OUT STATUS
go() {  # go CASE SYSTEMD BUS UDEV PACKAGE SCRIPT ARGS...
  local name=$1
  SYSTEMD=$2 BUS=$3 UDEV=$4 OUT="$work/$name.out" STATUS="$work/$name.status"
  shift 4
  run_script "$name" "$@"
}

if [ -d "$r" ]; then
  # A reader the rules name (08ff:1600, AuthenTec) and a keyboard they do not (046d:c31c): only
  # the reader is triggered.
  reader_id=$(sed -n 's/^ATTR{idVendor}=="\([0-9a-f]*\)", ATTR{idProduct}=="\([0-9a-f]*\)".*/\1:\2/p' "$r/usr/lib/udev/rules.d/70-fpbridge.rules" | head -1)
  USB_DEVICES="1-1=$reader_id 1-2=046d:c31c" go "fpbridged-postinst-booted" yes yes yes fpbridged postinst configure
  status_is fpbridged-postinst-booted 0
  in_order fpbridged-postinst-booted '^systemd-sysusers fpbridge.conf' '^deb-systemd-invoke reload dbus.service' \
    '^udevadm control --reload-rules' '^udevadm trigger --action=change /sys/bus/usb/devices/1-1$' '^pam-auth-update --package$' \
    '^deb-systemd-helper enable fpbridged.service' '^deb-systemd-invoke stop fprintd.service' \
    '^systemctl --system daemon-reload' '^deb-systemd-invoke restart fpbridged.service'
  not_run fpbridged-postinst-booted '^udevadm trigger .*1-2|^udevadm trigger --subsystem'
  # Run twice: a second configure (or an abort-upgrade) does the same again and succeeds.
  go "fpbridged-postinst-again" yes yes yes fpbridged postinst configure "$version"
  status_is fpbridged-postinst-again 0
  FPRINTD_ACTIVE=no go "fpbridged-postinst-no-fprintd" yes yes no fpbridged postinst configure
  status_is fpbridged-postinst-no-fprintd 0
  not_run fpbridged-postinst-no-fprintd 'stop fprintd|^udevadm'
  # A chroot: no systemd, no bus, no udev: the users, PAM and the enablement only.
  go "fpbridged-postinst-chroot" no no no fpbridged postinst configure
  status_is fpbridged-postinst-chroot 0
  in_order fpbridged-postinst-chroot '^systemd-sysusers fpbridge.conf' '^pam-auth-update --package$' '^deb-systemd-helper enable fpbridged.service'
  not_run fpbridged-postinst-chroot '^systemctl|^deb-systemd-invoke|^dbus-send|^udevadm'
  # A bus without systemd: the same reload, straight to the bus, after the users.
  go "fpbridged-postinst-bus-only" no yes no fpbridged postinst configure
  status_is fpbridged-postinst-bus-only 0
  in_order fpbridged-postinst-bus-only '^systemd-sysusers fpbridge.conf' '^dbus-send --system --print-reply .*ReloadConfig'

  go "fpbridged-preinst-install" yes yes no fpbridged preinst install
  status_is fpbridged-preinst-install 0
  in_order fpbridged-preinst-install \
    '^dpkg-divert --package fpbridged --rename --divert /usr/share/dbus-1/system-services/net.reactivated.Fprint.service.fprintd --add /usr/share/dbus-1/system-services/net.reactivated.Fprint.service$' \
    '^dpkg-divert --package fpbridged --rename --divert /usr/share/polkit-1/actions/net.reactivated.fprint.device.policy.fprintd --add /usr/share/polkit-1/actions/net.reactivated.fprint.device.policy$'
  DIVERSION_OWNER=LOCAL go "fpbridged-preinst-after-make-install" yes yes no fpbridged preinst install
  status_is fpbridged-preinst-after-make-install 1
  grep -q "make uninstall" "$work/fpbridged-preinst-after-make-install.out" || fail "the preinst refusing a local diversion does not say to run make uninstall"
  not_run fpbridged-preinst-after-make-install ' --add '
  # dpkg then runs postrm abort-install: the administrator's diversion stays, and the script
  # succeeds (it failed under set -e, leaving the package half-installed).
  DIVERSION_OWNER=LOCAL go "fpbridged-postrm-abort-install-local" yes yes no fpbridged postrm abort-install
  status_is fpbridged-postrm-abort-install-local 0
  not_run fpbridged-postrm-abort-install-local ' --remove '

  go "fpbridged-prerm-remove" yes yes no fpbridged prerm remove
  status_is fpbridged-prerm-remove 0
  in_order fpbridged-prerm-remove '^pam-auth-update --package --remove fpbridge fpbridge-password$' '^deb-systemd-invoke stop fpbridged.service'
  # A prerm that fails after taking the profiles off (dpkg then runs postinst abort-remove): postinst
  # puts back the profiles that were on (prerm is run to its end here, then abort-remove).
  printf 'auth\t[success=2 default=ignore]\tpam_fpbridge.so\nauth\t[success=1 default=ignore]\tpam_unix.so nullok try_first_pass\nauth\trequisite\tpam_deny.so\nauth\trequired\tpam_permit.so\nauth\toptional\tpam_fpbridge.so password-proved\n' >"$work/common-auth-both"
  printf 'auth\t[success=1 default=ignore]\tpam_unix.so nullok\nauth\trequisite\tpam_deny.so\nauth\trequired\tpam_permit.so\nauth\toptional\tpam_fpbridge.so password-proved\n' >"$work/common-auth-recovery"
  # prerm's record and postinst abort-remove in one namespace (the record is in /var/lib/fpbridge).
  mkdir -p "$work/abort/control"
  cat >"$work/abort/control/both" <<'SCRIPT'
sh "$1/prerm" remove && sh "$1/postinst" abort-remove
SCRIPT
  for stack in both recovery; do
    PAM_STACK="$work/common-auth-$stack" go "fpbridged-abort-remove-$stack" yes yes no abort both "$work/fpbridged/control"
    status_is "fpbridged-abort-remove-$stack" 0
  done
  in_order fpbridged-abort-remove-both '^pam-auth-update --package --remove fpbridge fpbridge-password$' '^pam-auth-update --package$' '^pam-auth-update --package --enable fpbridge fpbridge-password$'
  in_order fpbridged-abort-remove-recovery '^pam-auth-update --package --remove fpbridge fpbridge-password$' '^pam-auth-update --package --enable fpbridge-password$'
  not_run fpbridged-abort-remove-recovery '^pam-auth-update --package --enable fpbridge fpbridge-password$'
  # A removal that went through: postrm forgets the record, and a later install enables nothing.
  cat >"$work/abort/control/removed" <<'SCRIPT'
sh "$1/prerm" remove && sh "$1/postrm" remove && sh "$1/postinst" configure
SCRIPT
  PAM_STACK="$work/common-auth-both" go "fpbridged-removed-then-installed" yes yes no abort removed "$work/fpbridged/control"
  status_is fpbridged-removed-then-installed 0
  not_run fpbridged-removed-then-installed '^pam-auth-update --package --enable'
  # A note an earlier removal left (its postrm never ran) does not speak for a prerm that finds
  # no profile on: abort-remove then enables nothing.
  cat >"$work/abort/control/stale" <<'SCRIPT'
mkdir -p /var/lib/fpbridge && echo fpbridge >/var/lib/fpbridge/pam-profiles-before-remove
sh "$1/prerm" remove && sh "$1/postinst" abort-remove
SCRIPT
  printf 'auth\t[success=1 default=ignore]\tpam_unix.so nullok\nauth\trequisite\tpam_deny.so\nauth\trequired\tpam_permit.so\n' >"$work/common-auth-none"
  PAM_STACK="$work/common-auth-none" go "fpbridged-abort-remove-stale-note" yes yes no abort stale "$work/fpbridged/control"
  status_is fpbridged-abort-remove-stale-note 0
  not_run fpbridged-abort-remove-stale-note '^pam-auth-update --package --enable'
  go "fpbridged-prerm-upgrade" yes yes no fpbridged prerm upgrade "$version"
  status_is fpbridged-prerm-upgrade 0
  not_run fpbridged-prerm-upgrade 'stop|pam-auth-update'

  go "fpbridged-postrm-remove" yes yes no fpbridged postrm remove
  status_is fpbridged-postrm-remove 0
  in_order fpbridged-postrm-remove '^dpkg-divert --package fpbridged --rename .*--remove /usr/share/dbus-1/system-services/net.reactivated.Fprint.service$' \
    '^dpkg-divert --package fpbridged --rename .*--remove /usr/share/polkit-1/actions/net.reactivated.fprint.device.policy$' \
    '^deb-systemd-invoke reload dbus.service' '^state kept'
  not_run fpbridged-postrm-remove '^userdel|^groupdel'
  go "fpbridged-postrm-purge" yes yes no fpbridged postrm purge
  status_is fpbridged-postrm-purge 0
  in_order fpbridged-postrm-purge '--remove /usr/share/dbus-1/system-services/net.reactivated.Fprint.service$' \
    '^deb-systemd-helper purge fpbridged.service' '^state removed'
  # Debian keeps system accounts on purge (docs/packaging.md).
  not_run fpbridged-postrm-purge '^userdel|^groupdel'
  go "fpbridged-postrm-upgrade" yes yes no fpbridged postrm upgrade "$version"
  status_is fpbridged-postrm-upgrade 0
  not_run fpbridged-postrm-upgrade '^dpkg-divert|^userdel|^groupdel|^state removed'
fi
if [ -d "$k" ]; then
  go "kiosk-postinst-booted" yes yes no fpbridge-kiosk postinst configure
  status_is kiosk-postinst-booted 0
  in_order kiosk-postinst-booted '^systemd-sysusers fpbridge-kiosk.conf' '^deb-systemd-helper enable fpbridge-kiosk.service' '^deb-systemd-invoke restart fpbridge-kiosk.service'
  go "kiosk-postrm-purge" yes yes no fpbridge-kiosk postrm purge
  status_is kiosk-postrm-purge 0
  in_order kiosk-postrm-purge '^deb-systemd-helper purge fpbridge-kiosk.service' '^deb-systemd-helper purge fpbridge-kiosk-browser.service'
  not_run kiosk-postrm-purge '^userdel|^groupdel'
fi

if [ "$failures" -gt 0 ]; then
  echo "deb-check: $failures check(s) failed"
  exit 1
fi
echo "deb-check: every check passed"
