# Developer entry points: make test (both interpreters), make sim, make bench, make figures, make clean.
PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
# The unix port from PyPI lands in the venv; on other platforms a self-built one on PATH.
MPY     = $(or $(wildcard $(VENV)/bin/micropython),$(shell command -v micropython),$(VENV)/bin/micropython)
STAMP  := $(VENV)/.installed

.PHONY: test test-lowest quick sim bench figures clean screenshots hardware enclosure deploy heap device-build

# The 32-bit MicroPython v1.28.0 unix port with the application frozen in, as the ESP32 image
# freezes it (firmware/port/README.md); its source from MICROPYTHON_SRC, else ../shared/vendor, else a
# shallow clone of the tag (build.sh says which). Needs gcc-multilib.
DEVICE_BUILD := build/unix32-frozen-1.28.0/micropython

# The venv is made on first use and re-installed whenever pyproject.toml or constraints.txt changes:
# the tool, the charts, the club's hub and the test tools, at the versions constraints.txt pins (what CI runs too).
$(STAMP): pyproject.toml constraints.txt
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet -c constraints.txt -e '.[dev,charts,excel,club]'
	touch $@

# The lint runs first; every suite runs even if it or an earlier one fails; the exit status says whether all passed.
# Where the 32-bit device build is there (make device-build; CI makes it), the simulator in the
# host suite runs on it in the board's own heap, and tests/host/test_heap_gate*.py are the heap gate.
# The MicroPython suites run on the device build where it is there (the 32-bit v1.28.0 the chip
# runs, the app frozen in as it ships; the suites import the source, which comes first on their
# path), else on the PyPI unix port; the log's first line says which.
# The firmware suite runs whole simulated devices one after another in one process (emulated
# flash images, a colour LCD's 65 KB RAM): 8 MB of heap keeps it clear of the fragmentation a
# 2 MB default heap runs into. The firmware's own heap budget is measured by bench/, not here.
# The MicroPython suites (one process) run beside the CPython suite (another), each on a core of
# its own where there are two, and pytest-xdist spreads the CPython suite over the cores (a test
# file stays on one worker: its fixtures are made once); the MicroPython report follows the
# CPython one, and each suite's time is shown, with the 15 slowest CPython tests.
MPY_LOG := build/mpy-suites.log
test: $(STAMP)
	@mkdir -p build; status=0; start=$$(date +%s); \
	echo "== ruff check (pyproject.toml [tool.ruff])"; $(VENV)/bin/ruff check . || status=1; \
	( s=0; t=$$(date +%s); mpy=$$(test -x $(DEVICE_BUILD) && echo $(DEVICE_BUILD) || echo $(MPY)); \
	  echo "== MicroPython suites on $$mpy: $$($$mpy -c 'import sys; print(sys.implementation.version)')"; \
	  echo "== core suite on MicroPython"; $$mpy tests/mpy_runner.py tests/core || s=1; \
	  echo "== firmware suite on MicroPython"; $$mpy -X heapsize=8M tests/mpy_runner.py tests/firmware || s=1; \
	  echo "== crypto suite on MicroPython"; $$mpy tests/mpy_runner.py tests/crypto || s=1; \
	  echo "(MicroPython suites: $$(( $$(date +%s) - t )) s)"; exit $$s ) > $(MPY_LOG) 2>&1 & mpy=$$!; \
	echo "== everything else on CPython (the MicroPython suites run beside it: $(MPY_LOG))"; \
	$(VPY) -m pytest -q -n auto --dist loadfile --durations=15 || status=1; \
	echo "(CPython suite: $$(( $$(date +%s) - start )) s)"; \
	wait $$mpy || status=1; \
	grep -v -E '^PASS [^(]+$$' $(MPY_LOG) || true; \
	test -x $(DEVICE_BUILD) || echo "(the heap gate and the virtual chip were skipped: no 32-bit device build here; make device-build)"; \
	echo "(make test: $$(( $$(date +%s) - start )) s)"; \
	exit $$status

