# ShieldBridge: the README's two commands, `make demo` and `make test`, and the rest.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
CONFIGURATION ?= debug
# How long `make fuzz` runs the deep-link fuzzer.
FUZZ_SECONDS ?= 60
# The GNOME Shell major version `make install` installs the extension for; empty: the installed shell's.
GNOME_SHELL_MAJOR ?=

# Debian packages: to build (libdbus through pkg-config; python3 for the release
# build's scripts/runtime-trim), to run the demo (a bus daemon), and for the
# tests (gettext's msgfmt for the catalogs; a real
# notification server under a virtual X display, clicked with xdotool; xdg-open
# for the scheme handler; tmux for the terminal puzzle; tzdata for the DST tests).
BUILD_PACKAGES := pkg-config libdbus-1-dev libxcb1-dev libxcb-screensaver0-dev libxcb-res0-dev libxcb-sync-dev python3
# The demo's desktop: a virtual X display, i3, and an xterm as the covered app.
RUN_PACKAGES := dbus-daemon xvfb i3-wm xterm
# The real desktops the meter is tested on: X11 with i3 and with openbox
# (xset for the screen saver), sway and foot (run as a user the tests create);
# KDE's KWin, kwin_x11 and kwin_wayland with Xwayland (its scripts over the
# session bus); GNOME Shell (headless, with our extension; gjs and nodejs
# parse the extension's GNOME 45 variant, which this Debian's shell cannot
# load); Chromium (with chromium-l10n for a German UI) and Firefox ESR with the
# browser extension, a local HTTPS site (openssl's certificate, python3's
# server) and python3 relaying the browsers' remote protocols; notify-send,
# which `notify` is compared with; xfce4-notifyd, the second real notification
# server the clicks are pinned on (started directly under Xvfb: no window
# manager, no xfconfd; see docs/reference/notification-servers.md); xfce4-session and
# xfwm4, the Xfce session that runs the service's autostart entry; mako, sway's
# usual notification server; wtype, a virtual keyboard that presses a sway
# user's key bindings (clicks come from the tests' own virtual pointer,
# Tests/TestSupport/WaylandPointer.swift: Debian 12 has no wlrctl); faketime
# (libfaketime), the wall clock set forward under a running service;
# debootstrap and zstd, the Debian 13 chroot that GNOME Shell 48 and KWin 6 run
# in (deps-chroot).
TEST_PACKAGES := gettext tzdata xvfb dunst xdotool xdg-utils desktop-file-utils tmux x11-utils dbus-bin \
	libnotify-bin i3-wm openbox xterm x11-xserver-utils sway foot kwin-x11 kwin-wayland xwayland gnome-shell gjs \
	nodejs chromium chromium-l10n firefox-esr openssl python3 xfce4-notifyd xfce4-session xfwm4 mako-notifier \
	wtype faketime debootstrap zstd
# `make stress-test`: a busy machine beside the suite.
STRESS_PACKAGES := stress-ng
BENCH_PACKAGES := libnotify-bin libglib2.0-bin python3 python3-dbus python3-gi python3-xlib gcc xvfb dunst chromium openssl
# `make screenshots`: dunst on a virtual display, xwd and netpbm to take its
# window, and fonts for every script the catalogs use (DejaVu Sans: Latin,
# Cyrillic, Arabic; VL Gothic: Japanese).
SCREENSHOT_PACKAGES := xvfb dbus-daemon dbus-bin dunst xdotool x11-apps netpbm fonts-dejavu-core fonts-vlgothic

