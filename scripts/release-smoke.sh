#!/usr/bin/env bash
# The release build, as `make install` installs it, doing the main job once: the optimizer can
# break what the debug build under test does right (Swift 6.3's release build crashed every
# match in a task-local's withValue, and only the release benchmark showed it). In-process on
# the fake reader (set a passcode, enroll, verify, a wrong finger, identify), then through a
# release fpbridged on its socket and on a private bus (fprintd's tools). Fails on any
# unexpected exit status.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-release.sh
bin="$(swift build -c release --show-bin-path)"
work=$(mktemp -d /tmp/fpbridge-release-XXXXXX)
chmod 700 "$work"
service=""
trap '[ -n "$service" ] && kill "$service" 2>/dev/null; rm -rf "$work"' EXIT

expect() {  # expect STATUS COMMAND...: runs it, fails unless it exits with STATUS
  local want=$1; shift
  set +e; "$@" >"$work/out" 2>&1; local got=$?; set -e
  if [ "$got" != "$want" ]; then
    echo "release smoke: '$*' exited $got, expected $want:"; cat "$work/out"; exit 1
  fi
}
script() { printf '%s\n' "$@" >"$work/script"; echo "fake:$work/script"; }

export FPBRIDGE_STATE_DIR="$work/state" FPBRIDGE_SERVICE=off
echo 2468 | expect 0 "$bin/fpbridge" passcode set --reader fake --passcode-stdin
echo 2468 | expect 0 "$bin/fpbridge" enroll --reader "$(script 'scan p1' 'scan p1' 'scan p1' 'scan p1' 'scan p1')" --finger right-index --passcode-stdin
expect 0 "$bin/fpbridge" verify --reader "$(script 'scan p1')"
expect 1 "$bin/fpbridge" verify --reader "$(script 'scan p2')"
expect 0 "$bin/fpbridge" identify --reader "$(script 'scan p1')"
echo "release smoke: in-process enroll, verify, no match and identify as expected"

# A private system bus with polkit mocked, for the release fpbridged's D-Bus face.
dbus-daemon --session --print-address=1 --nofork --nopidfile >"$work/bus.address" 2>/dev/null &
bus=$!
for _ in $(seq 100); do [ -s "$work/bus.address" ] && break; sleep 0.05; done
export DBUS_SYSTEM_BUS_ADDRESS="$(head -1 "$work/bus.address")"
/usr/bin/python3 -m dbusmock --system --template polkitd >/dev/null 2>&1 &
polkit=$!
trap '[ -n "$service" ] && kill "$service" 2>/dev/null; kill "$polkit" "$bus" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  gdbus call --system -d org.freedesktop.PolicyKit1 -o /org/freedesktop/PolicyKit1/Authority \
    -m org.freedesktop.DBus.Mock.AllowUnknown true >/dev/null 2>&1 && break
  sleep 0.1
done

printf 'scan p1\n' >"$work/dbus-script"
"$bin/fpbridged" --test-mode --dbus on --reader "fake:$work/dbus-script" --socket "$work/fpbridged.sock" \
  --state-dir "$work/service" >"$work/service.log" 2>&1 &
service=$!
for _ in $(seq 100); do [ -S "$work/fpbridged.sock" ] && break; sleep 0.1; done
export FPBRIDGE_SERVICE="$work/fpbridged.sock"
unset FPBRIDGE_STATE_DIR
echo 2468 | expect 0 "$bin/fpbridge" passcode set --reader fake --passcode-stdin
echo 2468 | expect 0 "$bin/fpbridge" enroll --reader "$(script 'scan p1' 'scan p1' 'scan p1' 'scan p1' 'scan p1')" --finger right-index --passcode-stdin
expect 0 "$bin/fpbridge" verify --reader "$(script 'scan p1')"
echo "release smoke: enroll and verify through a release fpbridged as expected"

# Its D-Bus face, with Debian's fprintd tools when they are installed (scripts/test.sh installs them).
if command -v fprintd-verify >/dev/null; then
  for _ in $(seq 100); do
    gdbus call --system -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.NameHasOwner \
      net.reactivated.Fprint 2>/dev/null | grep -q true && break
    sleep 0.1
  done
  expect 0 fprintd-list root
  grep -q "right-index-finger" "$work/out" || { echo "release smoke: fprintd-list does not list the print:"; cat "$work/out"; exit 1; }
  expect 0 fprintd-verify root
  grep -q "verify-match (done)" "$work/out" || { echo "release smoke: fprintd-verify did not match:"; cat "$work/out"; exit 1; }
  echo "release smoke: fprintd-list and fprintd-verify through the release fpbridged's D-Bus face as expected"
fi

# The release kiosk against the same fpbridged: the fake reader matches root at once, so the page's
# stream goes to a welcome; the PIN pad answers through passcode-check.
"$bin/fpbridge-kiosk" --service "$work/fpbridged.sock" --listen 127.0.0.1:0 >"$work/kiosk.out" 2>"$work/kiosk.log" &
kiosk=$!
trap '[ -n "$service" ] && kill "$service" 2>/dev/null; kill "$kiosk" "$polkit" "$bus" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q serving "$work/kiosk.out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^fpbridge-kiosk: serving \([^ ]*\) .*/\1/p' "$work/kiosk.out")
[ -n "$url" ] || { echo "release smoke: fpbridge-kiosk did not start:"; cat "$work/kiosk.log"; exit 1; }
curl -sN --max-time 10 "${url}events" >"$work/events" || true
grep -q '"state":"welcome"' "$work/events" && grep -q '"user":"root"' "$work/events" \
  || { echo "release smoke: the kiosk's stream never welcomed root:"; cat "$work/events" "$work/kiosk.log"; exit 1; }
curl -sf -X POST -H 'Content-Type: application/json' -d '{"user":"root","pin":"2468"}' "${url}pin" >"$work/pin" \
  && grep -q '"ok":true' "$work/pin" || { echo "release smoke: the kiosk's PIN pad refused root's PIN:"; cat "$work/pin"; exit 1; }
echo "release smoke: the release fpbridge-kiosk welcomed root at the (fake) reader and took root's PIN"

# A release fpbridged on libfprint's virtual_device whose reader closes after every verify: the
# optimizer once hoisted a lock's thread id above an await, and the close crashed the service one
# time in three (scripts/reader-cycles.py, FPVocabulary/Locked.swift). 12 closes.
mkdir -m 700 "$work/cycles-state"
FP_VIRTUAL_DEVICE="$work/vdev.sock" FP_DRIVERS_WHITELIST=virtual_device FP_DEVICE_EMULATION=1 \
  "$bin/fpbridged" --test-mode --dbus off --reader-idle-seconds 1 --socket "$work/cycles.sock" \
  --state-dir "$work/cycles-state" >"$work/cycles.log" 2>&1 &
cycles=$!
trap '[ -n "$service" ] && kill "$service" 2>/dev/null; kill "$cycles" "$kiosk" "$polkit" "$bus" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -S "$work/cycles.sock" ] && break; sleep 0.1; done
python3 scripts/reader-cycles.py "$bin/fpbridge" "$work/cycles.sock" "$work/vdev.sock" "$cycles" 12 1 \
  || { echo "release smoke: fpbridged's log:"; cat "$work/cycles.log"; exit 1; }
