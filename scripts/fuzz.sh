#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser of files and input (Fuzz/README.md).
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]      default: 60 s for each target
#   FPBRIDGE_FUZZ_RUNS=1000000 bash scripts/fuzz.sh 3600   stops each target after that many
#                                                          executions (or the time), for long runs
#   bash scripts/fuzz.sh --build-only                      builds the fuzzing binary, runs nothing
# Builds fpbridge-fuzz with libFuzzer (Swift's -sanitize=fuzzer, from the Swift
# toolchain) in .build-fuzz, runs each target on its corpus in Fuzz/Corpus for
# SECONDS, adds what it learns to a working corpus in .build-fuzz/corpus, and fails
# if any target crashes, hangs, or runs out of memory. A crashing input is kept in
# Fuzz/Regressions/TARGET/ (commit it: the test suite replays it from then on).
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=no
[ "${1:-}" = --build-only ] && { build_only=yes; shift; }
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fake-script print-record counter passcode-record config libfprint-print nbis-template bozorth3-minutiae cbor ctaphid ctap2-request pam-stream pam-json)

# -DFUZZING swaps the replay main for libFuzzer's driver (Sources/fpbridge-fuzz/main.swift);
# lld, because gold crashes while reporting link errors of fuzzer builds.
swift build --scratch-path .build-fuzz --product fpbridge-fuzz \
  -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -DFUZZING \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld 2>&1 | grep -vE "prohibited flag|^\[|^Compiling|^Building|^Write" || true
binary="$(swift build --scratch-path .build-fuzz --show-bin-path)/fpbridge-fuzz"
[ -x "$binary" ] || { echo "fuzz.sh: the fuzz binary was not built" >&2; exit 1; }
# The PAM module's readers of fpbridged's answers (C: the stream's framing, the JSON reader),
# with clang's libFuzzer and AddressSanitizer (pam/host/stream_reader.c is their target).
pam_binary=.build-fuzz/pam-fuzz
mkdir -p .build-fuzz
/opt/swift/usr/bin/clang -std=c11 -D_GNU_SOURCE -DFUZZING -g -O1 -fuse-ld=lld -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=undefined -o "$pam_binary" pam/host/stream_reader.c pam/evaluation_stream.c pam/json_reader.c \
  pam/service_request.c || { echo "fuzz.sh: the PAM module's fuzz binary was not built" >&2; exit 1; }
[ "$build_only" = no ] || exit 0

# One target's run, its table row written to .build-fuzz/TARGET.row (status 1 when it failed).
run_target() {
  local target=$1
  local work=".build-fuzz/corpus/$target"
  local artifacts=".build-fuzz/artifacts/$target/"
  mkdir -p "$work" "$artifacts" "Fuzz/Corpus/$target"
  local log=".build-fuzz/$target.log"
  local status=0
  # Only the libfprint target needs a reader-free libfprint: keep it from scanning buses.
  # Swift's own crash backtracer would take the signal before libFuzzer saves the input.
  local program=$binary
  case $target in pam-*) program=$pam_binary ;; esac
  SWIFT_BACKTRACE=enable=no FPBRIDGE_FUZZ_TARGET="$target" FP_DRIVERS_WHITELIST=none FP_DRIVERS_ALLOWLIST=none \
    "$program" "$work" "Fuzz/Corpus/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts" ${FPBRIDGE_FUZZ_RUNS:+-runs=$FPBRIDGE_FUZZ_RUNS} \
    >"$log" 2>&1 || status=$?
  local execs rate cov size result=ok
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
  size=$(ls "$work" | wc -l)
  if [ "$status" -ne 0 ]; then
    result="FAILED (exit $status; $log)"
    mkdir -p "Fuzz/Regressions/$target"
    for crash in "$artifacts"*; do [ -f "$crash" ] && cp "$crash" "Fuzz/Regressions/$target/"; done
    grep -E "ERROR|==[0-9]+==|Fatal|SUMMARY" "$log" | head -5 >&2 || true
  fi
  printf '%-16s %12s %10s %8s %8s  %s\n' "$target" "$execs" "$rate" "$cov" "$size" "$result" >".build-fuzz/$target.row"
  [ "$status" -eq 0 ]
}

# The targets run side by side, one per core (FPBRIDGE_FUZZ_JOBS): each is single-threaded, and
# CI's smoke took the sum of their budgets when they ran one after another.
jobs=${FPBRIDGE_FUZZ_JOBS:-$(nproc)}
for target in "${targets[@]}"; do rm -f ".build-fuzz/$target.row"; done
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run_target "$target" &
done
wait
# Failures are read from the rows (a target that wrote none failed too): exit statuses of jobs
# already reaped by `wait -n` are not to be relied on.
failed=0
printf '%-16s %12s %10s %8s %8s  %s\n' target executions exec/s cov corpus result
for target in "${targets[@]}"; do
  if [ -f ".build-fuzz/$target.row" ]; then cat ".build-fuzz/$target.row"; else printf '%-16s  FAILED (no result)\n' "$target"; failed=1; fi
  grep -q "FAILED" ".build-fuzz/$target.row" 2>/dev/null && failed=1
done
exit $failed
