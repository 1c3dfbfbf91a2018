# The cached Debian root of the release under check (sourced by scripts/booted-check.sh).
#
# RELEASE is bookworm (Debian 12) or trixie (Debian 13); each has its own cache folder.
# $CACHE/root is made once by debootstrap and the packages below, then only read (it is the
# lower layer of each run's overlay). $CACHE/key names what it was made from: a different list,
# mirror or user setup rebuilds it. The .deb files' own dependencies are added on top with
# `apt-get satisfy` when they change ($CACHE/deps-key), without a rebuild.

# set_release NAME: the release under check, its name in messages and its cache.
set_release() {
  RELEASE=$1
  case $RELEASE in
    bookworm) RELEASE_NAME="Debian 12" ;;
    trixie) RELEASE_NAME="Debian 13" ;;
    *) echo "booted-check: unknown release '$RELEASE' (bookworm for Debian 12, trixie for Debian 13)" >&2; exit 2 ;;
  esac
  CACHE=${FPBRIDGE_BOOTED_CACHE:-/var/cache/fpbridge-booted}/$RELEASE
}
set_release "${RELEASE:-bookworm}"
# What debootstrap installs. libpam-systemd must be named: polkitd depends on
# `default-logind | logind`, which debootstrap cannot resolve.
BASE_PACKAGES=systemd,systemd-sysv,libpam-systemd,dbus,polkitd,pkexec,libpam-runtime,login,passwd,util-linux
# What the checks use, installed with apt into the tree: Debian's fprintd as the reference
# and for its tools and pam_fprintd.so, sudo, sshd (the remote rules of touch or type), and
# small helpers; tmux for issue 49's pane of the desk attached from SSH.
EXTRA_PACKAGES="fprintd libpam-fprintd libfprint-2-2 sudo openssh-server expect pamtester procps curl tmux"
# The kiosk's browser session (fpbridge-kiosk-browser.service): what the kiosk's package suggests.
EXTRA_PACKAGES="$EXTRA_PACKAGES cage xwayland chromium"
# Users of the checks and their passwords (known to the test only; the root is private).
ALICE_PASSWORD=alice-pw-7
BOB_PASSWORD=bob-pw-7
GUEST_HOSTNAME=fpbridge-booted

