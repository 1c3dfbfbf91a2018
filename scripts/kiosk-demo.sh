#!/usr/bin/env bash
# The kiosk on libfprint's virtual_image reader, no hardware needed: builds, starts fpbridged in
# test mode on a socket of its own and a login server (fpbridge-server, SQLite) on loopback,
# enrolls alice and bob (PIN 2468 each), gives alice an account at the server bound to this
# fpbridged, starts fpbridge-kiosk with buttons that play a finger on the virtual reader, and
# prints the URL to open. alice's touch signs her in at the server; bob's finger is his but he
# has no account there (the page says so); the PIN pad works for both.
#
#   bash scripts/kiosk-demo.sh            # serves until Ctrl-C (KIOSK_PORT, default 8080; 0: a free one)
#   bash scripts/kiosk-demo.sh --check    # the same, then alice's touch must be welcomed; exits
#   KIOSK_BUILD=debug bash scripts/kiosk-demo.sh   # debug builds: quicker to build, slower to welcome
#
# Release builds by default (scripts/build-release.sh), as a kiosk runs them: finger to welcome
# in about 0.1 s, where debug builds are several times slower (README's kiosk section,
# BENCHMARKS.md). The
# first release build takes about 10 minutes on a 2-core machine; it says so before it starts.
#
# Fingers: NIST's images from ../shared/prints when present, else synthetic ones
# (bench/gallery/synth.py, python3-numpy). Everything lives in a temporary directory that is
# removed at the end; nothing of the machine's own fpbridge state is touched.
set -euo pipefail
cd "$(dirname "$0")/.."
check=no
[ "${1:-}" = --check ] && check=yes
port=${KIOSK_PORT:-8080}
build=${KIOSK_BUILD:-release}
products=(fpbridged fpbridge fpbridge-kiosk fpbridge-server)

bash scripts/install-packages.sh libfprint-2-dev libglib2.0-dev libpng-dev libsqlite3-dev libtss2-dev pkg-config python3-numpy curl
case "$build" in
  release)
    bin=$(swift build -c release --show-bin-path)
    if ! (for product in "${products[@]}"; do [ -x "$bin/$product" ] || exit 1; done); then
      cat <<TEXT
kiosk demo: building release builds of ${products[*]} (scripts/build-release.sh).
  The first time takes about 10 minutes on a 2-core machine (a few seconds once built).
  Not waiting: KIOSK_BUILD=debug bash scripts/kiosk-demo.sh runs debug builds instead, which
  are several times slower from finger to welcome than these (about 0.1 s).
TEXT
    fi
    bash scripts/build-release.sh "${products[@]}" ;;
  debug)
    for product in "${products[@]}"; do swift build --product "$product"; done
    bin=$(swift build --show-bin-path) ;;
  *)
    echo "KIOSK_BUILD must be release or debug, not '$build'" >&2; exit 2 ;;
esac

dir=$(mktemp -d /tmp/fpbridge-kiosk-demo-XXXXXX)
chmod 755 "$dir"
mkdir -m 700 "$dir/state"
mkdir "$dir/prints"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 0' INT TERM

if [ -f ../shared/prints/whorl.pgm ]; then
  cp ../shared/prints/whorl.pgm "$dir/prints/alice.pgm"
  cp ../shared/prints/loop-right.pgm "$dir/prints/bob.pgm"
  cp ../shared/prints/arch.pgm "$dir/prints/stranger.pgm"
else
  /usr/bin/python3 bench/gallery/synth.py --fingers 3 --impressions 1 --out "$dir/synth" >/dev/null
  cp "$dir/synth/f0000-1.pgm" "$dir/prints/alice.pgm"
  cp "$dir/synth/f0001-1.pgm" "$dir/prints/bob.pgm"
  cp "$dir/synth/f0002-1.pgm" "$dir/prints/stranger.pgm"
fi

# fpbridged in test mode, this user's group as its admin group (to enroll for alice and bob)
# and kiosk group (to identify and check PINs), as fpbridge-admin and fpbridge-kiosk are on a kiosk.
group=$(id -gn)
FP_DEVICE_EMULATION=1 FP_VIRTUAL_IMAGE="$dir/reader.sock" FP_DRIVERS_WHITELIST=virtual_image \
  "$bin/fpbridged" --socket "$dir/fpbridged.sock" --state-dir "$dir/state" --test-mode \
  --reader libfprint:virtual_image --admin-group "$group" --kiosk-group "$group" >"$dir/fpbridged.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$dir/fpbridged.sock" ] && break; sleep 0.1; done

# Five frames of a finger, one per enrollment stage, paced as virtual_image needs them.
play() {
  /usr/bin/python3 - "$dir/reader.sock" "$1" "$2" <<'PY'
import socket, struct, sys, time
path, image, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(image, "rb").read()
fields = data.split(maxsplit=4)
width, height = int(fields[1]), int(fields[2])
for _ in range(200):
    try:
        connection = socket.socket(socket.AF_UNIX)
        connection.connect(path)
        break
    except OSError:
        time.sleep(0.1)
time.sleep(2)
for _ in range(count):
    connection.sendall(struct.pack("=ii", width, height) + data[-width * height:])
    time.sleep(0.6)
time.sleep(0.5)
PY
}
fpbridge() { "$bin/fpbridge" --service "$dir/fpbridged.sock" --state-dir "$dir/state" "$@"; }
for user in alice bob; do
  echo 2468 | fpbridge --user "$user" passcode set --passcode-stdin >/dev/null
  play "$dir/prints/$user.pgm" 5 &
  echo 2468 | fpbridge --user "$user" enroll --finger right-index --passcode-stdin 2>/dev/null
  wait $!
