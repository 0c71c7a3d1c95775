# The board's side of `tafel calibrate` (host_tools/hardware/calibrate.py): sent as source over MicroPython's raw REPL.
#
# host_tools/hardware/onboard/ holds scripts that run on the board, never on the laptop: they import the
# firmware's modules there, and the laptop only reads them as text (tests/host/test_imports.py).
#
# After the raw REPL's soft reset (boot.py ran, main.py did not: the heap holds nothing of the app)
# it builds the application as firmware/assemble.py does, on the board's own display and keypad,
# but on a store in a scratch folder (calib/ beside data/: the table's games, settings and roster
# are never touched), without the link (the laptop holds the port) and without update/health.py
# (nothing is confirmed or fed for an update on trial). The laptop then sends the scenarios'
# keys a chunk at a time (the play method) and this presses them as the main loop hands
# keys to the app (app.key, app.tick, app.render), measuring on the chip:
#   after every key (and every 100 ms of a wait): gc.collect(), then gc.mem_alloc() - the peak
#   in use and gc.mem_free() then; the time from the key to the drawn screen (ticks_us), as a
#   histogram of whole milliseconds; micropython.stack_use() at the loop's level
#   at the end of a scenario: esp32.idf_heap_info(esp32.HEAP_DATA) (free, largest block, least
#   ever free), the rounds of the game on the table, and micropython.mem_info()
# Each scenario's figures are one line "TAFELCAL {json}". Stock MicroPython only (no f-strings
# beyond what 1.28 has, nothing of CPython).
import gc
import json
import os
import sys
import time

import micropython

MARK = "TAFELCAL"
SCRATCH = "calib"
WDT_MS = 1800000  # a trial or probation boot runs a 60 s watchdog (bootsel.py): half an hour here


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _rmtree(path):
    if not _exists(path):
        return
    for entry in os.ilistdir(path):
        sub = path + "/" + entry[0]
        if entry[1] == 0x4000:
            _rmtree(sub)
        else:
            os.remove(sub)
    os.rmdir(path)


class Cal:
    def __init__(self):
        # The flash's root: / on a board, /flash where the simulator's REPL mounts a development flash.
        self.root = "/flash/" if _exists("/flash/board.json") else "/"
        import machine

        self.wdt = None
        try:
            self.wdt = machine.WDT(timeout=WDT_MS)
        except Exception:  # a port without one
            pass
        gc.collect()
        self.base = gc.mem_alloc()  # this script's own share, before the app
        import assemble
        import board
        from clock import DeviceClock
        from store.fsys import Disk

        scratch = self.root + SCRATCH
        _rmtree(scratch)  # what an interrupted calibration left
        os.mkdir(scratch)
        profile = board.load_profile(self.root + "board.json")
        self.name = profile.get("name", "")
        self.clock = DeviceClock()
        runner = assemble.assemble(machine, profile, self.clock, lambda hw: None, None, "calibrate",
                                   None, False, self._log, Disk(None, scratch + "/data"))
        self.app = runner.app
        self.errors = 0
        self.begin("start")

    def _log(self, err):
        self.errors += 1
        sys.print_exception(err)

    def begin(self, name):
        self.scenario = name
        self.keys = 0
        self.peak = 0
        self.free_at_peak = 0
        self.stack = 0
        self.worst_us = 0
        self.counts = [0] * 100  # keys by whole ms from the key to the drawn screen (99: 99 or more)
        self.t0 = time.ticks_ms()
        self.sample()

    def sample(self):
        if self.wdt is not None:
            self.wdt.feed()
        gc.collect()
        used = gc.mem_alloc()
        if used > self.peak:
            self.peak = used
            self.free_at_peak = gc.mem_free()
        stack = micropython.stack_use()
        if stack > self.stack:
            self.stack = stack

    def press(self, name):
        app = self.app
        t = time.ticks_us()
        app.key(name)
        app.tick()
        app.render()
        us = time.ticks_diff(time.ticks_us(), t)
        self.keys += 1
        self.counts[min(us // 1000, 99)] += 1
        if us > self.worst_us:
            self.worst_us = us
        self.sample()

    def wait(self, ms):
        end = time.ticks_add(time.ticks_ms(), ms)
        next_sample = 0
        while time.ticks_diff(end, time.ticks_ms()) > 0:
            self.app.tick()
            self.app.render()
            next_sample += 10
            if next_sample >= 100:
                next_sample = 0
                self.sample()
            time.sleep_ms(10)

    def play(self, keys):
        for token in keys.split():
            if token.startswith("wait:"):
                self.wait(int(token[5:]))
            else:
                self.press(token)

    def _percentile(self, p):
        if not self.keys:
            return 0
        want = (self.keys * p + 99) // 100
        seen = 0
        for ms in range(100):
            seen += self.counts[ms]
            if seen >= max(want, 1):
                return ms
        return 99

    def end(self):
        idf = None
        try:
            import esp32

            heaps = esp32.idf_heap_info(esp32.HEAP_DATA)
            idf = [sum(h[1] for h in heaps), max(h[2] for h in heaps), sum(h[3] for h in heaps)]
        except Exception:  # not an ESP32 (the simulator)
            pass
        game = self.app.session.game
        row = {"scenario": self.scenario, "board": self.name, "keys": self.keys, "peak": self.peak,
               "free_at_peak": self.free_at_peak, "heap": gc.mem_alloc() + gc.mem_free(), "base": self.base,
               "stack": self.stack, "idf": idf, "median_ms": self._percentile(50),
               "p95_ms": self._percentile(95), "worst_ms": self.worst_us // 1000, "errors": self.errors,
               "seconds": time.ticks_diff(time.ticks_ms(), self.t0) // 1000,
               "rounds": len(game.rounds) if game is not None else None,
               "platform": sys.platform, "version": sys.implementation.version[:3]}
        print(MARK, json.dumps(row))
        micropython.mem_info()

    def close(self):
        """Removes the scratch store (the next boot is the table's again)."""
        self.app = None
        _rmtree(self.root + SCRATCH)
        print(MARK + "-DONE")
