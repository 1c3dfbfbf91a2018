# Convenience targets; the scripts in scripts/ do the work.
PREFIX ?= /usr/local
UDEVDIR ?= /etc/udev/rules.d
UNITDIR ?= /etc/systemd/system
SYSUSERSDIR ?= /etc/sysusers.d
# fprintd's D-Bus API: who may own the name, and polkit's actions (dbus/, polkit/).
DBUSPOLICYDIR ?= /etc/dbus-1/system.d
POLKITDIR ?= /usr/share/polkit-1/actions
POLKITFILE = $(POLKITDIR)/net.reactivated.fprint.device.policy
GROUP ?= fpbridge
# The service's own system user (its primary group is GROUP, which owns the readers).
SERVICE_USER ?= fpbridge
# Where the release products are; override to install binaries built elsewhere
# (`make install BINPATH=DIR` then needs no Swift toolchain: nothing is built).
BINPATH ?= $$(swift build -c release --show-bin-path)
INSTALL_NEEDS = $(if $(filter command line environment,$(origin BINPATH)),,build)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# systemctl is used only on a host booted with systemd (not in containers, chroots or with DESTDIR).
SYSTEMD_RUNNING = [ -z "$(DESTDIR)" ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]

.PHONY: build demo test bench bench-inprocess fuzz rules install uninstall deb

build:
	bash scripts/build-release.sh

demo:
	bash scripts/demo.sh

test:
	bash scripts/test.sh

# fpbridge against the C floor and fprintd; prints the table (see BENCHMARKS.md).
bench:
	bash bench/run.sh

# The engine's in-process benchmarks on the fake reader (ordo-one's benchmark plugin).
bench-inprocess:
	bash bench/inprocess.sh

# Coverage-guided fuzzing of every parser; SECONDS per target (default 60).
fuzz:
	bash scripts/fuzz.sh $(SECONDS)

# The Debian packages fpbridge, fpbridged and fpbridge-kiosk in dist/ (docs/packaging.md), from
# a release build, or from binaries built elsewhere: make deb BIN_DIR=DIR.
deb:
	bash scripts/make-deb.sh $(if $(BIN_DIR),--bin-dir "$(BIN_DIR)")

# Regenerates udev/70-fpbridge.rules from the installed libfprint's device list.
rules:
	bash scripts/generate-udev-rules.sh