done

# The login server on a free loopback port (plain HTTP on loopback only), and alice's account there,
# bound to this fpbridged as `fpbridge account bind` binds a device.
"$bin/fpbridge-server" --port 0 --database "$dir/server.sqlite" --password-cost 10 >"$dir/server.out" 2>"$dir/server.log" &
pids+=($!)
for _ in $(seq 100); do grep -q "listening on" "$dir/server.out" 2>/dev/null && break; sleep 0.1; done
server=$(sed -n 's/.*listening on \([^ ]*\) for origin.*/\1/p' "$dir/server.out")
[ -n "$server" ] || { echo "fpbridge-server did not start:"; cat "$dir/server.log"; exit 1; }
for step in register bind; do
  printf 'correct horse battery\n' | fpbridge --user alice account "$step" --password-stdin --server "$server" --account alice >/dev/null
done

# Badge numbers for the PIN pad, so that it works by touch alone (a kiosk under cage has no keyboard).
printf '1001 alice\n1002 bob\n' >"$dir/badges"
chmod 644 "$dir/badges"

"$bin/fpbridge-kiosk" --service "$dir/fpbridged.sock" --listen "127.0.0.1:$port" --server "$server" --badges "$dir/badges" \
  --demo-touch-socket "$dir/reader.sock" --demo-prints "$dir/prints" --demo-fingers alice,bob,stranger \
  --verbose >"$dir/kiosk.out" 2>"$dir/kiosk.log" &
pids+=($!)
for _ in $(seq 100); do grep -q serving "$dir/kiosk.out" 2>/dev/null && break; sleep 0.1; done
if ! grep -q serving "$dir/kiosk.out"; then
  echo "fpbridge-kiosk did not start:"; cat "$dir/kiosk.log"; exit 1
fi
url=$(sed -n 's/^fpbridge-kiosk: serving \([^ ]*\) .*/\1/p' "$dir/kiosk.out")

if [ "$check" = yes ]; then
  curl -sN --max-time 40 "${url}events" >"$dir/events" &
  watcher=$!
  sleep 1
  # alice is welcomed; after the welcome, a stranger is not recognised.
  curl -sf -X POST -H 'Content-Type: application/json' -d '{"finger":"alice"}' "${url}demo/touch"
  for _ in $(seq 150); do grep -q '"welcome"' "$dir/events" && break; sleep 0.1; done
  sleep 5
  curl -sf -X POST -H 'Content-Type: application/json' -d '{"finger":"stranger"}' "${url}demo/touch"
  for _ in $(seq 150); do grep -q '"notRecognised"' "$dir/events" && break; sleep 0.1; done
  kill "$watcher" 2>/dev/null || true
  # alice's badge and PIN: a session at the login server too.
  pin=$(curl -s -X POST -H 'Content-Type: application/json' -d '{"user":"1001","pin":"2468"}' "${url}pin")
  if grep -q '"session":"[^"]' "$dir/events" && grep -q '"user":"alice"' "$dir/events" && grep -q '"notRecognised"' "$dir/events" \
      && ! grep -q '"user":"bob"' "$dir/events" && grep -q '"session":"[^"]' <<<"$pin" && grep -q '"user":"alice"' <<<"$pin"; then
    echo "kiosk demo: alice's touch and her badge and PIN signed her in at the login server, the stranger's touch was refused"
    exit 0
  fi
  echo "PIN answer: $pin"
  echo "kiosk demo: not as expected:"; cat "$dir/events" "$dir/kiosk.log"; exit 1
fi

if [ "$build" = release ]; then
  speed="Release builds: about 0.1 s from finger to welcome, as on a real kiosk."
else
  speed="DEBUG BUILDS: several times slower from finger to welcome (0.3-0.5 s on a quiet machine,
  seconds under load) than a kiosk's release builds (about 0.1 s). For the fast one: bash scripts/kiosk-demo.sh (release builds; about 10 minutes the first time)."
fi
cat <<TEXT

  The kiosk is at   $url   (中文: ${url}?lang=zh), signing in at the login server $server
  $speed

  Open it in a browser on this machine, e.g.  chromium --app=$url
  Touch the reader: the buttons under the message play alice's, bob's or a stranger's
  finger on the virtual reader (or: curl -X POST -H 'Content-Type: application/json'
  -d '{"finger":"alice"}' ${url}demo/touch).
  alice's touch signs her in at the server (the page holds the session); bob's finger is
  recognised but he has no account there, and the page says so.
  PIN pad, by touch alone: badge 1001 (alice) or 1002 (bob), Next, PIN 2468, Sign in; alice's
  signs her in at the server too (a session of kind kiosk-pin), bob's PIN is right but he has no
  account there. A wrong PIN and an unknown badge get the same answer.
  Five strangers in a row lock fingerprints for 30 s, with a countdown; the PIN works meanwhile.

  Ctrl-C stops the kiosk and fpbridged and removes $dir.
TEXT
wait "${pids[@]}"
