#!/usr/bin/env bash
# The Debian packages the tests need beyond what scripts/setup.sh installs (apt-get, with sudo
# when not root). scripts/test.sh runs it while the debug build compiles.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's fprintd tools and pam_fprintd.so run against fpbridged's D-Bus face (fprintd itself
# only as the reference, on a private bus). Installing libpam-fprintd lets pam-auth-update
# add fingerprint login to this machine's common-auth: that is put back as it was.
fprintd_pam_before=$(grep -qs pam_fprintd /etc/pam.d/common-auth && echo yes || echo no)
bash scripts/install-packages.sh fprintd python3-dbus libpam-fprintd libpam-wrapper pamtester
if [ "$fprintd_pam_before" = no ] && grep -qs pam_fprintd /etc/pam.d/common-auth; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo pam-auth-update --package --remove fprintd
fi

# The kiosk page's browser tests: headless Chromium driven by Selenium (Tests/Helpers/kiosk-browser.py),
# a CJK font for its Chinese strings, and PyYAML for the kiosk's API document test (KioskAPIDocumentTests).
bash scripts/install-packages.sh chromium chromium-driver python3-selenium fonts-wqy-zenhei python3-yaml

# GNOME Settings' Users panel, run headless under Xvfb (scripts/gnome-settings-check.sh), without
# the 355 packages it only recommends (NetworkManager, BlueZ, PipeWire, ...): 191 packages,
# about 70 s to install on this machine.
bash scripts/install-packages.sh --no-recommends gnome-control-center xvfb xdotool

# A software TPM 2.0 for the device identity key in a TPM (TPMVouchingTests): swtpm on loopback,
# manufactured by swtpm_setup with EK certificates from a CA each test makes in a temporary
# directory. libtss2-dev, which fpbridged links, comes with setup.sh.
bash scripts/install-packages.sh swtpm swtpm-tools libtss2-dev

# The Debian packages' tools (scripts/make-deb.sh installs them too, when run on its own): dpkg-dev
# for dpkg-shlibdeps and dpkg-gencontrol, lintian for the check of the result.
bash scripts/install-packages.sh dpkg-dev binutils lintian

# The booted Debian 12 the packages are installed into (scripts/booted-check.sh): debootstrap
# makes its root, systemd-nspawn boots it.
bash scripts/install-packages.sh debootstrap systemd-container

# The passkey authenticator's judges (issue 52): python-fido2's client and relying party
# (Tests/Helpers/fido2-host.py, PythonFido2Tests) and libfido2's tools.
bash scripts/install-packages.sh python3-fido2 fido2-tools
# The passkey device through a real kernel's uhid (scripts/vm-passkeys-check.sh): qemu's software
# emulation and a static busybox for the VM's initramfs.
bash scripts/install-packages.sh qemu-system-x86 busybox-static
