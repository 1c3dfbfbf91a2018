#!/bin/sh
# Runs inside the VM of scripts/vm-passkeys-check.sh, as root, chrooted into the host's own
# files (read-only over 9p) with the guest's kernel: /dev/uhid and /dev/hidraw* are real.
# fpbridged makes its security key through /dev/uhid; libfido2's tools judge it through the
# hidraw node, as a browser would open it. logind's records are written here by hand (no
# systemd in this guest): the seat's occupant is what they say.
#
#   passkeys-guest.sh BIN_DIR REPO
#
# Prints "passkeys-guest: PASS" last when every step went as expected.
set -eu
# No tool may wait for a PIN typed on the console: stdin is empty, a prompt fails at once.
exec </dev/null
bin=$1
repo=$2
work=/tmp/passkeys
mkdir -p "$work" /run/systemd/seats /run/systemd/sessions /run/systemd/users
chmod 700 "$work"
step() { echo "passkeys-guest: [$(cut -d' ' -f1 /proc/uptime) s] $*"; }
fail() { echo "passkeys-guest: FAIL: $*"; [ -f "$work/service.log" ] && sed 's/^/  fpbridged: /' "$work/service.log"; exit 1; }

# logind's records: SEAT's ACTIVE session, and each session's and user's record.
session() {  # session ID UID CLASS
  printf 'UID=%s\nUSER=u%s\nACTIVE=1\nSTATE=active\nREMOTE=0\nCLASS=%s\nSEAT=seat0\nTTY=tty1\n' "$2" "$2" "$3" >"/run/systemd/sessions/$1"
  printf 'NAME=u%s\nSTATE=active\nSESSIONS=%s\n' "$2" "$1" >"/run/systemd/users/$2"
}
show() { printf 'ACTIVE=%s\nIS_SEAT0=1\n' "$1" >/run/systemd/seats/seat0.new; mv /run/systemd/seats/seat0.new /run/systemd/seats/seat0; }
step "booted"
session c1 0 user
show c1

# The fake reader's script is read at each operation: what the next touches are (a request
# takes up to three; a script that runs out is an error of its own, not a wrong finger).
touch_with() { printf 'scan %s\nscan %s\nscan %s\n' "$1" "$1" "$1" >"$work/finger"; }
touch_with p1
"$bin/fpbridged" --test-mode --passkeys on --reader "fake:$work/finger" --socket "$work/fpbridged.sock" \
  --state-dir "$work/state" --verbose >"$work/service.log" 2>&1 &
for _ in $(seq 300); do [ -S "$work/fpbridged.sock" ] && break; sleep 0.1; done
[ -S "$work/fpbridged.sock" ] || fail "fpbridged did not start"
export FPBRIDGE_SERVICE="$work/fpbridged.sock"
printf 'scan p1\nscan p1\nscan p1\nscan p1\nscan p1\n' >"$work/enroll"
echo 2468 | "$bin/fpbridge" passcode set --passcode-stdin >/dev/null || fail "passcode set"
echo 2468 | "$bin/fpbridge" enroll --reader "fake:$work/enroll" --finger right-index --passcode-stdin >/dev/null || fail "enroll"
step "root's passcode set and right index enrolled through fpbridged"

# fpbridged's USB ids (PasskeyFace.identity); libfido2 reads names from a USB parent, which uhid has none of.
ids='vendor=0x1209, product=0x0001'
node() {  # the hidraw node of fpbridged's device, waiting up to $1 tenths of a second
  for _ in $(seq "$1"); do
    found=$(fido2-token -L 2>/dev/null | sed -n "s/^\(\/dev\/hidraw[0-9]*\): $ids.*/\1/p" | head -1)
    [ -n "$found" ] && { echo "$found"; return 0; }
    sleep 0.1
  done
  return 1
}
device=$(node 300) || { fido2-token -L; fail "no fpbridge device in fido2-token -L"; }
step "fido2-token -L: $(fido2-token -L | grep "$ids")"
fido2-token -I "$device" >"$work/info" || fail "fido2-token -I"
grep -q 'aaguid: 6f3b1c529e474d0ab5620d8e3a71c924' "$work/info" || { cat "$work/info"; fail "getInfo's aaguid"; }
for option in rk up uv noplat credMgmt clientPin pinUvAuthToken bioEnroll; do
  grep -Eq "^options: (.*, )?$option(,|$)" "$work/info" || { cat "$work/info"; fail "getInfo's options: no $option"; }