# The one-minute loop while editing: the lint, the core on both interpreters, the fast host checks
# (imports one way, screen texts, profiles, the simulated board's models) and the firmware's files not
# marked slow ("# slow: why" near a file's top: tests/mpy_runner.py --fast), the MicroPython part beside
# the CPython part. make test, which runs everything, before a commit.
QUICK := tests/core tests/host/test_imports.py tests/host/test_screen_texts.py tests/host/test_screen_registry.py \
	tests/host/test_profiles.py tests/host/test_simboard.py tests/host/test_ui_layers.py tests/test_mpy_compile.py
quick: $(STAMP)
	@mkdir -p build; start=$$(date +%s); status=0; \
	$(VENV)/bin/ruff check . || status=1; \
	( s=0; mpy=$$(test -x $(DEVICE_BUILD) && echo $(DEVICE_BUILD) || echo $(MPY)); \
	  $$mpy tests/mpy_runner.py tests/core || s=1; \
	  $$mpy -X heapsize=8M tests/mpy_runner.py tests/firmware --fast || s=1; exit $$s ) > build/quick-mpy.log 2>&1 & mpy=$$!; \
	$(VPY) -m pytest -q -n 2 $(QUICK) || status=1; \
	wait $$mpy || status=1; \
	grep -v -E '^PASS [^(]+$$' build/quick-mpy.log; \
	echo "(make quick: $$(( $$(date +%s) - start )) s)"; exit $$status

# The CPython suite on the lowest versions pyproject.toml allows (constraints-lowest.txt), in a venv of its
# own: the bounds are ones the tests passed on. Not part of make test (a second venv's install).
LOWEST := .venv-lowest
test-lowest: pyproject.toml constraints-lowest.txt
	test -x $(LOWEST)/bin/python || $(PYTHON) -m venv $(LOWEST)
	$(LOWEST)/bin/python -m pip install --quiet -c constraints-lowest.txt -e '.[dev,charts,excel,club]'
	$(LOWEST)/bin/python -m pip list --format=freeze | grep -i -E '^(pyserial|rich|cryptography|platformdirs|pillow|esptool|mpremote|matplotlib|openpyxl|amqtt|pytest|pytest-xdist|hypothesis)=='
	$(LOWEST)/bin/python -m pytest -q -n auto --dist loadfile -p no:cacheprovider tests/host tests/core tests/crypto

# Builds (incrementally) the 32-bit device build of MicroPython; tafel sim and the heap gate use it when it is there.
device-build: $(STAMP)
	PYTHON=$(VPY) firmware/port/unix/build.sh frozen

# Does the firmware fit the ESP32-WROOM's heap, on every board, in every flow? The tables; exit 1 if not.
heap: device-build
	$(VPY) bench/device_heap.py

# The firmware in the simulator, interactive in this terminal (tafel sim --help for headless runs). Where a
# 32-bit C compiler and MicroPython's source are there, on the virtual chip (the device build, made first);
# elsewhere on the PyPI unix port, in a heap scaled from the board's (an approximation, and it says so).
sim: $(STAMP)
	@if echo 'int main(void){return 0;}' | $${CC:-gcc} -m32 -x c -o /dev/null - 2>/dev/null; then \
		PYTHON=$(VPY) firmware/port/unix/build.sh frozen >/dev/null || echo "make sim: the device build failed (above); the simulator runs on the PyPI unix port"; \
	else echo "make sim: no 32-bit C compiler (Debian/Ubuntu: apt-get install gcc-multilib): the simulator runs on the PyPI unix port, its heap an approximation"; fi
	$(VENV)/bin/tafel sim

