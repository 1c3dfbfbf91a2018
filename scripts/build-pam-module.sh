#!/usr/bin/env bash
# Builds fpbridge's PAM module, pam/*.c with the presence rule it shares with fpbridged (Sources/CSeatPresence), into .build/pam/pam_fpbridge.so (or OUTPUT) with cc:
# hardened, warnings as errors, only pam_sm_* exported, libpam and libc its only libraries.
# It is no SwiftPM target (pam/pam_fpbridge.c says why); a second or so on this machine.
#
#   bash scripts/build-pam-module.sh [OUTPUT]
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/pam/pam_fpbridge.so}
[ -e /usr/include/security/pam_modules.h ] || bash scripts/install-packages.sh libpam0g-dev
mkdir -p "$(dirname "$output")"
# Written beside the output, then renamed: a test loading the module never sees half a file.
partial=$(mktemp "$output.XXXXXX")
trap 'rm -f "$partial"' EXIT
${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIC -shared \
  -fvisibility=hidden -Wall -Wextra -Werror -Wformat=2 -Wshadow \
  -Wl,-z,relro,-z,now,-z,noexecstack -Wl,--as-needed -Wl,--no-undefined \
  -ISources/CSeatPresence/include -o "$partial" pam/*.c Sources/CSeatPresence/*.c -lpam
exported=$(nm -D --defined-only "$partial" | awk '{print $3}' | sort | tr '\n' ' ')
if [ "$exported" != "pam_sm_authenticate pam_sm_setcred " ]; then
  echo "build-pam-module.sh: the module exports more than pam_sm_*: $exported" >&2
  exit 1
fi
chmod 644 "$partial"
mv "$partial" "$output"
trap - EXIT
echo "$output"