done
grep -Eq '^extension strings: (.*, )?hmac-secret' "$work/info" && grep -Eq '^extension strings: (.*, )?credProtect' "$work/info" \
  || { cat "$work/info"; fail "getInfo's extensions"; }
grep -q 'pin protocols: 2, 1' "$work/info" || { cat "$work/info"; fail "getInfo's PIN/UV auth protocols"; }
# The PIN is root's passcode: six tries before its first wait; five failed matches before the finger locks.
grep -q 'pin retries: 6' "$work/info" && grep -q 'uv retries: 5' "$work/info" || { cat "$work/info"; fail "the PIN and UV retries"; }
step "fido2-token -I: $(grep -E '^(version strings|aaguid|options|pin protocols|pin retries|uv retries)' "$work/info" | tr '\n' ';')"

# A discoverable credential with user verification, then its verification by libfido2.
hash=$(head -c 32 /dev/urandom | base64)
printf '%s\nexample.org\nalice\n%s\n' "$hash" "$(printf alice-id | base64)" >"$work/cred.in"
fido2-cred -M -r -v -i "$work/cred.in" -o "$work/cred.out" "$device" es256 || fail "fido2-cred -M"
fido2-cred -V -v -i "$work/cred.out" -o "$work/cred.key" es256 || { cat "$work/cred.out"; fail "fido2-cred -V"; }
step "fido2-cred -M -r -v made a credential and fido2-cred -V -v verified it (UV signed)"
id=$(head -1 "$work/cred.key")
sed -n '2,$p' "$work/cred.key" >"$work/public.pem"

# Sign-in with it (the allowed credential), verified against the public key.
printf '%s\nexample.org\n%s\n' "$hash" "$id" >"$work/assert.in"
fido2-assert -G -t uv=true -i "$work/assert.in" -o "$work/assert.out" "$device" || fail "fido2-assert -G"
fido2-assert -V -v -i "$work/assert.out" "$work/public.pem" es256 || { cat "$work/assert.out"; fail "fido2-assert -V"; }
step "fido2-assert -G -t uv=true (the finger, no PIN) signed in and fido2-assert -V -v verified the signature"
# A discoverable sign-in: no credential named.
printf '%s\nexample.org\n' "$hash" >"$work/discover.in"
fido2-assert -G -r -t uv=true -i "$work/discover.in" -o "$work/discover.out" "$device" || fail "fido2-assert -G -r"
fido2-assert -V -v -i "$work/discover.out" "$work/public.pem" es256 || fail "fido2-assert -V of the discoverable sign-in"
step "fido2-assert -G -r -t uv=true (discoverable) signed in as the same credential"

# hmac-secret: a credential made with it gives the same secret for the same salt after each
# match, inside the signed data (fido2-assert -V -h checks the extension bit was signed).
printf '%s\nhmac.example\nalice\n%s\n' "$hash" "$(printf alice-id | base64)" >"$work/hcred.in"
fido2-cred -M -h -i "$work/hcred.in" -o "$work/hcred.out" "$device" es256 || fail "fido2-cred -M -h"
fido2-cred -V -h -i "$work/hcred.out" -o "$work/hcred.key" es256 || fail "fido2-cred -V -h"
salt=$(head -c 32 /dev/urandom | base64)
printf '%s\nhmac.example\n%s\n%s\n' "$hash" "$(head -1 "$work/hcred.key")" "$salt" >"$work/hassert.in"
sed -n '2,$p' "$work/hcred.key" >"$work/hpublic.pem"
for round in 1 2; do
  fido2-assert -G -h -t uv=true -i "$work/hassert.in" -o "$work/hassert$round.out" "$device" || fail "fido2-assert -G -h"
  fido2-assert -V -h -v -i "$work/hassert$round.out" "$work/hpublic.pem" es256 || fail "fido2-assert -V -h"
done
secret=$(tail -1 "$work/hassert1.out")
[ -n "$secret" ] && [ "$secret" = "$(tail -1 "$work/hassert2.out")" ] || fail "hmac-secret gave two secrets for one salt"
step "hmac-secret: fido2-cred -M -h, then fido2-assert -G -h twice gave one secret for one salt, each verified (-V -h)"

