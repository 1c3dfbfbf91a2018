#!/usr/bin/env bash
# The clients of fpbridged link neither libfprint nor GLib: builds each probe (a program on one
# client alone, linked as an app links that product) and fails, naming the program and the
# library, when its dynamic libraries include libfprint, libglib, libgio or libgobject.
#   fpbridge-service-probe      FPServiceClient, the service's client
#   local-authentication-probe  LocalAuthentication, Apple's API (the engine is in LocalAuthenticationInProcess)
#   fingerprint-login-probe     FingerprintLogin, the login client (ContextKeyring's engine is in FingerprintLoginInProcess)
# Arguments go to `swift build` (for example --scratch-path DIR or -c release).
set -euo pipefail
cd "$(dirname "$0")/.."
probes=(fpbridge-service-probe local-authentication-probe fingerprint-login-probe)
for probe in "${probes[@]}"; do swift build --product "$probe" "$@"; done
bin="$(swift build --show-bin-path "$@")"
status=0
for probe in "${probes[@]}"; do
  libraries="$(ldd "$bin/$probe")"
  linked=0
  for library in libfprint libglib libgio libgobject; do
    if found=$(grep -E "^\s*$library[-.]" <<<"$libraries"); then
      echo "client-links-check: $probe links $library: $(awk '{print $1}' <<<"$found" | paste -sd' ')" >&2
      linked=1
    fi
  done
  if [ $linked = 0 ]; then
    echo "client-links-check: $probe links none of libfprint, libglib, libgio, libgobject" \
      "($(wc -l <<<"$libraries") libraries: $(awk '{print $1}' <<<"$libraries" | paste -sd' '))"
  else
    status=1
  fi
done
exit $status