SWIFT_BUILD := $(SWIFT) build -c $(CONFIGURATION)
BIN := $(shell $(SWIFT) build -c $(CONFIGURATION) --show-bin-path 2>/dev/null)
# What `make install` ships: optimised, with the Swift runtime linked in, so it
# starts faster, uses less memory and runs where the toolchain is not installed.
# Optimised across modules at the link (full LTO), and linked against a copy of
# the static runtime whose unused public functions the linker may drop
# (scripts/runtime-trim), which keeps it under its size budget (docs/developing/benchmarks.md, "Size").
RUNTIME_TRIM := $(CURDIR)/.build/runtime-trim
RELEASE_BUILD := $(SWIFT) build -c release --static-swift-stdlib --experimental-lto-mode=full \
	-Xswiftc -resource-dir -Xswiftc $(RUNTIME_TRIM)
RELEASE_BIN := $(shell $(SWIFT) build -c release --show-bin-path 2>/dev/null)

.PHONY: build release demo test stress-test lint bench fuzz screenshots install install-user clean deps-build deps-run deps-test deps-chroot deps-bench \
	deps-stress deps-screenshots webextension-locales

build: deps-build
	$(SWIFT_BUILD) --product shieldbridge

demo: deps-build deps-run build
	$(BIN)/shieldbridge demo

# The suites that run real desktops (X servers, window managers, sway, their
# clients) run after the others, in a run of their own: started beside the
# rest, their dozens of processes delay the bus tests' short timeouts.
REAL_DESKTOP_TESTS := DesktopTests\.|\.Meter(I3|X11|Serve|Processes|SiteX11|KWin|Gnome|History|Downtime|DayStart|Weekday)Tests|\.DesktopCommandTests|\.RulesPickTests|\.DemoTests|\.Browser(Chromium|ChromiumWindowed|ChromiumReport|Firefox|Packaged)Tests|\.(XfceShield|WeeklySummaryService)Tests|\.XfceAutostartTests|\.SwayMakoTests|\.(I3|Xfce|Sway|Gnome|KWin)DayTests|\.RulesDayTests|\.NotificationServerStartTests|\.FirstDayTests

# Every process the tests start inherits SHIELDBRIDGE_TEST_RUN; after the run,
# scripts/check-leftovers fails on any still running (see docs/developing/testing.md).
# The first days' trees (scripts/first-day-chroot: network and disk) are built
# while the tests and the package (CPU) are, and waited for before the tests
# (a tree that cannot be built fails FirstDayTests, which tries again).
test: deps-build deps-run deps-test deps-chroot deps-package
	@mkdir -p .build; \
	{ scripts/first-day-chroot bookworm && scripts/first-day-chroot trixie; } >.build/first-day-chroot.log 2>&1 & \
	trees=$$!; status=0; \
	{ $(SWIFT) build --build-tests && $(MAKE) deb; } || status=1; \
	wait $$trees || { cat .build/first-day-chroot.log; echo "the first days' trees could not be built: FirstDayTests fail"; }; \
	exit $$status
	@run="$$(date +%s%N)-$$$$"; status=0; \
	echo "test run $$run"; \
	SHIELDBRIDGE_TEST_RUN=$$run $(SWIFT) test --skip-build --skip '$(REAL_DESKTOP_TESTS)' \
	  && SHIELDBRIDGE_TEST_RUN=$$run $(SWIFT) test --skip-build --filter '$(REAL_DESKTOP_TESTS)' || status=1; \
	scripts/check-leftovers "$$run" || status=1; \
	exit $$status
	$(MAKE) lint
	$(MAKE) test-package

# `make test` beside stress-ng on two CPU workers and one I/O worker: the
# suite must pass on a busy machine (docs/developing/testing.md).
stress-test: deps-stress
	@stress-ng --cpu 2 --io 1 --quiet & stress=$$!; \
	$(MAKE) test; status=$$?; \
	kill $$stress; wait $$stress; \
	exit $$status

lint:
	scripts/lint-imports
	scripts/lint-user-text
	scripts/check-doc-links
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests benchmarks fuzz

bench: deps-build deps-run deps-test deps-bench
	benchmarks/run

# Not part of `make test`: it runs for FUZZ_SECONDS and may find new inputs.
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run