# A wrong finger signs nothing.
touch_with p2
if fido2-assert -G -t uv=true -i "$work/assert.in" -o "$work/wrong.out" "$device" 2>"$work/wrong.err"; then fail "a wrong finger signed"; fi
grep -q FIDO_ERR_UV_INVALID "$work/wrong.err" || { cat "$work/wrong.err"; fail "three wrong fingers are not UV_INVALID"; }
step "three wrong fingers: fido2-assert -G failed ($(tail -1 "$work/wrong.err"))"
# Two more lock the finger, here and at every door; the PIN (root's passcode) lifts the lockout,
# and the finger is then the touch.
if fido2-assert -G -t uv=true -i "$work/assert.in" -o "$work/wrong.out" "$device" 2>"$work/wrong.err"; then fail "a wrong finger signed"; fi
grep -q FIDO_ERR_UV_BLOCKED "$work/wrong.err" || { cat "$work/wrong.err"; fail "five wrong fingers are not UV_BLOCKED"; }
fido2-token -I "$device" >"$work/info" || fail "fido2-token -I"
grep -q 'uv retries: 0' "$work/info" || { cat "$work/info"; fail "uv retries while the finger is locked"; }
step "two more: the finger is locked ($(tail -1 "$work/wrong.err"); $(grep 'uv retries' "$work/info"))"
touch_with p1
# The PIN is read from standard input when there is no terminal (libfido2's readpassphrase).
echo 1357 | fido2-assert -G -t pin=true -i "$work/assert.in" -o "$work/pin.out" "$device" 2>"$work/pin.err" && fail "a wrong PIN signed"
grep -q FIDO_ERR_PIN_INVALID "$work/pin.err" || { cat "$work/pin.err"; fail "a wrong PIN is not PIN_INVALID"; }
fido2-token -I "$device" | grep -q 'pin retries: 5' || fail "the wrong PIN was not counted on the passcode's counter"
echo 2468 | fido2-assert -G -t pin=true -i "$work/assert.in" -o "$work/pin.out" "$device" 2>"$work/pin.err" \
  || { cat "$work/pin.err"; fail "fido2-assert -G -t pin=true with the right PIN"; }
fido2-assert -V -v -i "$work/pin.out" "$work/public.pem" es256 || fail "fido2-assert -V of the sign-in with the PIN"
fido2-token -I "$device" >"$work/info"
grep -q 'uv retries: 5' "$work/info" && grep -q 'pin retries: 6' "$work/info" || { cat "$work/info"; fail "the PIN did not lift the lockout"; }
step "a wrong PIN counted (PIN_INVALID); the right one lifted the lockout, the finger signed, and fido2-assert -V -v verified it"

# Credential management with the PIN: the sites listed, a site's credentials, one deleted.
echo 2468 | fido2-token -L -r "$device" >"$work/rps" 2>"$work/rps.err" || { cat "$work/rps.err"; fail "fido2-token -L -r"; }
# hmac.example's credential is not discoverable (made without -r): not listed.
grep -q ' example.org$' "$work/rps" && ! grep -q 'hmac.example' "$work/rps" || { cat "$work/rps"; fail "the sites listed"; }
echo 2468 | fido2-token -L -k example.org "$device" >"$work/creds" 2>"$work/creds.err" || { cat "$work/creds.err"; fail "fido2-token -L -k"; }
grep -q "$id" "$work/creds" || { cat "$work/creds"; fail "example.org's credential listed"; }
echo 2468 | fido2-token -D -i "$id" "$device" 2>"$work/delete.err" || { cat "$work/delete.err"; fail "fido2-token -D -i"; }
if fido2-assert -G -t uv=true -i "$work/assert.in" -o "$work/gone.out" "$device" 2>"$work/gone.err"; then fail "a deleted credential signed"; fi
grep -q FIDO_ERR_NO_CREDENTIALS "$work/gone.err" || { cat "$work/gone.err"; fail "a deleted credential is not NO_CREDENTIALS"; }
step "fido2-token -L -r listed $(wc -l <"$work/rps") sites, -L -k example.org its credential, -D -i deleted it (then NO_CREDENTIALS)"

