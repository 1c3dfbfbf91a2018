# Check t: touch or type (issue 39), pam_fpbridge.so's own prompt, on the booted system
# (sourced by scripts/booted-check.sh; helpers.sh and checks.sh first).
#
# The profile `fpbridge` puts `[success=end default=ignore] pam_fpbridge.so` before pam_unix: one
# prompt takes the password or the finger, whichever comes first. The strings are the module's
# (pam/); a typed password goes on to pam_unix (try_first_pass) without a second prompt.

TT_PROMPT="Password or finger: "                       # su, login, polkit-1: through the application's conversation
TT_SUDO_PROMPT="\[sudo\] password or finger for alice: "   # sudo: the module reads the terminal itself
TT_NO_MATCH="No match"                                 # a wrong finger: an error line, then the prompt again
TT_NOT_RECOGNISED="Fingerprint not recognised"         # the last wrong finger (max-tries): then pam_unix's prompt
TT_LOCKED="Fingerprint locked"                         # locked out: one line, then pam_unix's prompt alone
UNIX_PROMPT="Password: "                               # pam_unix's own prompt (sudo shows its own instead)
SUDO_UNIX_PROMPT="\[sudo\] password for alice: "

# journal_count ARGS...: how many journal lines journalctl ARGS (a unit or tag and a --grep) shows.
journal_count() { guest_root journalctl -q --no-pager "$@" 2>/dev/null | wc -l; }
# journal_grows ARGS...: a drive step that waits until journalctl ARGS shows one line more than now.
journal_grows() {
  local args; args=$(printf ' %q' "$@")
  echo "until:test \$(journalctl -q --no-pager$args | wc -l) -gt $(journal_count "$@")"
}
# fpbridged logs each request with --verbose (verbose_requests); fprintd's D-Bus face does not go
# through HTTP, so the POST /v1/evaluations lines are the module's scans.
EVALUATIONS=(-u fpbridged --grep 'POST /v1/evaluations')
evaluations() { journal_count "${EVALUATIONS[@]}"; }
# evaluation_running: a drive step that waits for the next scan to be asked for, so that a
# password is typed while the reader waits (not before the module asked for the scan).
evaluation_running() { journal_grows "${EVALUATIONS[@]}"; }
# su_alice_at_desk STEP...: alice's own su - alice from her desk (a session at seat0).
su_alice_at_desk() { drive alice --desk "$@" -- su - alice; }
# failures_of USER: the count of failed fingers fpbridged holds for USER.
failures_of() { lockout "$1" | sed -n 's/.*(failures \([0-9]*\).*/\1/p'; }

# verbose_requests: fpbridged logs each request (its --verbose), through a drop-in of the check's
# over the packaged unit's ExecStart; a restart keeps every state (check e shows it).
verbose_requests() {
  local exec; exec=$(guest_root sed -n 's/^ExecStart=//p' /usr/lib/systemd/system/fpbridged.service)
  say "drop-in: ExecStart=$exec --verbose; systemctl restart fpbridged"
  printf '# scripts/booted/touch-or-type.sh: one journal line per request.\n[Service]\nExecStart=\nExecStart=%s --verbose\n' "$exec" \
    >"/proc/$LEADER/root/etc/systemd/system/fpbridged.service.d/booted-check-verbose.conf"
  guest_root systemctl daemon-reload
  guest_root systemctl restart fpbridged
  fpbridged_ready || fail "fpbridged did not come back with --verbose"
}

