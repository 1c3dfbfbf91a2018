#!/usr/bin/env bash
# A client of fpbridged links neither libfprint nor GLib: builds fpbridge-service-probe (a
# program on FPServiceClient alone) and fails, naming the library, when its dynamic
# libraries include libfprint, libglib, libgio or libgobject. Arguments go to `swift build`
# (for example --scratch-path DIR or -c release).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product fpbridge-service-probe "$@"
binary="$(swift build --show-bin-path "$@")/fpbridge-service-probe"
libraries="$(ldd "$binary")"
status=0
for library in libfprint libglib libgio libgobject; do
  if found=$(grep -E "^\s*$library[-.]" <<<"$libraries"); then
    echo "client-links-check: fpbridge-service-probe links $library: $(awk '{print $1}' <<<"$found" | paste -sd' ')" >&2
    status=1
  fi
done
if [ $status = 0 ]; then
  echo "client-links-check: fpbridge-service-probe links none of libfprint, libglib, libgio, libgobject" \
    "($(wc -l <<<"$libraries") libraries: $(awk '{print $1}' <<<"$libraries" | paste -sd' '))"
fi
exit $status