# Bio enrollment with the PIN: a finger enrolled through the security key is a print like any
# other (fpbridge verify matches it through fpbridged), renamed, then removed for every door.
grep -q 'sensor type: 1 (touch)' "$work/info" && grep -q 'max samples: 5' "$work/info" || { cat "$work/info"; fail "getFingerprintSensorInfo"; }
printf 'scan p2\nscan p2\nscan p2\nscan p2\nscan p2\n' >"$work/finger"
echo 2468 | fido2-token -S -e "$device" >"$work/enroll.out" 2>"$work/enroll.err" || { cat "$work/enroll.out" "$work/enroll.err"; fail "fido2-token -S -e"; }
[ "$(grep -c '^Sample ok' "$work/enroll.out")" = 5 ] || { cat "$work/enroll.out"; fail "five samples were not each 'Sample ok'"; }
step "fido2-token -S -e enrolled a finger: $(grep -c '^Sample ok' "$work/enroll.out") x Sample ok"
echo 2468 | fido2-token -L -e "$device" >"$work/templates" 2>"$work/templates.err" || { cat "$work/templates.err"; fail "fido2-token -L -e"; }
template=$(sed -n 's/^[0-9]*: \([^ ]*\) left-index$/\1/p' "$work/templates")
[ -n "$template" ] && grep -q ' right-index$' "$work/templates" || { cat "$work/templates"; fail "the templates listed"; }
echo 2468 | fido2-token -S -e -i "$template" -n "work finger" "$device" 2>"$work/name.err" || { cat "$work/name.err"; fail "fido2-token -S -e -i -n"; }
echo 2468 | fido2-token -L -e "$device" 2>/dev/null | grep -q "^[0-9]*: $template work finger$" || fail "the template's new name"
step "fido2-token -L -e listed it as $template left-index, -S -e -i -n renamed it"
printf 'scan p2\n' >"$work/p2"
"$bin/fpbridge" verify --reader "fake:$work/p2" --attempts 1 >/dev/null 2>&1 || fail "the finger enrolled through the security key did not match at fpbridge verify"
step "fpbridge verify (through fpbridged) matched the finger enrolled through the security key"
echo 2468 | fido2-token -D -e -i "$template" "$device" 2>"$work/remove.err" || { cat "$work/remove.err"; fail "fido2-token -D -e"; }
if echo 2468 | fido2-token -L -e "$device" 2>/dev/null | grep -q "$template"; then fail "a removed template is still listed"; fi
if "$bin/fpbridge" verify --reader "fake:$work/p2" --attempts 1 >/dev/null 2>&1; then fail "a finger removed through the security key matched"; fi
step "fido2-token -D -e removed it: no longer listed, and fpbridge verify no longer matches it"

# The seat changes hands: another user's session is shown. The old device goes (a descriptor
# opened before fails), and the new one is that user's: root's credential is not there.
python3 "$repo/scripts/vm/hidraw-hold.py" "$device" "$work/held" &
holder=$!
for _ in $(seq 100); do [ -f "$work/held" ] && break; sleep 0.1; done
session c2 65534 user
show c2
wait "$holder" || fail "a descriptor opened while root sat at the seat still worked after the seat changed hands"
step "the seat changed hands: the descriptor root's program held fails ($(cat "$work/held"))"
fresh=$(node 300) || fail "no device for the seat's new occupant"
if fido2-assert -G -t uv=true -i "$work/assert.in" -o "$work/other.out" "$fresh" 2>"$work/other.err"; then
  fail "the next occupant's device signed with root's credential"
fi
step "the new occupant's device has no use of root's credential ($(tail -1 "$work/other.err"))"

# A greeter shown: nobody to act for, no device at all.
session c3 115 greeter
show c3
for _ in $(seq 50); do fido2-token -L 2>/dev/null | grep -q "$ids" || break; sleep 0.1; done
if fido2-token -L 2>/dev/null | grep -q "$ids"; then fail "a device while a greeter is shown"; fi
step "a greeter at the seat: no device"
grep -q "passkeys: no device: the session active at seat0 (c3) is a greeter's" "$work/service.log" \
  || fail "fpbridged did not say why there is no device"
echo "passkeys-guest: PASS"