check_t_touch_or_type() {
  section t "touch or type: pam-auth-update --enable fpbridge fpbridge-password (the README's command), then su, sudo, login, pkexec and ssh"
  fpbridged_ready || say "fpbridged is not active and owning its name at the start of this check"
  verbose_requests
  polkit_rule   # alice's fprintd-verify (the wrong fingers below) without an agent, as check b sets it
  guest_unit root fprintd-list alice 2>/dev/null | grep -q right-index || enroll_as_root alice $ALICE >/dev/null

  # The profile replaces pam_fprintd's (Conflicts: fprintd) and comes before pam_unix (Priority).
  run_shown root pam-auth-update --enable fpbridge fpbridge-password || fail "pam-auth-update --enable fpbridge fpbridge-password"
  run_shown root sh -c "grep -E 'pam_fprintd|pam_fpbridge|pam_unix' /etc/pam.d/common-auth | tr -s ' \t' ' ' | sed 's/ \$//'"
  local want="auth [success=2 default=ignore] pam_fpbridge.so
auth [success=1 default=ignore] pam_unix.so nullok try_first_pass
auth optional pam_fpbridge.so password-proved"
  [ "$out" = "$want" ] && pass "common-auth: pam_fpbridge.so, then pam_unix with try_first_pass, then password-proved; pam_fprintd turned off by the conflict" ||
    fail "common-auth is not what the two profiles make (expected: $(echo "$want" | paste -sd'|'))"

  # The finger is offered only to the person at the seat (issue 49): every local case below is
  # alice's own request from her desk, a session at seat0 (drive --desk: the container has no
  # virtual consoles, so the desk's login names its seat as a greeter does).
  say "su, as alice at her desk: su - alice"
  check "su at the desk: the finger at '$TT_PROMPT' logs in, no password asked" \
    su_alice_at_desk expect:"$TT_PROMPT" scan:$ALICE "${shell_as_alice[@]}" absent:"$UNIX_PROMPT"
  verify_as alice $STRANGER verify-no-match >/dev/null
  local before; before=$(failures_of alice)
  check "su: a wrong password typed while the reader waits is refused, without a second prompt" \
    su_alice_at_desk expect:"$TT_PROMPT" "$(evaluation_running)" send:wrong-password expect:"Authentication failure" exit:1 absent:"$UNIX_PROMPT"
  local after; after=$(failures_of alice)
  say "alice's failed fingers: $before before, $after after"
  [ "${before:-0}" -ge 1 ] && [ "$before" = "$after" ] && pass "the scan the password cancelled counted nothing ($before failure(s) before and after)" ||
    fail "alice's failures went from '$before' to '$after' over a typed password (one wrong finger before it expected)"
  check "su: alice's password typed while the reader waits logs in, without a second prompt" \
    su_alice_at_desk expect:"$TT_PROMPT" "$(evaluation_running)" send:"$ALICE_PASSWORD" "${shell_as_alice[@]}" absent:"$UNIX_PROMPT"
  expect_lockout alice unlocked "the password at the touch-or-type prompt counted as the password (fpbridge-password)"

  say "sudo, as alice at her desk: sudo -k; sudo id -un"
  check "sudo at the desk: the finger at '[sudo] password or finger for alice:' runs the command" \
    drive alice --desk expect:"$TT_SUDO_PROMPT" scan:$ALICE expect:"root" exit:0 absent:"$SUDO_UNIX_PROMPT" -- sh -c 'sudo -k; sudo id -un'
  check "sudo: the password typed while the reader waits runs the command" \
    drive alice --desk expect:"$TT_SUDO_PROMPT" "$(evaluation_running)" send:"$ALICE_PASSWORD" expect:"root" exit:0 absent:"$SUDO_UNIX_PROMPT" -- sh -c 'sudo -k; sudo id -un'
  # Nothing typed leaks: half the password, then the finger; sudo -s's shell reads nothing of it
  # (it would run it as a command and keep it in root's history).
  check "sudo -s at the desk: 'alice-p' typed, then the finger: the root shell reads nothing of it" \
    drive alice --desk expect:"$TT_SUDO_PROMPT" send-raw:alice-p wait:0.5 scan:$ALICE expect:'# $' \
      send:'read -t 1 -r left; echo "the shell read ${#left} bytes"; exit' expect:'the shell read 0 bytes' exit:0 \
      absent:'the shell read [1-9]' absent:'alice-p' -- sh -c 'sudo -k; sudo -s'

  # One ^C ends sudo, as at sudo's own prompt (issue 49: it took two, and the password typed
  # after the first could be lost). In an interactive shell, whose job control gives sudo the
  # terminal: the shell goes on and says sudo's status.
  check "sudo at the desk: one ^C at '[sudo] password or finger for alice:' ends sudo" \
    drive alice --desk expect:'\$ $' send:'sudo -k; sudo id -un; echo "sudo said $?"' expect:"$TT_SUDO_PROMPT" \
      wait:0.5 send-raw:$'\x03' expect:'sudo said 1' send:'exit' exit:0 absent:'^root' -- bash -i

  # A script's sudo (-S: the password on stdin) gets no scan: nobody is at the reader.
  local seen; seen=$(evaluations)
  check "sudo -S (the password piped in, as a script does): runs the command" \
    drive alice --desk expect:"root" exit:0 absent:"finger" -- sh -c "sudo -k; echo '$ALICE_PASSWORD' | sudo -S id -un"
  [ "$(evaluations)" = "$seen" ] && pass "sudo -S asked fpbridged for no scan" || fail "sudo -S made fpbridged start a scan"

  # pkttyagent prints the module's prompt and the finger ends polkit's helper with success, but
  # pkttyagent (polkit 122's text listener) sits in its own read of the terminal and sees the
  # helper's end only after an Enter: the check waits for the helper's journal line, then sends
  # one (an empty line: no password, so "root" can only come from the finger).
  check "pkexec at the desk (alice's pkttyagent): the finger at '$TT_PROMPT' authorizes (pkttyagent then wants an Enter)" \
    drive alice --desk expect:"$TT_PROMPT" scan:$ALICE \
      "$(journal_grows -t polkit-agent-helper-1 --grep 'finger matched for "alice"')" \
      send: expect:"AUTHENTICATION COMPLETE" expect:"root" exit:0 absent:"$UNIX_PROMPT" \
    -- $WITH_AGENT sh -c 'pkexec id -un; exit $?'
  # A terminal tab of GNOME's runs under the user's manager, in no session: her manager while her
  # session is the seat's is hers at the desk.
  check "systemd-run --user at the desk (a terminal tab under her manager): the finger runs sudo's command" \
    drive alice --desk expect:"$TT_SUDO_PROMPT" scan:$ALICE expect:"root" exit:0 \
    -- systemd-run --user --quiet --pty --wait sh -c 'sudo -k; sudo id -un'

  check "su: a wrong finger, '$TT_NO_MATCH' and the prompt again; then the password" \
    su_alice_at_desk expect:"$TT_PROMPT" scan:$STRANGER expect:"$TT_NO_MATCH" expect:"$TT_PROMPT" send:"$ALICE_PASSWORD" "${shell_as_alice[@]}" absent:"$UNIX_PROMPT"
  check "su: three wrong fingers (max-tries): '$TT_NOT_RECOGNISED', then pam_unix's '$UNIX_PROMPT' alone" \
    su_alice_at_desk expect:"$TT_PROMPT" scan:$STRANGER expect:"$TT_NO_MATCH" expect:"$TT_PROMPT" scan:$STRANGER expect:"$TT_NO_MATCH" \
      expect:"$TT_PROMPT" scan:$STRANGER expect:"$TT_NOT_RECOGNISED" expect:"$UNIX_PROMPT" send:"$ALICE_PASSWORD" "${shell_as_alice[@]}"
  expect_lockout alice unlocked "the password after three wrong fingers lifted their count"
  lock_by_verify alice $STRANGER
  expect_lockout alice locked "five wrong fingers lock"
  check "su when locked out: one '$TT_LOCKED' line, then '$UNIX_PROMPT' alone; the password logs in" \
    su_alice_at_desk expect:"$TT_LOCKED" expect:"$UNIX_PROMPT" send:"$ALICE_PASSWORD" "${shell_as_alice[@]}" absent:"$TT_PROMPT"
  expect_lockout alice unlocked "the password lifted the lockout (fpbridge-password)"

  check_t_remote
  check_t_sessions
  check_t_not_present
}

