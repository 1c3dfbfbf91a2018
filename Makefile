# Convenience targets; the scripts in scripts/ do the work.
PREFIX ?= /usr/local
UDEVDIR ?= /etc/udev/rules.d
GROUP ?= fpbridge
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: build demo test bench fuzz rules install uninstall

build:
	swift build -c release --static-swift-stdlib --product fpbridge

demo:
	bash scripts/demo.sh

test:
	bash scripts/test.sh

# fpbridge against the C floor and fprintd; prints the table (see BENCHMARKS.md).
bench:
	bash bench/run.sh

# Coverage-guided fuzzing of every parser; SECONDS per target (default 60).
fuzz:
	bash scripts/fuzz.sh $(SECONDS)

# Regenerates udev/70-fpbridge.rules from the installed libfprint's device list.
rules:
	bash scripts/generate-udev-rules.sh

# Installs the binary and the udev rules, creates the group, and reloads udev
# so that a reader plugged in afterwards is open to the seat user and the group.
install: build
	$(SUDO) install -D -m 0755 "$$(swift build -c release --show-bin-path)/fpbridge" $(DESTDIR)$(PREFIX)/bin/fpbridge
	$(SUDO) install -D -m 0644 udev/70-fpbridge.rules $(DESTDIR)$(UDEVDIR)/70-fpbridge.rules
	getent group $(GROUP) >/dev/null || $(SUDO) groupadd --system $(GROUP)
	if command -v udevadm >/dev/null; then \
		$(SUDO) udevadm control --reload-rules && $(SUDO) udevadm trigger --subsystem-match=usb --action=change; \
	else echo "udevadm not found: the rules take effect at the next boot"; fi

uninstall:
	$(SUDO) rm -f $(DESTDIR)$(PREFIX)/bin/fpbridge $(DESTDIR)$(UDEVDIR)/70-fpbridge.rules
	if command -v udevadm >/dev/null; then $(SUDO) udevadm control --reload-rules; fi