# Not part of `make test`: pictures of the shield notification in every locale,
# as dunst shows it, into docs/screenshots/ (see scripts/screenshots).
screenshots: deps-build deps-screenshots build
	scripts/screenshots $(BIN)/shieldbridge

# The browser extension's _locales/ from the catalogs (committed; a test checks they are current).
webextension-locales: build
	$(BIN)/shieldbridge locales webextension --dir locales integrations/webextension

release: deps-build
	scripts/runtime-trim $(RUNTIME_TRIM)
	$(RELEASE_BUILD) --product shieldbridge

# Where `make install` puts the browsers' native-messaging host manifests:
# system (/usr/lib/mozilla/…, /etc/chromium/…), user (~/.mozilla/…,
# ~/.config/chromium/…), none, or auto: system when run as root with PREFIX
# /usr or /usr/local, user otherwise (see scripts/install-native-host).
NATIVE_HOSTS ?= auto

# Where `make install` puts the XDG autostart entry that starts the service at
# login on desktops without graphical-session.target (Xfce, MATE, LXQt, …);
# `make install-user` puts it in this user's ~/.config/autostart.
AUTOSTART_DIR ?= /etc/xdg/autostart

# The binary (without its symbol table, which nothing at run time reads), the catalogs,
# the integration files with their paths filled in, and the GNOME Shell extension
# in the variant the installed gnome-shell loads (GNOME_SHELL_MAJOR=45 or =both overrides).
install: release
	scripts/uninstall record $(PREFIX) "$(DESTDIR)" $(NATIVE_HOSTS) $(AUTOSTART_DIR)
	install -D -s -m 0755 $(RELEASE_BIN)/shieldbridge $(DESTDIR)$(PREFIX)/bin/shieldbridge
	install -d $(DESTDIR)$(PREFIX)/share/systemd/user $(DESTDIR)$(PREFIX)/share/dbus-1/services \
		$(DESTDIR)$(PREFIX)/share/applications $(DESTDIR)$(PREFIX)/share/doc/shieldbridge/examples
	sed 's|@BINDIR@|$(PREFIX)/bin|g' examples/systemd/shieldbridge.service \
		> $(DESTDIR)$(PREFIX)/share/systemd/user/shieldbridge.service
	sed 's|@BINDIR@|$(PREFIX)/bin|g' examples/dbus/org.shieldbridge.ShieldBridge.service \
		> $(DESTDIR)$(PREFIX)/share/dbus-1/services/org.shieldbridge.ShieldBridge.service
	sed 's|@BINDIR@|$(PREFIX)/bin|g' examples/applications/shieldbridge.desktop \
		> $(DESTDIR)$(PREFIX)/share/applications/shieldbridge.desktop
	install -d $(DESTDIR)$(AUTOSTART_DIR)
	sed 's|@BINDIR@|$(PREFIX)/bin|g' examples/autostart/shieldbridge.desktop \
		> $(DESTDIR)$(AUTOSTART_DIR)/shieldbridge.desktop
	install -m 0644 examples/config.json $(DESTDIR)$(PREFIX)/share/doc/shieldbridge/examples/config.json
	install -d $(DESTDIR)$(PREFIX)/share/shieldbridge/locales
	install -m 0644 locales/shieldbridge.pot locales/*.po $(DESTDIR)$(PREFIX)/share/shieldbridge/locales/
	install -d $(DESTDIR)$(PREFIX)/share/shieldbridge/webextension
	install -m 0644 integrations/webextension/*.json integrations/webextension/*.js \
		integrations/webextension/*.html integrations/webextension/*.css integrations/webextension/README.md \
		$(DESTDIR)$(PREFIX)/share/shieldbridge/webextension/
	$(RELEASE_BIN)/shieldbridge locales webextension --dir locales $(DESTDIR)$(PREFIX)/share/shieldbridge/webextension
	scripts/install-native-host $(PREFIX) "$(DESTDIR)" $(NATIVE_HOSTS)
	scripts/install-gnome-extension $(DESTDIR)$(PREFIX)/share/gnome-shell/extensions $(GNOME_SHELL_MAJOR)

# The binary and the rest under ~/.local, the browsers' host manifests and the autostart entry in this user's home.
install-user:
	$(MAKE) install PREFIX=$(HOME)/.local NATIVE_HOSTS=user AUTOSTART_DIR=$${XDG_CONFIG_HOME:-$(HOME)/.config}/autostart

clean:
	rm -rf .build

deps-build:
	@scripts/ensure-packages $(BUILD_PACKAGES)

deps-run:
	@scripts/ensure-packages $(RUN_PACKAGES)

deps-test:
	@scripts/ensure-packages $(TEST_PACKAGES)
	@scripts/ensure-inotify 1024

# The Debian 13 tree the tests run GNOME Shell 48 and KWin 6 in, built when
# its compressed tar is missing (about 3 minutes; docs/developing/testing.md).
deps-chroot: deps-test
	@scripts/debian13-chroot

deps-bench:
	@scripts/ensure-packages $(BENCH_PACKAGES)

deps-stress:
	@scripts/ensure-packages $(STRESS_PACKAGES)

deps-screenshots:
	@scripts/ensure-packages $(SCREENSHOT_PACKAGES)

# --- package (issue 26): one version, uninstall, the .deb and its tests ---

# The version, whose one source is VERSION (scripts/version writes its copies; VersionTests checks them).
VERSION := $(shell cat VERSION)

# Debian's tools that build and check the package (chrpath: SwiftPM's run path out of the binary),
# and make the clean chroots it is installed in.
PACKAGE_PACKAGES := dpkg-dev lintian chrpath debootstrap zstd python3 openssl

# The packaging key the browser extension's .crx is signed with (scripts/pack-crx makes it when
# absent). It fixes the packed extension's id, so keep it from one package to the next; it never
# goes into the tree (docs/developing/package.md, "The browser extension").
CRX_KEY ?= $(HOME)/.config/shieldbridge-packaging/crx.pem

.PHONY: version uninstall uninstall-user deb deps-package test-package

version:
	@echo $(VERSION)

# What `make install` put there, with the same PREFIX, DESTDIR, NATIVE_HOSTS and
# AUTOSTART_DIR; the folders it made go too, when nothing else is in them.
uninstall:
	scripts/uninstall remove $(PREFIX) "$(DESTDIR)" $(NATIVE_HOSTS) $(AUTOSTART_DIR)

# What `make install-user` put in this user's home, and what the user's own steps of
# docs/using/install.md added for it: the unit's enable link and the scheme handler's default.
uninstall-user:
	$(MAKE) uninstall PREFIX=$(HOME)/.local NATIVE_HOSTS=user AUTOSTART_DIR=$${XDG_CONFIG_HOME:-$(HOME)/.config}/autostart
	@config=$${XDG_CONFIG_HOME:-$(HOME)/.config}; \
	link=$$config/systemd/user/graphical-session.target.wants/shieldbridge.service; \
	if [ -L "$$link" ]; then rm -f "$$link"; rmdir "$$(dirname "$$link")" 2>/dev/null || true; fi; \
	for list in "$$config/mimeapps.list" "$(HOME)/.local/share/applications/mimeapps.list"; do \
	  [ ! -f "$$list" ] || sed -i '/^x-scheme-handler\/shieldbridge=shieldbridge\.desktop$$/d' "$$list"; \
	done

deps-package:
	@scripts/ensure-packages $(PACKAGE_PACKAGES)

# shieldbridge_$(VERSION)_amd64.deb at the top of the tree (scripts/build-deb, docs/developing/package.md).
deb: deps-build deps-package release
	scripts/build-deb $(RELEASE_BIN) . $(CRX_KEY)

# The installs a user makes, tested where they happen (scripts/test-package; the last step of `make test`).
test-package: deps-build deps-package release
	scripts/test-package $(RELEASE_BIN) $(CRX_KEY)