# Nobody there, no finger, by logind's records: a login on a pseudo-terminal (no seat, no
# console: the container has none) and a session without a seat (as `login` on a pseudo-
# terminal makes here, and machinectl's shells), and a login that names a remote host
# (`login -h`, as telnetd and rlogind ran it: PAM_RHOST) ask the password alone, and fpbridged
# sees no scan. A login on the console the kernel shows (getty's) is offered the finger:
# PamPresenceTests shows it, since a container has no console to show.
check_t_sessions() {
  local seen; seen=$(evaluations)
  local seatless=(--grep 'no finger for "bob": no presence at seat0: ')
  local console=(--grep 'no finger for "alice": no presence at seat0: (no session is active at seat0|the request is in no session)')
  local rhost=(--grep 'no finger for "alice": PAM_RHOST is set \(203\.0\.113\.9\)')
  local seatless_before rhost_before console_before
  seatless_before=$(journal_count "${seatless[@]}"); rhost_before=$(journal_count "${rhost[@]}"); console_before=$(journal_count "${console[@]}")
  check "login on a pseudo-terminal (no console, no seat): '$UNIX_PROMPT' alone" \
    drive root expect:"$UNIX_PROMPT" send:"$ALICE_PASSWORD" "${shell_as_alice[@]}" absent:"$TT_PROMPT" -- login alice
  check "login -f alice (a session with no seat), then su - bob in it: '$UNIX_PROMPT' alone" \
    drive root expect:'\$ $' send:'loginctl show-session "$XDG_SESSION_ID" -p Seat -p Remote; su - bob' \
      expect:'Remote=no' expect:"$UNIX_PROMPT" send:"$BOB_PASSWORD" expect:'\$ $' send:'id -un; exit' expect:'bob' \
      expect:'\$ $' send:'exit' exit:0 absent:"$TT_PROMPT" -- login -f alice
  check "login -h 203.0.113.9 alice (PAM_RHOST set): '$UNIX_PROMPT' alone" \
    drive root expect:"$UNIX_PROMPT" send:"$ALICE_PASSWORD" expect:'\$ $' send:'loginctl show-session "$XDG_SESSION_ID" -p Remote; exit' \
      expect:'Remote=yes' exit:0 absent:"$TT_PROMPT" -- login -h 203.0.113.9 alice
  [ "$(journal_count "${console[@]}")" -gt "$console_before" ] && pass "the module named the rule: login on a pseudo-terminal is at no seat" ||
    fail "no journal line of the module's saying login on a pseudo-terminal was refused a finger"
  [ "$(journal_count "${seatless[@]}")" -gt "$seatless_before" ] && pass "the module named the rule: bob's su in a session without a seat has no presence" ||
    fail "no journal line of the module's saying bob's su was refused a finger for a session without a seat"
  [ "$(journal_count "${rhost[@]}")" -gt "$rhost_before" ] && pass "the module named the rule: PAM_RHOST is set" ||
    fail "no journal line of the module's saying login -h was refused a finger for PAM_RHOST"
  local now; now=$(evaluations)
  say "POST /v1/evaluations in fpbridged's journal: $seen before these logins, $now after"
  [ "$now" = "$seen" ] && pass "no scan was asked for on a pseudo-terminal, in a seatless session nor for a remote login" ||
    fail "fpbridged logged $((now - seen)) evaluation(s) for a pseudo-terminal, a seatless session or a remote login"
}

