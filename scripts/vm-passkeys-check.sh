#!/usr/bin/env bash
# The passkey device through a real kernel (issue 52): this machine's kernel has no uhid, so a
# VM boots Debian's own kernel under qemu's software emulation (KVM hangs a guest here), with
# a busybox initramfs that loads virtio, 9p, hid and uhid, mounts this machine's files
# read-only over 9p and chroots into them: the guest runs the debug fpbridged and fprintd-free
# libfido2 tools of this very tree against /dev/uhid and /dev/hidraw* (scripts/vm/passkeys-guest.sh).
#
#   bash scripts/vm-passkeys-check.sh
#
# Needs the debug build (swift build). The kernel package is downloaded once into
# .build/vm (apt-get download: the newest linux-image-*-amd64 the archive has).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
bash scripts/install-packages.sh qemu-system-x86 busybox-static fido2-tools python3
bin="$(swift build --show-bin-path)"
[ -x "$bin/fpbridged" ] && [ -x "$bin/fpbridge" ] || { echo "vm-passkeys: build first (swift build)"; exit 1; }
cache=.build/vm
mkdir -p "$cache"

# The kernel: the version linux-image-amd64 points at, as a .deb unpacked here.
if [ ! -s "$cache/kernel.path" ]; then
  image=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1)
  [ -n "$image" ] || { echo "vm-passkeys: apt knows no linux-image-amd64 (apt-get update?)"; exit 1; }
  rm -rf "$cache/kernel" && mkdir -p "$cache/kernel"
  # The unsigned image is the same kernel without the signature that a VM has no use for.
  (cd "$cache" && { apt-get download -q "$image-unsigned" 2>/dev/null || apt-get download -q "$image"; })
  dpkg-deb -x "$cache"/linux-image-*.deb "$cache/kernel"
  rm -f "$cache"/linux-image-*.deb
  ls "$cache"/kernel/boot/vmlinuz-* | head -1 >"$cache/kernel.path"
fi
vmlinuz=$(cat "$cache/kernel.path")
release=${vmlinuz##*/vmlinuz-}
modules="$cache/kernel/lib/modules/$release"

# The initramfs: busybox, the modules uhid and 9p need (each after those it depends on), /init.
init=$(mktemp -d /tmp/fpbridge-vm-XXXXXX)
trap 'rm -rf "$init"' EXIT
mkdir -p "$init/bin" "$init/mods" "$init/proc" "$init/sys" "$init/dev" "$init/host"
cp /bin/busybox "$init/bin/busybox"
ln -s busybox "$init/bin/sh"
# No depmod here (kmod is not installed): each module's .modinfo section names what it needs.
python3 - "$modules" "$init/mods" >"$init/mods/order" <<'EOF'
import os, re, shutil, sys
root, out = sys.argv[1], sys.argv[2]
paths = {}
for folder, _, files in os.walk(os.path.join(root, "kernel")):
    for file in files:
        if file.endswith(".ko"):
            paths[file[:-3].replace("-", "_")] = os.path.join(folder, file)
def needs(name):
    found = re.search(rb"(?:^|\0)depends=([^\0]*)", open(paths[name], "rb").read())
    return [n.replace("-", "_") for n in found.group(1).decode().split(",") if n] if found else []
order = []
def add(name):
    if name in order or name not in paths:
        return  # built into this kernel
    for need in needs(name):
        add(need)
    order.append(name)
for name in ["virtio_pci", "9pnet_virtio", "9p", "uhid", "hid_generic"]:
    add(name)
for name in order:
    shutil.copy(paths[name], out)
    print(os.path.basename(paths[name]))
EOF
cat >"$init/init" <<EOF
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t devtmpfs dev /dev
for m in \$(/bin/busybox cat /mods/order); do /bin/busybox insmod /mods/\$m || echo "vm: insmod \$m failed"; done
/bin/busybox mount -t 9p -o trans=virtio,version=9p2000.L,ro host /host || echo "vm: no 9p mount"
for d in proc sys dev; do /bin/busybox mount --bind /\$d /host/\$d; done
for d in run tmp; do /bin/busybox mount -t tmpfs none /host/\$d; done
/bin/busybox chroot /host /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root \
  /bin/sh $repo/scripts/vm/passkeys-guest.sh $bin $repo 2>&1
echo "vm: guest script exited \$?"
/bin/busybox poweroff -f
EOF
chmod 755 "$init/init"
(cd "$init" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$init.cpio.gz"
trap 'rm -rf "$init" "$init.cpio.gz"' EXIT

# Software emulation, no network; the guest powers off when its script ends. The whole
# run is bounded: a guest that hangs is killed and reported. About 55 s alone, 150 s beside a
# test run on two cores (2026-12-04); the bound leaves room for CI's booted checks beside it.
start=$(date +%s)
set +e
timeout 600 qemu-system-x86_64 -m 1536 -smp 2 -nographic -no-reboot -kernel "$vmlinuz" -initrd "$init.cpio.gz" \
  -append "console=ttyS0 quiet panic=-1" -nic none \
  -virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap >"$init/console" 2>&1
status=$?
set -e
tr -d '\r' <"$init/console" | grep -E '^(passkeys-guest|vm|  fpbridged):' || true
echo "vm-passkeys: the VM ran $(( $(date +%s) - start )) s (qemu exit $status)"
if ! tr -d '\r' <"$init/console" | grep -q '^passkeys-guest: PASS'; then
  echo "vm-passkeys: FAILED; the console's last lines:"
  tr -d '\r' <"$init/console" | tail -40
  exit 1
fi
