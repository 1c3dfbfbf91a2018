#!/usr/bin/env bash
# Builds the DocC documentation of the library products into .build/docs/TARGET.doccarchive
# and fails on any DocC warning (an unresolved link, an undocumented parameter).
#
# One invocation for every target: each `swift package generate-documentation` loads the
# package, builds the plugin and checks the build again, which cost a minute a target in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(LocalAuthentication LocalAuthenticationInProcess FPVocabulary FPAuthentication FPReaders FPStore FingerprintLogin FingerprintLoginInProcess FPKeyFormats FPAccountAPI FPMatching)
rm -rf .build/docs
mkdir -p .build/docs
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# SwiftPM's notices about a dependency's unhandled files are not DocC's warnings.
ignored="prohibited flag|which are unhandled; explicitly declare them"
status=0
swift package --allow-writing-to-directory .build/docs generate-documentation \
  $(printf -- '--target %s ' "${targets[@]}") --output-path .build/docs --warnings-as-errors >"$log" 2>&1 || status=1
if grep -E "warning:|error:" "$log" | grep -vE "$ignored"; then status=1; fi
if [ $status = 0 ]; then
  for target in "${targets[@]}"; do
    [ -d ".build/docs/$target.doccarchive" ] || { echo "docs: no archive for $target"; status=1; }
  done
fi
if [ $status = 0 ]; then
  echo "docs: ok (${targets[*]})"
else
  echo "docs: FAILED (the warnings above name their files); the end of generate-documentation's log:"
  tail -20 "$log"
fi
exit $status