# Nobody there, no finger: sshd on the container's loopback; neither sshd's own login nor sudo in
# the session starts a scan (fpbridged logs no evaluation).
check_t_remote() {
  run_shown root systemctl start ssh.service || { fail "sshd did not start"; return; }
  local ssh_opts="-o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=\$kh"
  local seen; seen=$(evaluations)
  check "ssh (keyboard-interactive, PAM's prompts shown): '$UNIX_PROMPT' alone; then sudo in the session asks the password alone" \
    drive bob expect:"$UNIX_PROMPT" send:"$ALICE_PASSWORD" expect:'\$ $' send:'sudo -k; sudo id -un' \
      expect:"$SUDO_UNIX_PROMPT" send:"$ALICE_PASSWORD" expect:'root' expect:'\$ $' send:'exit' exit:0 absent:'finger' \
    -- sh -c "kh=\$(mktemp); ssh $ssh_opts -o PreferredAuthentications=keyboard-interactive alice@127.0.0.1; rc=\$?; rm -f \"\$kh\"; exit \$rc"
  check "ssh (password authentication): sshd's PAM login goes through without waiting for a finger" \
    drive bob expect:"alice@127.0.0.1's password:" send:"$ALICE_PASSWORD" "${shell_as_alice[@]}" absent:'finger' \
    -- sh -c "kh=\$(mktemp); ssh $ssh_opts -o PreferredAuthentications=password alice@127.0.0.1; rc=\$?; rm -f \"\$kh\"; exit \$rc"
  local now; now=$(evaluations)
  say "POST /v1/evaluations in fpbridged's journal: $seen before the ssh sessions, $now after"
  [ "$now" = "$seen" ] && pass "no scan was asked for over ssh (fpbridged logged no evaluation)" ||
    fail "fpbridged logged $((now - seen)) evaluation(s) during the ssh sessions"
  guest_root systemctl stop ssh.service
}

