#!/usr/bin/env bash
# Builds the DocC documentation of the library products into .build/docs/TARGET
# and fails on any DocC warning (an unresolved link, an undocumented parameter).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build/docs
status=0
for target in LocalAuthentication FPVocabulary FPAuthentication FPReaders FPStore FingerprintLogin FPKeyFormats FPAccountAPI; do
  log="$(mktemp)"
  ok=yes
  swift package --allow-writing-to-directory .build/docs generate-documentation --target "$target" \
    --output-path ".build/docs/$target" --warnings-as-errors >"$log" 2>&1 || { grep -E "error|warning" "$log" | grep -v "prohibited flag\|which are unhandled; explicitly declare them"; ok=no; }
  if grep -E "warning:" "$log" | grep -v "prohibited flag\|which are unhandled; explicitly declare them" >/dev/null; then
    grep -E "warning:" "$log" | grep -v "prohibited flag\|which are unhandled; explicitly declare them"; ok=no
  fi
  rm -f "$log"
  echo "docs: $target $([ $ok = yes ] && echo ok || echo FAILED)"
  [ $ok = yes ] || status=1
done
exit $status
