# Convenience targets; the scripts do the work (and install what is missing).
.PHONY: demo test bench build clean install install-built uninstall fuzz

# Where `make install` puts things, the Debian way: $(PREFIX)/bin and
# $(PREFIX)/share/glasses-audio/{profiles,samples,models}. DESTDIR stages a package.
PREFIX ?= /usr/local
CONFIGURATION ?= release
# The folder holding the built executables (default: SwiftPM's for CONFIGURATION).
BINDIR ?= $(shell swift build -c $(CONFIGURATION) --show-bin-path)
DATADIR = $(DESTDIR)$(PREFIX)/share/glasses-audio

demo:
	scripts/run-demo
test:
	scripts/run-tests
bench:
	scripts/run-bench
build:
	scripts/bootstrap && swift build
clean:
	rm -rf .build .build-* fuzz/.build

# libFuzzer on the WAV and Ogg Opus readers, the profile and settings YAML, the settings bodies, FUZZ_SECONDS each (crashes land in out/fuzz/).
FUZZ_SECONDS ?= 60
fuzz:
	scripts/run-fuzz $(FUZZ_SECONDS)

install:
	swift build -c $(CONFIGURATION) --product glasses-audio
	swift build -c $(CONFIGURATION) --product glasses-emulator
	swift build -c $(CONFIGURATION) --product BlueALSAHCIShim
	swift build -c $(CONFIGURATION) --product glasses-audiod
	swift build -c $(CONFIGURATION) --product glasses-wake-trainer
	$(MAKE) install-built

# Installs executables that are already built (from BINDIR) with the data they look for.
install-built:
	install -d $(DESTDIR)$(PREFIX)/bin $(DATADIR)/profiles $(DATADIR)/samples $(DATADIR)/models
	install -m 755 $(BINDIR)/glasses-audio $(BINDIR)/glasses-emulator $(BINDIR)/glasses-audiod $(BINDIR)/glasses-wake-trainer $(DESTDIR)$(PREFIX)/bin/
	if [ -f $(BINDIR)/libBlueALSAHCIShim.so ]; then install -d $(DESTDIR)$(PREFIX)/lib/glasses-audio && install -m 644 $(BINDIR)/libBlueALSAHCIShim.so $(DESTDIR)$(PREFIX)/lib/glasses-audio/; fi
	install -m 644 profiles/*.yaml $(DATADIR)/profiles/
	install -m 644 samples/*.wav $(DATADIR)/samples/
	cp -R models/heads models/pocketsphinx models/commands $(DATADIR)/models/ && chmod -R a+rX $(DATADIR)/models

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/glasses-audio $(DESTDIR)$(PREFIX)/bin/glasses-emulator $(DESTDIR)$(PREFIX)/bin/glasses-audiod $(DESTDIR)$(PREFIX)/bin/glasses-wake-trainer
	rm -rf $(DESTDIR)$(PREFIX)/lib/glasses-audio
	rm -rf $(DATADIR)