# guest_until_ok CMD: polls the shell command CMD as root in the container until it succeeds (10 s at most).
guest_until_ok() {
  local i
  for i in $(seq 1 100); do guest_root sh -c "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}
# scan_now ID: libfprint's virtual_device reads finger ID now (as drive.py's scan: step).
scan_now() {
  /usr/bin/python3 - "/proc/$LEADER/root$VDEV" "SCAN $1" <<'PY'
import socket, sys, time
deadline = time.monotonic() + 15
while True:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(sys.argv[1]); break
    except OSError:
        s.close()
        if time.monotonic() > deadline: raise
        time.sleep(0.05)
with s:
    s.sendall(sys.argv[2].encode()); s.settimeout(15)
    while s.recv(1024): pass
PY
}
# pane_until REGEX: waits (20 s at most) until alice's tmux pane `desk` shows REGEX; prints the pane.
pane_until() {
  local i screen
  for i in $(seq 1 200); do
    screen=$(guest_unit alice tmux capture-pane -p -t desk 2>/dev/null)
    if printf '%s\n' "$screen" | grep -qE "$1"; then printf '%s\n' "$screen" | grep -v '^$' | sed 's/^/  | /'; return 0; fi
    sleep 0.1
  done
  printf '%s\n' "$screen" | grep -v '^$' | sed 's/^/  | /'
  return 1
}
# no_presence_logged REGEX BEFORE: pass when the module's journal lines "no finger for "alice":
# no presence at seat0: REGEX" grew past BEFORE.
no_presence_lines() { journal_count --grep "no finger for \"alice\": no presence at seat0: $1"; }

# Issue 49's reproductions on the booted system, each the password alone with fpbridged asked
# for no scan, beside the local cases they look like, which keep the finger: alice's desk is a
# session at seat0 that stays (its leader sleeps) with a tmux server started in it.
check_t_not_present() {
  run_shown root systemctl start ssh.service || { fail "sshd did not start"; return; }
  local ssh_opts="-o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=\$kh -o PreferredAuthentications=password"
  local ssh_alice="kh=\$(mktemp); ssh -t $ssh_opts alice@127.0.0.1; rc=\$?; rm -f \"\$kh\"; exit \$rc"
  say "$ systemd-run --unit=booted-alice-desk -p PAMName=login -p User=alice -E XDG_SEAT=seat0 sh -c 'tmux new-session -d -s desk; exec sleep 900'"
  guest_root systemd-run -q --unit=booted-alice-desk -p PAMName=login -p User=alice -E XDG_SEAT=seat0 -E TERM=xterm \
    sh -c 'tmux new-session -d -s desk -x 100 -y 20; exec sleep 900' || fail "alice's desk session did not start"
  guest_until_ok "loginctl show-seat seat0 -p ActiveSession --value | grep -q . && runuser -u alice -- tmux has-session -t desk" ||
    fail "no session active at seat0 with alice's tmux in it"
  run_shown root sh -c 'loginctl show-seat seat0 -p ActiveSession; loginctl list-sessions --no-legend'

  say "a tmux pane of alice's desk, alice logged in nowhere else: sudo in it"
  guest_unit alice tmux send-keys -t desk 'clear; sudo -k; sudo id -un' Enter
  if pane_until '\[sudo\] password or finger for alice: *$'; then
    scan_now $ALICE
    pane_until '^root$' && pass "sudo in the desk's tmux pane: the finger offered and taken" ||
      fail "sudo in the desk's tmux pane: no 'root' after the finger"
    # A blank pane for what follows: the attach below redraws it, and shows nothing of this.
    guest_unit alice tmux send-keys -t desk 'clear' Enter
    guest_unit alice tmux clear-history -t desk
  else
    fail "sudo in the desk's tmux pane was not offered the finger"
  fi

  local seen; seen=$(evaluations)
  local remote_before; remote_before=$(no_presence_lines '"alice" is also logged in remotely')
  check "tmux attached from SSH: sudo in the desk's own pane asks the password alone" \
    drive bob --term xterm expect:"alice@127.0.0.1's password:" send:"$ALICE_PASSWORD" expect:'\$ $' \
      send:'tmux attach -t desk' send:'clear; sudo -k; sudo id -un' expect:"$SUDO_UNIX_PROMPT" send:"$ALICE_PASSWORD" \
      expect:'root' send-raw:$'\x02d' expect:'detached' expect:'\$ $' send:'exit' exit:0 absent:'password or finger' \
    -- sh -c "$ssh_alice"
  check "systemd-run --user from SSH (her manager, in no session): sudo asks the password alone" \
    drive bob --term xterm expect:"alice@127.0.0.1's password:" send:"$ALICE_PASSWORD" expect:'\$ $' \
      send:"systemd-run --user --quiet --pty --wait sh -c 'sudo -k; sudo id -un'" expect:"$SUDO_UNIX_PROMPT" \
      send:"$ALICE_PASSWORD" expect:'root' expect:'\$ $' send:'exit' exit:0 absent:'password or finger' \
    -- sh -c "$ssh_alice"
  [ "$(no_presence_lines '"alice" is also logged in remotely')" -ge $((remote_before + 2)) ] &&
    pass "the module named the rule twice: alice is also logged in remotely" ||
    fail "no two journal lines of the module's saying alice is also logged in remotely"

  local other_before; other_before=$(journal_count --grep 'no finger for "alice": no presence at seat0: the request is in session [0-9a-z]+, not the one active at the seat')
  check "bob's su - alice from his own session while alice's desk is shown: '$UNIX_PROMPT' alone" \
    drive root expect:'\$ $' send:'su - alice' expect:"$UNIX_PROMPT" send:"$ALICE_PASSWORD" expect:'\$ $' send:'id -un; exit' \
      expect:'alice' expect:'\$ $' send:'exit' exit:0 absent:"$TT_PROMPT" -- login -f bob
  [ "$(journal_count --grep 'no finger for "alice": no presence at seat0: the request is in session [0-9a-z]+, not the one active at the seat')" -gt "$other_before" ] &&
    pass "the module named the rule: bob's session is not the one at the seat" ||
    fail "no journal line of the module's saying bob's su alice is not at the seat"

  local daemon_before; daemon_before=$(no_presence_lines 'the request is in no session')
  check "a daemon in no session (pamtester in a system service, common-auth through login): '$UNIX_PROMPT' alone" \
    drive root expect:"$UNIX_PROMPT" send:"$ALICE_PASSWORD" expect:'successfully authenticated' exit:0 absent:"$TT_PROMPT" \
    -- pamtester login alice authenticate
  [ "$(no_presence_lines 'the request is in no session')" -gt "$daemon_before" ] &&
    pass "the module named the rule: the request is in no session" ||
    fail "no journal line of the module's saying the daemon's request is in no session"

  local now; now=$(evaluations)
  say "POST /v1/evaluations in fpbridged's journal: $seen before these requests, $now after"
  [ "$now" = "$seen" ] && pass "no scan was asked for: tmux from SSH, systemd-run --user from SSH, bob's su alice, a daemon" ||
    fail "fpbridged logged $((now - seen)) evaluation(s) for requests nobody at the seat made"
  guest_unit alice tmux kill-server >/dev/null 2>&1
  guest_root systemctl stop booted-alice-desk
  # Two users, one reader: bob's own verify holds it (fprintd's face, as his desktop would);
  # alice's sudo at her desk offers no finger while it does, and says why.
  say "bob's fprintd-verify holds the reader while alice runs sudo at her desk"
  guest_unit root fprintd-list bob 2>/dev/null | grep -q right-index || enroll_as_root bob $BOB >/dev/null
  drive bob expect:"Verify started" wait:8 -- fprintd-verify >"$RUN/bob-verify.log" 2>&1 &
  local holder=$!
  local i
  for i in $(seq 1 150); do grep -q "Verify started" "$RUN/bob-verify.log" 2>/dev/null && break; sleep 0.1; done
  check "alice's sudo while bob's verify holds the reader: no finger, 'busy', the password alone" \
    drive alice --desk expect:"The fingerprint reader is busy with another request" expect:"$SUDO_UNIX_PROMPT" \
      send:"$ALICE_PASSWORD" expect:'root' exit:0 absent:'password or finger' -- sh -c 'sudo -k; sudo id -un'
  wait $holder || true
  sed 's/^/  (bob) /' "$RUN/bob-verify.log"

  guest_root systemctl stop ssh.service
}
