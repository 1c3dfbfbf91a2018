# Shared helpers of the booted-system check (sourced by scripts/booted-check.sh).
# Output: every step says what it runs ("$ ...") and what it saw; checks end in PASS or FAIL.

BOOTED_T0=${BOOTED_T0:-$(date +%s.%N)}
failures=()
passes=()

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="${2:-$(now)}" 'BEGIN { printf "%.1f", b - a }'; }
say() { printf '[%6ss] %s\n' "$(elapsed "$BOOTED_T0")" "$*"; }
die() { say "ERROR: $*" >&2; exit 1; }

# section NAME: the start of a check.
section() {
  declare -F crash_report >/dev/null && [ -n "${current_check:-}" ] && crash_report
  echo; say "=== $*"; current_check=$1
}
pass() { say "PASS: $*"; passes+=("$current_check: $*"); }
# fail WHAT: the check goes on; the unit's journal and the bus log are printed once per check.
fail() {
  say "FAIL: $*"
  failures+=("$current_check: $*")
  if [ "${dumped_for:-}" != "$current_check" ] && [ -n "${LEADER:-}" ]; then
    dumped_for=$current_check
    echo "----- journalctl -u fpbridged (last 60 lines) -----"
    guest_root journalctl -q --no-pager -n 60 -u fpbridged -u fprintd 2>&1 | sed 's/^/  | /'
    echo "----- bus and polkit log (last 30 lines) -----"
    guest_root journalctl -q --no-pager -n 30 -u dbus -u polkit 2>&1 | sed 's/^/  | /'
    echo "----- the password hook (pam_fpbridge) in the journal (last 10) -----"
    guest_root journalctl -q --no-pager -n 10 --grep 'pam_fpbridge' 2>&1 | sed 's/^/  | /'
    echo "-----"
  fi
}
# expect_ok WHAT CONDITION-COMMAND...: pass or fail on a command's status.
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