# First install on a board (docs/flashing.md): make deploy FIRMWARE=ESP32_GENERIC-....bin [PORT=/dev/ttyUSB0]
# [BUNDLE=tafel.bundle] [BOARD=name] [ERASE=1], or SKIP_ESPTOOL=1 in place of FIRMWARE when MicroPython is
# on the board; without BUNDLE tafel flash builds one from this checkout with the signing key.
deploy: $(STAMP)
	$(VENV)/bin/tafel flash $(if $(PORT),--port $(PORT)) $(if $(BOARD),--board $(BOARD)) \
		$(if $(FIRMWARE),--firmware $(FIRMWARE)) $(if $(SKIP_ESPTOOL),--skip-esptool) \
		$(if $(BUNDLE),--bundle $(BUNDLE)) $(if $(ERASE),--erase)

# The README's screenshots, from the key script docs/screens.txt on a fresh flash image:
# docs/screens on the default board (OLED, 4x), docs/screens-colour on the colour board (LCD, 2x),
# docs/screens-large on the 320x240 board (ILI9341, 1x).
screenshots: $(STAMP)
	@rm -rf docs/screens docs/screens-colour docs/screens-large; img=$$(mktemp -u /tmp/tafel-shots.XXXXXX); \
	$(VENV)/bin/tafel sim --script docs/screens.txt --out docs/screens --flash $$img \
	&& rm -f $$img && $(VENV)/bin/tafel sim --board lilygo-tdisplay-st7789 --script docs/screens.txt \
		--out docs/screens-colour --flash $$img \
	&& rm -f $$img && $(VENV)/bin/tafel sim --board esp32-devkitc-ili9341 --script docs/screens.txt \
		--out docs/screens-large --flash $$img; \
	status=$$?; rm -f $$img; exit $$status

# Each board's wiring table, wiring diagram and parts list, from its profile (hardware/<board>/; committed).
hardware: $(STAMP)
	$(VENV)/bin/tafel hardware docs

# PNG previews of the enclosure (hardware/enclosure/*.png; committed). Needs OpenSCAD (apt-get install
# openscad); without a display it runs under xvfb-run (apt-get install xvfb). Not part of make test.
# Each view as name:turn, the camera's turn in degrees about the vertical axis.
ENCLOSURE_VIEWS := assembly:335 tray:25 lid:335
enclosure:
	@command -v openscad >/dev/null || { echo "make enclosure: OpenSCAD is missing (Debian/Ubuntu: apt-get install openscad)"; exit 2; }
	@run=""; if [ -z "$$DISPLAY" ]; then \
		command -v xvfb-run >/dev/null || { echo "make enclosure: no display and no xvfb-run (apt-get install xvfb)"; exit 2; }; \
		run="xvfb-run -a"; \
	fi; \
	for pair in $(ENCLOSURE_VIEWS); do \
		view=$${pair%%:*}; turn=$${pair#*:}; \
		echo "== hardware/enclosure/$$view.png"; \
		$$run openscad --quiet -D 'view="'$$view'"' --imgsize=1200,900 --colorscheme=Tomorrow \
			--camera=0,0,0,55,0,$$turn,0 --autocenter --viewall --projection=p \
			-o hardware/enclosure/$$view.png hardware/enclosure/tafel.scad || exit 1; \
	done

# Every bench prints its tables and keeps them in bench/results/ (the runs: bench/benchlib.py RUNS,
# quick ones first; the device's figures need the 32-bit device build, made first). Every run is made
# even if one fails (a budget missed, say); the exit status says whether all passed. Then make figures.
bench: device-build
	@mkdir -p build; status=0; $(VPY) bench/benchlib.py --runs > build/bench-runs.txt; \
	while read -r script args; do \
		echo "== bench/$$script $$args"; $(VPY) bench/$$script $$args < /dev/null || status=1; \
	done < build/bench-runs.txt; \
	exit $$status

# The README's and docs' figure blocks, written from bench/results/ (tests/host/test_figures.py checks them).
figures: $(STAMP)
	$(VPY) bench/figures.py

# Back to a fresh checkout's state (the venv included).
clean:
	rm -rf $(VENV) $(LOWEST) build dist out *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name '*.mpy' -type f -delete
