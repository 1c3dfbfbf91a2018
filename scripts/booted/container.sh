# Booting the cached root under systemd-nspawn, running commands in it, and cleaning up
# (sourced by scripts/booted-check.sh).
#
# Each run gets $RUN (under /var/tmp): an overlay whose lower layer is the cached root and
# whose upper layer persists for the run (so a reboot keeps what the checks did) and is
# removed at the end. nspawn needs --register=no --keep-unit here (no systemd on the host);
# with --keep-unit it makes payload/ and supervisor/ cgroups inside the cgroup it starts in, so
# it is started in cgroups of its own, removed after it stops.

CGROUP_HIERARCHIES=(/sys/fs/cgroup/systemd /sys/fs/cgroup/unified)
GUEST_PATH=/usr/sbin:/usr/bin:/sbin:/bin
NSPAWN_PID=""
LEADER=""

make_run_dir() {
  RUN=$(mktemp -d /var/tmp/fpbridge-booted.XXXXXX)
  MACHINE=fpb-${RUN##*.}
  mkdir -p "$RUN/upper" "$RUN/work" "$RUN/root"
  mount -t overlay overlay -o "lowerdir=$CACHE/root,upperdir=$RUN/upper,workdir=$RUN/work" "$RUN/root" ||
    die "cannot mount the overlay on $RUN/root"
  OVERLAY_MOUNTED=1
}

# boot: starts the container and waits for `systemctl is-system-running` to settle.
boot() {
  local t0; t0=$(now)
  local cg
  for cg in "${CGROUP_HIERARCHIES[@]}"; do [ -d "$cg" ] && mkdir -p "$cg/$MACHINE"; done
  : >>"$RUN/console.log"
  say "$ systemd-nspawn -q -D \$RUN/root -b --machine=$MACHINE --register=no --keep-unit --private-network --console=read-only"
  # The subshell moves itself into the run's cgroups, then becomes nspawn.
  bash -c '
    root=$1 machine=$2; shift 2
    for cg in "$@"; do [ -d "$cg" ] && echo $$ >"$cg/cgroup.procs"; done
    exec systemd-nspawn -q -D "$root" -b --machine="$machine" --register=no --keep-unit \
      --private-network --console=read-only' sh "$RUN/root" "$MACHINE" "${CGROUP_HIERARCHIES[@]/%//$MACHINE}" \
    </dev/null >>"$RUN/console.log" 2>&1 &
  NSPAWN_PID=$!
  echo "$NSPAWN_PID $MACHINE" >"$RUN/nspawn.pid"
  # The container's PID 1: a process in nspawn's tree whose last NSpid is 1.
  LEADER=""
  local i p
  for i in $(seq 1 200); do
    for p in $(cat /sys/fs/cgroup/systemd/"$MACHINE"/payload/cgroup.procs /sys/fs/cgroup/systemd/"$MACHINE"/payload/*/cgroup.procs 2>/dev/null); do
      if awk '/^NSpid:/ { exit !($NF == 1) }' "/proc/$p/status" 2>/dev/null; then LEADER=$p; break 2; fi
    done
    kill -0 "$NSPAWN_PID" 2>/dev/null || { cat "$RUN/console.log"; die "systemd-nspawn exited"; }
    sleep 0.05
  done
  [ -n "$LEADER" ] || die "no container PID 1 found (console: $RUN/console.log)"
  # Until systemd answers on its private socket, then until the boot settles.
  local state=""
  for i in $(seq 1 600); do
    state=$(guest_root systemctl is-system-running 2>/dev/null || true)
    case "$state" in running|degraded|maintenance|stopping) break ;; esac
    kill -0 "$NSPAWN_PID" 2>/dev/null || { cat "$RUN/console.log"; die "systemd-nspawn exited"; }
    sleep 0.1
  done
  TIMING_BOOT=$(elapsed "$t0")
  say "booted: PID 1 is host pid $LEADER, system $state after $TIMING_BOOT s"
  if [ "$state" != running ]; then guest_root systemctl --failed --no-pager --no-legend | sed 's/^/  | /'; fi
}

# shutdown_guest [reboot]: stops the container (poweroff, or reboot: the same, then boot again).
shutdown_guest() {
  [ -n "$NSPAWN_PID" ] || return 0
  if kill -0 "$NSPAWN_PID" 2>/dev/null; then
    if [ "${1:-}" = reboot ]; then guest_root systemctl reboot >/dev/null 2>&1 || kill -TERM "$NSPAWN_PID"
    else kill -TERM "$NSPAWN_PID" 2>/dev/null; fi
    local i
    for i in $(seq 1 150); do kill -0 "$NSPAWN_PID" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$NSPAWN_PID" 2>/dev/null && { say "nspawn did not stop in 15 s: killing it"; kill -KILL "$NSPAWN_PID"; }
  fi
  wait "$NSPAWN_PID" 2>/dev/null || true
  NSPAWN_PID=""; LEADER=""
}

# cgroups the run made, depth first (nspawn's payload/ and supervisor/ and what systemd made inside).
remove_cgroups() {
  local cg
  for cg in "${CGROUP_HIERARCHIES[@]}"; do
    [ -n "${MACHINE:-}" ] && [ -d "$cg/$MACHINE" ] || continue
    find "$cg/$MACHINE" -depth -type d -exec rmdir {} + 2>/dev/null || true
    if [ -d "$cg/$MACHINE" ]; then say "warning: could not remove $cg/$MACHINE"; fi
  done
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  if [ -n "${KEEP_RUN:-}" ] && [ -n "${NSPAWN_PID:-}" ]; then
    say "--keep: the container runs on (nsenter -t $LEADER -a bash); stop it and remove it: bash scripts/booted-check.sh --clean"
    return $rc
  fi
  shutdown_guest
  remove_cgroups
  if [ -n "${OVERLAY_MOUNTED:-}" ]; then umount "$RUN/root" 2>/dev/null || umount -l "$RUN/root"; fi
  [ -n "${RUN:-}" ] && [ -d "$RUN" ] && rm -rf "$RUN"
  return $rc
}

# guest_root CMD...: a command as root in the container's namespaces, with a clean environment.
guest_root() {
  nsenter -t "$LEADER" -a /usr/bin/env -i PATH=$GUEST_PATH HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive "$@"
}
# guest_unit USER CMD...: a command as USER in a transient unit (its own cgroup, the user's
# groups and environment), stdin/stdout/stderr piped, its exit status returned.
guest_unit() {
  local user=$1; shift
  guest_root systemd-run -q -P -G --wait -p User="$user" -E LANG=C.UTF-8 -E DEBIAN_FRONTEND=noninteractive -- "$@"
}
# run_shown USER CMD...: guest_unit with the command and its output printed; output kept in $out.
run_shown() {
  local user=$1; shift
  say "$ ($user) $*"
  local rc=0
  out=$(guest_unit "$user" "$@" 2>&1) || rc=$?
  [ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/  > /'
  say "  exit $rc"
  return $rc
}

# clean_kept: stops and removes the runs --keep left (their nspawn.pid files say which).
clean_kept() {
  local f
  for f in /var/tmp/fpbridge-booted.*/nspawn.pid; do
    [ -f "$f" ] || continue
    RUN=$(dirname "$f"); read -r NSPAWN_PID MACHINE <"$f"
    OVERLAY_MOUNTED=1; KEEP_RUN=""
    if [ "$(cat "/proc/$NSPAWN_PID/comm" 2>/dev/null)" != systemd-nspawn ]; then NSPAWN_PID=""; fi
    say "removing $RUN ($MACHINE${NSPAWN_PID:+, nspawn pid $NSPAWN_PID})"
    cleanup
  done
}