# Installs the CLI, the service fpbridged and its systemd unit, and the udev rules;
# creates the group and the service's system user, reloads udev so that a reader plugged
# in afterwards is open to the seat user and the group, and enables and (re)starts the
# service when systemd runs. With DESTDIR (packaging) only the files are installed.
install: $(INSTALL_NEEDS)
	@for p in fpbridge fpbridged fpbridge-kiosk; do [ -x "$(BINPATH)/$$p" ] || { \
		echo "$(BINPATH)/$$p is missing: run make build (needs Swift), or make install BINPATH=DIR"; exit 1; }; done
	$(SUDO) install -D -m 0755 "$(BINPATH)/fpbridge" $(DESTDIR)$(PREFIX)/bin/fpbridge
	$(SUDO) install -D -m 0755 "$(BINPATH)/fpbridged" $(DESTDIR)$(PREFIX)/bin/fpbridged
	$(SUDO) install -D -m 0755 "$(BINPATH)/fpbridge-kiosk" $(DESTDIR)$(PREFIX)/bin/fpbridge-kiosk
	$(SUDO) install -D -m 0644 udev/70-fpbridge.rules $(DESTDIR)$(UDEVDIR)/70-fpbridge.rules
	$(SUDO) install -d -m 0755 $(DESTDIR)$(UNITDIR)
	sed 's|/usr/local/bin/fpbridged|$(PREFIX)/bin/fpbridged|g' systemd/fpbridged.service \
		| $(SUDO) tee $(DESTDIR)$(UNITDIR)/fpbridged.service >/dev/null
	$(SUDO) chmod 0644 $(DESTDIR)$(UNITDIR)/fpbridged.service
	@# The kiosk's unit is installed, not enabled: a kiosk machine opts in (docs/kiosk.md).
	sed 's|/usr/local/bin/fpbridge-kiosk|$(PREFIX)/bin/fpbridge-kiosk|g' systemd/fpbridge-kiosk.service \
		| $(SUDO) tee $(DESTDIR)$(UNITDIR)/fpbridge-kiosk.service >/dev/null
	$(SUDO) chmod 0644 $(DESTDIR)$(UNITDIR)/fpbridge-kiosk.service
	$(SUDO) install -D -m 0644 systemd/fpbridge-kiosk-browser.service $(DESTDIR)$(UNITDIR)/fpbridge-kiosk-browser.service
	$(SUDO) install -D -m 0644 systemd/fpbridge.sysusers $(DESTDIR)$(SYSUSERSDIR)/fpbridge.conf
	$(SUDO) install -D -m 0644 systemd/fpbridge-kiosk.sysusers $(DESTDIR)$(SYSUSERSDIR)/fpbridge-kiosk.conf
	$(SUDO) install -D -m 0644 dbus/fpbridge-fprintd.conf $(DESTDIR)$(DBUSPOLICYDIR)/fpbridge-fprintd.conf
	@# polkit must see one definition of fprintd's actions: fprintd's file is moved aside (and back by uninstall).
	if [ -z "$(DESTDIR)" ] && command -v dpkg-divert >/dev/null; then \
		$(SUDO) dpkg-divert --quiet --local --rename --add --divert $(POLKITFILE).fprintd $(POLKITFILE); fi
	$(SUDO) install -D -m 0644 polkit/net.reactivated.fprint.device.policy $(DESTDIR)$(POLKITFILE)
	@if [ -n "$(DESTDIR)" ]; then \
		echo "DESTDIR is set: not creating the user $(SERVICE_USER), reloading udev or starting fpbridged"; \
		exit 0; \
	fi; \
	set -e; \
	getent group $(GROUP) >/dev/null || $(SUDO) groupadd --system $(GROUP); \
	getent passwd $(SERVICE_USER) >/dev/null || $(SUDO) useradd --system --gid $(GROUP) \
		--home-dir /var/lib/fpbridge --no-create-home --shell /usr/sbin/nologin \
		--comment "fpbridge fingerprint service" $(SERVICE_USER); \
	getent group fpbridge-kiosk >/dev/null || $(SUDO) groupadd --system fpbridge-kiosk; \
	getent passwd fpbridge-kiosk >/dev/null || $(SUDO) useradd --system --gid fpbridge-kiosk \
		--home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin \
		--comment "fpbridge kiosk" fpbridge-kiosk; \
	getent passwd fpbridge-kiosk-browser >/dev/null || $(SUDO) useradd --system --user-group \
		--home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin \
		--comment "fpbridge kiosk browser" fpbridge-kiosk-browser; \
	if command -v udevadm >/dev/null; then \
		$(SUDO) udevadm control --reload-rules && $(SUDO) udevadm trigger --subsystem-match=usb --action=change \
			|| echo "udev did not reload (is systemd-udevd running?): the rules take effect at the next boot"; \
	else echo "udevadm not found: the rules take effect at the next boot"; fi; \
	if $(SYSTEMD_RUNNING); then \
		$(SUDO) systemctl daemon-reload; \
		: "dbus-daemon read the bus policy when it was copied, before the user existed: read it again"; \
		systemctl is-active --quiet dbus && $(SUDO) systemctl reload dbus; \
		: "fprintd holds the name when it runs, and a client would start it again: masked (uninstall unmasks it)"; \
		if systemctl cat fprintd.service >/dev/null 2>&1; then $(SUDO) systemctl mask --now fprintd; fi; \
		if systemctl is-active --quiet fpbridged; then \
			$(SUDO) systemctl enable fpbridged && $(SUDO) systemctl restart fpbridged; \
		else $(SUDO) systemctl enable --now fpbridged; fi; \
	else echo "systemd is not running: start $(PREFIX)/bin/fpbridged yourself (as $(SERVICE_USER)), or enable fpbridged.service after booting with systemd"; fi

# Stops and disables the service, then removes what install installed. The user
# $(SERVICE_USER) and the state in /var/lib/fpbridge (prints, passcodes, keys) are kept.
uninstall:
	if $(SYSTEMD_RUNNING); then $(SUDO) systemctl disable --now fpbridge-kiosk-browser fpbridge-kiosk fpbridged || true; fi
	$(SUDO) rm -f $(DESTDIR)$(PREFIX)/bin/fpbridge $(DESTDIR)$(PREFIX)/bin/fpbridged $(DESTDIR)$(UDEVDIR)/70-fpbridge.rules \
		$(DESTDIR)$(PREFIX)/bin/fpbridge-kiosk $(DESTDIR)$(UNITDIR)/fpbridge-kiosk.service \
		$(DESTDIR)$(UNITDIR)/fpbridge-kiosk-browser.service \
		$(DESTDIR)$(SYSUSERSDIR)/fpbridge-kiosk.conf \
		$(DESTDIR)$(UNITDIR)/fpbridged.service $(DESTDIR)$(SYSUSERSDIR)/fpbridge.conf \
		$(DESTDIR)$(DBUSPOLICYDIR)/fpbridge-fprintd.conf $(DESTDIR)$(POLKITFILE)
	if [ -z "$(DESTDIR)" ] && command -v dpkg-divert >/dev/null; then \
		$(SUDO) dpkg-divert --quiet --local --rename --remove --divert $(POLKITFILE).fprintd $(POLKITFILE); fi
	if $(SYSTEMD_RUNNING); then $(SUDO) systemctl daemon-reload; \
		if systemctl cat fprintd.service >/dev/null 2>&1; then $(SUDO) systemctl unmask fprintd; fi; fi
	if [ -z "$(DESTDIR)" ] && command -v udevadm >/dev/null; then $(SUDO) udevadm control --reload-rules; fi
	@echo "kept: the user $(SERVICE_USER) and /var/lib/fpbridge (prints, passcodes, keys); remove them by hand if wanted"
