# Helpers the checks share: driving programs on a terminal, the virtual reader, the lockout
# (sourced by scripts/booted-check.sh).

DRIVE=$(dirname "${BASH_SOURCE[0]}")/drive.py
GUEST_LIB=/usr/local/lib/booted-check
# The virtual reader's socket for each daemon (its unit's drop-in names it).
VDEV_FPBRIDGED=/run/fpbridge/vdev.sock
VDEV_FPRINTD=/run/fprintd-vdev.sock
VDEV=$VDEV_FPBRIDGED
WITH_AGENT=$GUEST_LIB/with-agent

# drive USER STEP... -- COMMAND...: scripts/booted/drive.py (a terminal; see there).
drive() {
  local user=$1; shift
  /usr/bin/python3 "$DRIVE" --leader "$LEADER" --user "$user" --vdev "$VDEV" --timeout "${DRIVE_TIMEOUT:-20}" "$@"
}

# The virtual reader for both daemons: libfprint's virtual_device, the only driver allowed.
# fpbridged's user cannot create a socket in /run itself: its RuntimeDirectory /run/fpbridge.
install_reader_dropins() {
  local root=$1
  mkdir -p "$root/etc/systemd/system/fpbridged.service.d" "$root/etc/systemd/system/fprintd.service.d"
  cat >"$root/etc/systemd/system/fpbridged.service.d/booted-check-virtual-reader.conf" <<EOF
# scripts/booted-check.sh: libfprint's virtual_device as the reader (the check sends SCAN ID).
[Service]
Environment=FP_VIRTUAL_DEVICE=$VDEV_FPBRIDGED FP_DRIVERS_WHITELIST=virtual_device FP_DRIVERS_ALLOWLIST=virtual_device
EOF
  cat >"$root/etc/systemd/system/fprintd.service.d/booted-check-virtual-reader.conf" <<EOF
# scripts/booted-check.sh: libfprint's virtual_device as the reader (the check sends SCAN ID).
[Service]
Environment=FP_VIRTUAL_DEVICE=$VDEV_FPRINTD FP_DRIVERS_WHITELIST=virtual_device FP_DRIVERS_ALLOWLIST=virtual_device
EOF
  # The kiosk's browser session (fpbridge-kiosk-browser.service) as the package installs it, and
  # what a container without a display needs beside it: cage's headless output (no DRM device
  # here), no tty1, and Chromium's debugging port (/etc/chromium.d, which Debian's
  # /usr/bin/chromium reads) for the check to read what the browser shows. Nothing else changes.
  mkdir -p "$root/etc/systemd/system/fpbridge-kiosk-browser.service.d"
  cat >"$root/etc/systemd/system/fpbridge-kiosk-browser.service.d/booted-check-headless.conf" <<'CONF'
# scripts/booted-check.sh: no display and no tty1 in the container.
[Service]
TTYPath=
StandardInput=null
TTYReset=no
TTYVHangup=no
TTYVTDisallocate=no
Environment=WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 WLR_HEADLESS_OUTPUTS=1
CONF
  mkdir -p "$root/etc/chromium.d"
  echo 'export CHROMIUM_FLAGS="$CHROMIUM_FLAGS --remote-debugging-port=9222"' >"$root/etc/chromium.d/booted-check-debugging"
  mkdir -p "$root$GUEST_LIB"
  cp "$(dirname "${BASH_SOURCE[0]}")"/guest/* "$root$GUEST_LIB/"
}

# polkit_rule: the rule scripts/booted/polkit-rule.py explains, from the policy installed now.
polkit_rule() {
  local policy=/usr/share/polkit-1/actions/net.reactivated.fprint.device.policy
  say "$ polkit-rule.py $policy alice bob > /etc/polkit-1/rules.d/49-booted-check.rules"
  /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/polkit-rule.py" "/proc/$LEADER/root$policy" alice bob |
    sed "s#/proc/$LEADER/root##" >"/proc/$LEADER/root/etc/polkit-1/rules.d/49-booted-check.rules"
  sleep 0.3 # polkitd reloads rules.d on change (inotify)
}

# enroll_steps ID: the virtual reader's five enroll scans, each answered before the next.
enroll_steps() {
  local i
  for i in 1 2 3 4; do printf '%s\n' "scan:$1" "expect:enroll-stage-passed"; done
  printf '%s\n' "scan:$1" "expect:enroll-completed" "exit:0"
}
# enroll_as_root USER ID: root enrolls USER's right index finger (no polkit question for root).
enroll_as_root() {
  local steps; mapfile -t steps < <(enroll_steps "$2")
  drive root expect:"Enrolling right-index-finger" "${steps[@]}" -- fprintd-enroll "$1"
}
# verify_as USER ID RESULT: USER verifies with finger ID; RESULT is verify-match or verify-no-match.
verify_as() {
  drive "$1" expect:"Verify started" scan:"$2" expect:"Verify result: $3" -- fprintd-verify
}

# lockout USER: "locked", "unlocked" (fpbridge status --json as USER, through the service), or
# what went wrong.
lockout() {
  local json
  # After a crash systemd restarts fpbridged (RestartSec=2s): wait for it rather than report
  # the gap again (the crash itself is reported once, by crash_report).
  [ "${DAEMON:-fpbridged}" != fpbridged ] || fpbridged_ready || true
  # --service: the service's state, never the in-process engine's that `auto` falls back to
  # when the socket is missing.
  json=$(guest_unit "$1" fpbridge status --service /run/fpbridge/fpbridged.sock --json 2>&1)
  printf '%s' "$json" | /usr/bin/python3 -c '
import json, sys
text = sys.stdin.read()
try:
    answer = json.loads(text)
    b = answer["biometry"]
    rule = (answer.get("password") or {}).get("rule")  # the password rules of issue 39, when the build has them
    print(("locked" if b["lockedOut"] else "unlocked") + " (failures %s%s)" % (b.get("failures"), ", password rule " + rule if rule else ""))
except Exception:
    print("unknown: " + text.replace("\n", " ")[:300])'
}
# expect_lockout USER STATE WHY: pass when USER's lockout is STATE (locked|unlocked).
expect_lockout() {
  local seen; seen=$(lockout "$1")
  say "$ ($1) fpbridge status --service /run/fpbridge/fpbridged.sock --json -> biometry: $seen"
  case "$seen" in "$2 "*) pass "$3 ($1 $seen)" ;; *) fail "$3: $1 is $seen, expected $2" ;; esac
}
# lock_by_verify USER WRONG-ID: five fprintd-verify runs with a wrong finger (a lockout, quickly).
lock_by_verify() {
  local i
  for i in 1 2 3 4 5; do verify_as "$1" "$2" verify-no-match >/dev/null || say "  (verify $i of 5 did not end in verify-no-match)"; done
  say "locked $1 by five fprintd-verify with a wrong finger"
}

# fpbridged_ready: active, and the bus name owned by its main process (polls up to 10 s).
fpbridged_ready() {
  local i main owner
  for i in $(seq 1 100); do
    main=$(guest_root systemctl show -p MainPID --value fpbridged 2>/dev/null)
    owner=$(guest_root busctl --system call org.freedesktop.DBus / org.freedesktop.DBus GetConnectionUnixProcessID s net.reactivated.Fprint 2>/dev/null | awk '{ print $2 }')
    if [ "$(guest_root systemctl is-active fpbridged 2>/dev/null)" = active ] && [ -n "$main" ] && [ "$owner" = "$main" ]; then return 0; fi
    sleep 0.1
  done
  return 1
}

# crash_report: a failure for each fpbridged crash since the last call (its journal line), so
# that a crash is named once where it happened, not only through what failed after it.
CRASHES_SEEN=0
crash_report() {
  [ -n "${LEADER:-}" ] && [ "${DAEMON:-fpbridged}" = fpbridged ] || return 0
  local lines count
  lines=$(guest_root journalctl -q --no-pager -o short-precise -u fpbridged 2>/dev/null |
    grep -E 'Fatal error|code=killed|code=dumped' )
  count=$(printf '%s' "$lines" | grep -c 'code=' || true)
  # A reboot starts a new journal count only if the journal is volatile; it persists here.
  if [ "$count" -gt "$CRASHES_SEEN" ]; then
    fail "fpbridged crashed $((count - CRASHES_SEEN)) time(s) during this check:"
    printf '%s\n' "$lines" | tail -n $(( (count - CRASHES_SEEN) * 2 )) | sed 's/^/  ! /'
    CRASHES_SEEN=$count
  fi
}