# The Debian mirror the host's apt uses (FPBRIDGE_BOOTED_MIRROR overrides): the one that
# serves the host's release serves the other too.
host_mirror() {
  if [ -n "${FPBRIDGE_BOOTED_MIRROR:-}" ]; then echo "$FPBRIDGE_BOOTED_MIRROR"; return; fi
  local m
  m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '$1 == "deb" && $3 ~ /^(bookworm|trixie)$/ && $2 !~ /security/ { print $2; exit }')
  [ -n "$m" ] || m=$(awk '/^URIs:/ { u = $2 } /^Suites:/ && / (bookworm|trixie)( |$)/ && u !~ /security/ { print u; exit }' \
      /etc/apt/sources.list.d/*.sources 2>/dev/null)
  echo "${m:-http://deb.debian.org/debian}"
}

# The tree's apt sources: the host's Debian ones when the host runs the release under check
# (the versions the .debs were built against), else the mirror's release and its updates.
tree_sources() {
  local f found=""
  for f in /etc/apt/sources.list.d/*.sources; do
    if [ -f "$f" ] && grep -q "$RELEASE" "$f"; then cat "$f"; echo; found=1; fi
  done
  [ -z "$found" ] || return 0
  printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\n' "$(host_mirror)" "$RELEASE" "$RELEASE"
  local security
  security=$(awk '/^URIs:/ && /security/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
  [ -z "$security" ] || printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\n' "$security" "$RELEASE"
}

in_tree() { # in_tree ROOT CMD...: a command in the tree, with /proc, in a private mount namespace
  local root=$1; shift
  unshare -m --propagation private chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 HOME=/root \
    sh -c 'mount -t proc proc /proc && mount -t sysfs sys /sys 2>/dev/null; mount -t devtmpfs dev /dev 2>/dev/null; exec "$@"' sh "$@"
}

tree_apt() { # tree_apt ROOT apt-get-args...: apt in the tree, nothing started (policy-rc.d)
  local root=$1; shift
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"; chmod 755 "$root/usr/sbin/policy-rc.d"
  local rc=0
  in_tree "$root" apt-get -q -y -o DPkg::Lock::Timeout=900 -o Dpkg::Use-Pty=0 "$@" || rc=$?
  rm -f "$root/usr/sbin/policy-rc.d"
  return $rc
}

root_key() {
  { echo "v3 $RELEASE $BASE_PACKAGES | $EXTRA_PACKAGES | $(host_mirror) | $ALICE_PASSWORD $BOB_PASSWORD | $GUEST_HOSTNAME"
    tree_sources; declare -f setup_tree; } | sha256sum | cut -c1-16
}

# Users, host name, machine id, and the services a test machine does not need.
setup_tree() {
  local root=$1
  in_tree "$root" sh -ec "
    useradd -m -s /bin/bash -G sudo alice
    useradd -m -s /bin/bash bob
    printf 'alice:%s\nbob:%s\n' '$ALICE_PASSWORD' '$BOB_PASSWORD' | chpasswd
    echo $GUEST_HOSTNAME >/etc/hostname
    printf '127.0.0.1 localhost\n127.0.1.1 $GUEST_HOSTNAME\n' >/etc/hosts
    rm -f /etc/machine-id && systemd-machine-id-setup >/dev/null
    # No network inside: timers that fetch or scrub only make noise.
    systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer 2>/dev/null || true
    systemctl mask systemd-networkd-wait-online.service systemd-timesyncd.service 2>/dev/null || true
    # sshd for the touch-or-type check's remote rules: started by that check only, on loopback,
    # with keyboard-interactive on so that the client shows PAM's own prompts.
    systemctl disable ssh.service 2>/dev/null || true
    printf 'ListenAddress 127.0.0.1\nKbdInteractiveAuthentication yes\n' >/etc/ssh/sshd_config.d/booted-check.conf
  "
}

# ensure_root: $CACHE/root exists and matches root_key (builds it when not).
ensure_root() {
  mkdir -p "$CACHE"
  # The layout before issue 51 kept one release's root in the cache folder itself.
  if [ -d "${CACHE%/*}/root" ] && [ -f "${CACHE%/*}/key" ]; then
    say "removing the cache's old layout (${CACHE%/*}/root: one release, before both were checked)"
    rm -rf "${CACHE%/*}/root" "${CACHE%/*}/key" "${CACHE%/*}/deps-key"
  fi
  local key; key=$(root_key)
  if [ -d "$CACHE/root" ] && [ "$(cat "$CACHE/key" 2>/dev/null)" = "$key" ]; then
    say "cached root $CACHE/root (key $key)"
    return
  fi
  local t0; t0=$(now)
  say "building the $RELEASE_NAME root in $CACHE (key $key; about 75 s)"
  rm -rf "$CACHE/root.new" "$CACHE/root" "$CACHE/key" "$CACHE/deps-key"
  say "$ debootstrap --variant=minbase --include=$BASE_PACKAGES $RELEASE $CACHE/root.new $(host_mirror)"
  debootstrap --variant=minbase --include="$BASE_PACKAGES" "$RELEASE" "$CACHE/root.new" "$(host_mirror)" \
    >"$CACHE/debootstrap.log" 2>&1 || { tail -20 "$CACHE/debootstrap.log"; die "debootstrap failed ($CACHE/debootstrap.log)"; }
  rm -f "$CACHE/root.new/etc/apt/sources.list"
  tree_sources >"$CACHE/root.new/etc/apt/sources.list.d/debian.sources"
  say "$ apt-get install $EXTRA_PACKAGES (in the tree)"
  tree_apt "$CACHE/root.new" update >"$CACHE/apt.log" 2>&1 || { tail "$CACHE/apt.log"; die "apt-get update in the tree failed"; }
  tree_apt "$CACHE/root.new" install --no-install-recommends $EXTRA_PACKAGES >>"$CACHE/apt.log" 2>&1 ||
    { tail -20 "$CACHE/apt.log"; die "apt-get install in the tree failed ($CACHE/apt.log)"; }
  tree_apt "$CACHE/root.new" clean >/dev/null 2>&1 || true
  setup_tree "$CACHE/root.new" || die "setting up the users and services of the tree failed (nothing cached)"
  mv "$CACHE/root.new" "$CACHE/root"
  echo "$key" >"$CACHE/key"
  say "root built in $(elapsed "$t0") s ($(du -sh "$CACHE/root" | cut -f1))"
  TIMING_ROOT_BUILD=$(elapsed "$t0")
}

# deb_dependencies DEB...: the Depends of the given packages, less the packages themselves
# (those come from the files), one per line.
deb_dependencies() {
  local own=" " d
  for d in "$@"; do own+="$(dpkg-deb -f "$d" Package) "; done
  for d in "$@"; do dpkg-deb -f "$d" Depends | tr ',' '\n'; done |
    sed 's/^ *//; s/ *$//' | grep . | while read -r dep; do
      local name=${dep%% *}; name=${name%%:*}
      case "$own" in *" $name "*) ;; *) echo "$dep" ;; esac
    done | sort -u
}

# ensure_deps DEB...: the tree has everything the packages depend on (apt-get satisfy, with
# the host's network, once per different set).
ensure_deps() {
  [ $# -gt 0 ] || return 0
  local deps key
  deps=$(deb_dependencies "$@" | paste -sd, | sed 's/,/, /g')
  key=$(echo "$deps" | sha256sum | cut -c1-16)
  if [ "$(cat "$CACHE/deps-key" 2>/dev/null)" = "$key" ]; then say "the packages' dependencies are in the cached root"; return; fi
  local t0; t0=$(now)
  say "$ apt-get satisfy '$deps' (in the tree)"
  tree_apt "$CACHE/root" update >"$CACHE/apt.log" 2>&1 || true
  tree_apt "$CACHE/root" satisfy --no-install-recommends "$deps" >>"$CACHE/apt.log" 2>&1 ||
    { tail -20 "$CACHE/apt.log"; die "apt-get satisfy in the tree failed ($CACHE/apt.log)"; }
  tree_apt "$CACHE/root" clean >/dev/null 2>&1 || true
  echo "$key" >"$CACHE/deps-key"
  say "dependencies added in $(elapsed "$t0") s"
}
