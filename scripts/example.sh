#!/usr/bin/env bash
# Builds Examples/FingerprintLogin (a package that depends on fpbridge the way a
# downstream app does) and runs it on the fake reader: a login, a wrong finger,
# a lockout recovered with the passcode, and a new finger that asks for the password.
# fingerprint-login runs the engine in-process (LocalAuthenticationInProcess);
# minimal-login (LocalAuthentication alone) asks fpbridged, started here in test mode.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/downstream-build.sh Examples/FingerprintLogin
example="$(bash scripts/downstream-build.sh Examples/FingerprintLogin --show-bin-path)"
fpbridge="$(swift build --show-bin-path)/fpbridge"
fpbridged="$(swift build --show-bin-path)/fpbridged"
work="$(mktemp -d)"
service=""
trap '[ -z "$service" ] || kill "$service" 2>/dev/null; rm -rf "$work"' EXIT
export FPBRIDGE_STATE_DIR="$work/state" FPBRIDGE_READER=fake
script() { printf '%s\n' "$@" > "$work/script"; echo "fake:$work/script"; }
expect() { # expect STATUS TEXT COMMAND...: runs COMMAND, checks its exit status and that stdout has TEXT
  local status="$1" text="$2"; shift 2
  set +e; out="$("$@" 2>"$work/stderr")"; got=$?; set -e
  if [ "$got" != "$status" ] || ! grep -qF "$text" <<<"$out"; then
    echo "example: '$*' gave status $got and:"; echo "$out"; cat "$work/stderr"
    echo "expected status $status and '$text'"; exit 1
  fi
  echo "ok: $text"
}

expect 2 "Set a device passcode" "$example/fingerprint-login" "$work/login.state"
printf '2468\n' | "$fpbridge" --user "$(id -un)" passcode set --passcode-stdin >/dev/null
expect 2 "No finger is enrolled" "$example/fingerprint-login" "$work/login.state"
printf '2468\n' | "$fpbridge" --reader "$(script 'scan me' 'scan me' 'scan me' 'scan me' 'scan me')" enroll --finger right-index --passcode-stdin >/dev/null 2>&1

FPBRIDGE_READER="$(script 'scan me')" expect 0 "Logged in with Touch ID." "$example/fingerprint-login" "$work/login.state"
mkdir -m 700 "$work/service"
"$fpbridged" --socket "$work/service/fpbridged.sock" --state-dir "$work/state" --test-mode 2>"$work/fpbridged.log" &
service=$!
for _ in $(seq 100); do [ -S "$work/service/fpbridged.sock" ] && break; sleep 0.1; done
FPBRIDGE_SERVICE="$work/service/fpbridged.sock" FPBRIDGE_READER="$(script 'scan me')" \
  expect 0 "Logged in" "$example/minimal-login"
kill "$service"; wait "$service" 2>/dev/null || true; service=""
FPBRIDGE_READER="$(script 'scan other' 'scan other' 'scan other')" expect 1 "did not match" "$example/fingerprint-login" "$work/login.state"
FPBRIDGE_READER="$(script 'scan other' 'fallback')" expect 2 "Log in with your password." "$example/fingerprint-login" "$work/login.state"
# The fifth failure in a row locks Touch ID. The app then asks for the device passcode,
# which only a terminal can give (none here: the login fails); the CLI's unlock gives it instead.
FPBRIDGE_READER="$(script 'scan other' 'scan other' 'scan other')" expect 1 "Touch ID is locked" "$example/fingerprint-login" "$work/login.state"
printf '2468\n' | "$fpbridge" unlock --passcode-stdin >/dev/null 2>&1
FPBRIDGE_READER="$(script 'scan me')" expect 0 "Logged in with Touch ID." "$example/fingerprint-login" "$work/login.state"

# A new finger changes the domain state: the password is asked for again.
printf '2468\n' | "$fpbridge" --reader "$(script 'scan new' 'scan new' 'scan new' 'scan new' 'scan new')" enroll --finger left-index --passcode-stdin >/dev/null 2>&1
FPBRIDGE_READER="$(script 'scan me')" expect 2 "enrolled fingers changed" "$example/fingerprint-login" "$work/login.state"
echo "example: every step behaved as expected"
