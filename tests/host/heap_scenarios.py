# What the device must do within its heap, played on the virtual chip (the 32-bit device build) in a chosen heap.
#
#   sc = Scenarios(tmp_dir)                              # test keys, signed versions, flash images (made once)
#   result = sc.run("evening", board, heap)              # one area of `heap` bytes: the bisection's terms
#   result = sc.run("wifi", board, heap, "esp32")        # the board's heap: growing from the modelled ESP-IDF heap
#   result.ok, result.why, result.peak, result.stack ... # Result below
#
# Each scenario is a whole piece of an evening at the table, played by keys on
# the firmware frozen into the 32-bit unix build of the MicroPython the ESP32
# runs (firmware/port/unix/build.sh frozen), the application deployed as the
# image ships it, the board around the chip in this process (simboard), so
# the chip's heap holds the firmware and what MicroPython's C allocates for it:
#   evening  10 seats typed with multi-tap, 300 rounds by keys, an edit of a past
#            round, an undo, the game ended (game over), a second game of three
#   tour     a game of three with the table view, the language switched both ways
#            during it and after it ends, display sleep and contrast changed, the
#            rules pages, the card values, the history (opened, scrolled, the game
#            deleted): every short flow of docs/design.md section 8
#   export   `tafel export` of 100 stored games over the simulated USB serial
#   usb      `tafel update` of a signed version over the USB serial; the new
#            version runs (laid over the image) and keeps the game
#            (both: the laptop's commands in this process on a serial in step
#            with the device's time, tests/host/lockstep.py, so every run of
#            the same tree sends the same bytes at the same steps)
#   wifi     the same update fetched over Wi-Fi from `tafel serve-update`, the
#            station and its sockets taking their share of ESP-IDF's heap
#   club     a club evening's table: paired by `tafel club pair` over the USB serial, Wi-Fi
#            on, the organiser's round (`tafel club round`, six players) offered on home and
#            started there, reported round by round to `tafel club serve` (its broker
#            built in, a process of its own); the hub killed and started again mid-game,
#            later away for ten minutes of the table's time while four rounds are played;
#            every record in the hub's database at the end, in order
#            (the table's time follows the laptop's while it waits on the hub: the hub is
#            a real one, so two runs differ in when its bytes come; the other scenarios
#            are the same run for run)
# A scenario fails on a MemoryError anywhere in the device's log, a screen that is
# not the one expected, a halted device, or a host command that does not succeed.
# bench/device_heap.py searches the smallest heap for each; tests/host/test_heap_gate*.py
# are the gates at the budget.
import io
import json
import os
import re
import subprocess
import sys
import threading
from collections import namedtuple
from pathlib import Path

from lockstep import Lockstep
from simlink import ROOT
from simupdate import install, signed_versions
from tafel_host.hardware.heap_keys import (  # noqa: F401 (used by gates)
    CLUB_PLAYERS,
    CLUB_SEATS,
    CLUB_WLAN,
    GAME_KEYS,
    NAMES,
    ROUNDS,
    evening_keys,
    round_keys,
    tour_keys,
)
from tafel_host.sim import runtime as sim_runtime
from tafel_host.sim.device import SimDevice, SimError
from tafel_host.update import serve as serve_update

BOARDS = ("esp32-devkitc-ssd1306", "lilygo-tdisplay-st7789", "esp32-devkitc-ili9341")
BOARD = BOARDS[0]
# Every run's device is the same one (by default the simulator names it after its flash file's path):
# its id is in the chip's heap and in what the link says, so a different one moves the figures.
# As long as an ESP32's ("esp32-" and its MAC's 12 hex digits).
DEVICE_ID = "sim-00000000c0ffee"
RUN_PY = ROOT / "firmware" / "sim" / "run.py"
# The chip's random numbers from a fixed seed (the index's epoch is drawn at random; its digits
# are in the flash's CRCs, which seed LittleFS's block allocator): on the device build, every run
# of the same tree writes the same flash (firmware/port/unix/tafel/simtime.c; its clock is the
# simulated time since power-up, so the files' time stamps are the same too).
CHIP_ENV = {"TAFEL_CHIP_SEED": "1"}
SCENARIOS = ("evening", "tour", "export", "usb", "wifi", "club")
LONG = ("evening", "export", "usb", "wifi", "club")  # the gate plays these on one board, the tour on every board

# ok, why; the heap's peak after a collection at every step, the largest free block then and the
# areas then; the deepest C stack; ESP-IDF's heap at the end: free, largest block, least ever free
Result = namedtuple("Result", "ok why peak largest areas stack idf_free idf_largest idf_least")


def device_build():
    return sim_runtime.device_build(ROOT)


def mpy_build():
    """The 32-bit build without the application frozen in (firmware/port/unix/build.sh mpy), or None."""
    path = ROOT / sim_runtime.MPY_BUILD
    return path if path.is_file() else None


def board_path(board):
    return ROOT / "hardware" / "boards" / (board + ".json")


class Scenarios:
    def __init__(self, folder):
        self.dir = Path(folder)
        self.dir.mkdir(parents=True, exist_ok=True)
        self._signed = None
        self._games = None
        self._lock = threading.Lock()
        self._runs = 0

    # ---- what the scenarios start from ---------------------------------------------------

    def signed(self):
        with self._lock:
            if self._signed is None:
                self._signed = signed_versions(self.dir, ("0.8.0", "0.9.0"), seed=b"tafel heap scenarios")
        return self._signed

    def mpy_app(self):
        """The application compiled as a bundle carries it, in a folder: the .mpy deployment."""
        folder = self.dir / "app-mpy"
        if not folder.is_dir():
            from tafel_host.update import bundle_build

            files, _ = bundle_build.compile_tree(bundle_build.find_mpy_cross())
            for path, data in files:
                (folder / path).parent.mkdir(parents=True, exist_ok=True)
                (folder / path).write_bytes(data)
        return folder

    def installed(self, name):
        """A flash image with 0.8.0 installed (signed with the test key)."""
        flash = self.dir / (name + ".img")
        flash.unlink(missing_ok=True)
        install(self.signed(), flash, "0.8.0", micropython=device_build())
        return flash

    def hundred_games(self):
        """A flash image with 100 finished games, made once by key script: on the device build,
        the same image byte for byte in every run (CHIP_ENV); on the host port where it is missing."""
        with self._lock:
            if self._games is None:
                import sim_games

                path = self.dir / "games-100.img"
                script = self.dir / "games-100.txt"
                script.write_text(sim_games.script(sim_games.plan(100, target=200)))
                runtime = "host" if device_build() is None else "device"
                done = subprocess.run([sys.executable, "-m", "tafel_host.cli", "sim", "--script", str(script),
                                       "--flash", str(path), "--runtime", runtime], capture_output=True, text=True,
                                      env=dict(os.environ, **CHIP_ENV))
                assert done.returncode == 0, done.stderr
                self._games = path
        return self._games

    # ---- one run ---------------------------------------------------------------------------

    def command(self, name, board, heap, system=None, kind="device", flash=None):
        """The chip's command line for a run (kind: "device", "mpy" or "host")."""
        return self._command(board, heap, system, kind, flash) + ["--device-id", DEVICE_ID]

    def _command(self, board, heap, system, kind, flash):
        path = board_path(board)
        if kind == "host":
            from tafel_host.sim.launcher import find_micropython

            runtime = sim_runtime.Runtime("host", find_micropython(), heap, None, "")
            return sim_runtime.command(runtime, RUN_PY, flash, path)
        if kind == "mpy":  # the 32-bit build without the app frozen in, the app as .mpy files
            runtime = sim_runtime.Runtime("host", mpy_build(), heap, None, "")
            # --firmware: the checkout's (the boot files, main.py), which the build's frozen sim/ cannot find by
            # its own __file__ as the sources' run.py does
            return sim_runtime.command(runtime, RUN_PY, flash, path) + [
                "--app", str(self.mpy_app()), "--firmware", str(ROOT / "firmware")] + (["--system-heap", str(system)] if system else [])
        runtime = sim_runtime.Runtime("device", device_build(), heap, system, "")
        return sim_runtime.command(runtime, RUN_PY, flash, path)

    def run(self, name, board, heap, system=None, kind="device", watch=True):
        """Play scenario `name` on `board` in a heap whose first area is `heap` bytes, growing from
        `system` (None: not at all; "esp32": the modelled ESP-IDF heap). kind "host": the PyPI
        port (64-bit, the app from source; no figures but ok/why); "mpy": the 32-bit build without
        the app frozen in. watch: sample the heap at every step (slower). Runs may go in parallel
        (threads): each has its own flash image and files."""
        with self._lock:
            self._runs += 1
            tag = "%s-%s-%d" % (name, board, self._runs)
        flash = {"evening": lambda: self._fresh(tag), "tour": lambda: self._fresh(tag),
                 "export": lambda: self._copy_games(tag),
                 "usb": lambda: self.installed(tag), "wifi": lambda: self.installed(tag),
                 "club": lambda: self._fresh(tag)}[name]()
        command = self.command(name, board, heap, system, kind, flash)
        if watch and kind != "host":
            command += ["--heap-watch", "1"]
        serial = Lockstep() if name in ("export", "usb", "club") else None
        if serial is not None:
            command += serial.device_args()
        log = io.StringIO()
        dev = SimDevice(command, log=log, env=CHIP_ENV)
        why = None
        try:
            dev.start()
            if serial is not None:
                serial.attach(dev)
            why = getattr(self, "_" + name)(dev, serial, tag)
        except (SimError, AssertionError) as err:
            why = str(err) or type(err).__name__
        finally:
            dev.close()
            if serial is not None:
                serial.close()
        return _result(why, log.getvalue())

    def idle(self, board, flow=None, heap=56 * 1024):
        """The heap the simulator itself holds on the chip, the firmware replaced by nothing, with
        the stand-ins `flow` adds (export, usb: the USB serial's; wifi: the station's and its
        sockets'): (bytes in use then, bytes in use at the same build's bare start). Not counted
        in use: the link's transport the USB serial's stand-in is given ("heap-app"), which the
        application makes on the chip too (firmware/assemble.py), the same object."""
        flash = self._fresh("idle-%s-%s" % (board, flow))
        log = io.StringIO()
        command = self.command("idle", board, heap, None, "device", flash)
        serial = Lockstep() if flow in ("export", "usb") else None
        command += ["--idle", "wifi" if flow == "wifi" else "1"] + (serial.device_args() if serial else [])
        dev = SimDevice(command, log=log, env=CHIP_ENV)
        try:
            dev.start()
        finally:
            dev.close()
            if serial is not None:
                serial.close()
        found = re.search(r"heap-idle (\d+)", log.getvalue())
        app = re.search(r"heap-app (\d+)", log.getvalue())
        bare = subprocess.run([str(device_build()), "-X", "heapsize=%d" % heap, "-c",
                               "import gc; gc.collect(); print(gc.mem_alloc())"], capture_output=True, text=True)
        held = int(found.group(1)) - (int(app.group(1)) if app else 0) if found else None
        return held, int(bare.stdout)

    def _fresh(self, name):
        flash = self.dir / (name + ".img")
        flash.unlink(missing_ok=True)
        return flash

    def _copy_games(self, tag):
        flash = self.dir / (tag + ".img")
        flash.write_bytes(self.hundred_games().read_bytes())
        return flash

    # ---- the scenarios -------------------------------------------------------------------

    def _evening(self, dev, serial, tag):
        return _checked(dev, evening_keys())

    def _tour(self, dev, serial, tag):
        return _checked(dev, tour_keys())

    def _export(self, dev, serial, tag):
        out = self.dir / (tag + ".json")
        code, said = serial.run(["export", "-o", str(out)])
        if code != 0:
            return "tafel export: exit %d: %s" % (code, said[-300:])
        games = json.loads(out.read_text())["games"]
        return None if len(games) == 100 else "exported %d games, not 100" % len(games)

    def _usb(self, dev, serial, tag):
        _play(dev, GAME_KEYS)
        code, said = serial.run(["update", str(self.signed().bundles["0.9.0"])])
        if code != 0:
            return "tafel update: exit %d: %s" % (code, said[-300:])
        return _about_says(dev, "0.9.0")

    def _wifi(self, dev, serial, tag):
        offer = serve_update.check(self.signed().bundles["0.9.0"], [self.signed().public])
        server = serve_update.Server(offer, "127.0.0.1", 0, discovery_port=0, log=lambda text: None).start()
        try:
            _play(dev, GAME_KEYS)
            address = " ".join("127A0A0A1B%d" % server.port)
            _play(dev, WLAN % address)
            _play(dev, "D # wait:500 # wait:3000")
            for _ in range(60):  # the fetch, the check, the restart: simulated seconds
                _play(dev, "wait:1000")
        finally:
            server.stop()
        return _about_says(dev, "0.9.0")


    def _club(self, dev, serial, tag):
        import club_wire

        db = self.dir / (tag + ".sqlite3")
        port = club_wire.free_port()
        _play(dev, CLUB_WLAN)
        code, said = serial.run(["club", "pair", "--hub", "127.0.0.1:%d" % port, "--table", "1", "--club",
                                 "heapclub", "--db", str(db)], at=2)
        if code != 0:
            return "tafel club pair: exit %d: %s" % (code, said[-300:])
        device = _one(db, "SELECT id FROM club_devices")
        hub = None
        try:
            # the organiser draws the evening's first round (`tafel club round`); the table offers it
            # on home and 0 # starts it
            hub, _ = club_wire._on_a_free_port(lambda at: club_wire.hub(
                db, "--listen", "127.0.0.1:%d" % at, "--password", "heap"), "ready", "cannot listen", port)
            http = re.search(r"live board: http://[^:]+:(\d+)/", hub.lines[hub.wait_for("live board: http://")])
            drawn = subprocess.run([sys.executable, "-m", "tafel_host.cli", "club", "round", "--players",
                                    ",".join(CLUB_PLAYERS), "--tables", "1", "--target", "99999", "--hub",
                                    "127.0.0.1:%s" % http.group(1), "--password", "heap"],
                                   capture_output=True, text=True)
            if drawn.returncode != 0:
                return "tafel club round: exit %d: %s" % (drawn.returncode, drawn.stderr[-300:])
            why = _until(dev, lambda: dev.snap().text[-1].startswith("0=Turnier R1"), "the round offered on home")
            if why:
                return why
            _play(dev, "0 #")
            seed = 4242
            played = 0

            def rounds(count, between=None):
                nonlocal seed, played
                for _ in range(count):
                    keys, seed = round_keys(played, CLUB_SEATS, seed)
                    _play(dev, ("" if played == 0 else "# ") + keys + (" wait:%d" % between if between else ""))
                    played += 1

            def stored():
                return _one(db, "SELECT count(*) FROM club_records WHERE device = ?", device)

            rounds(12)
            why = _until(dev, lambda: stored() == 1 + played, "the first rounds at the hub")
            if why:
                return why
            hub.kill()  # the hub and its broker gone at once, and back: the table reconnects, sends what is owed
            hub, _ = club_wire.hub_listening(db, port)
            rounds(12)
            why = _until(dev, lambda: stored() == 1 + played, "the rounds after the hub's restart")
            if why:
                return why
            hub.kill()  # away for ten minutes of the table's time: four rounds, one every 2.5 minutes
            hub = None
            rounds(4, 150000)
            hub, _ = club_wire.hub_listening(db, port)
            _play(dev, "wait:60000")  # its next try within its longest backoff, a minute
            rounds(12)
            why = _until(dev, lambda: stored() == 1 + played, "the rounds played while the hub was away")
            if why:
                return why
            seqs = [s for s, in _all(db, "SELECT seq FROM club_records WHERE device = ? ORDER BY seq", device)]
            if seqs != list(range(1 + played)):
                return "the hub stored records %r, not 0 to %d" % (seqs, played)
            refused = _all(db, "SELECT reason, detail FROM club_rejections WHERE reason != ?", "duplicate")
            return "the hub refused %r" % refused if refused else None  # a record sent again before its ACK came: stored once
        finally:
            if hub is not None:
                hub.stop()


def _one(db, query, *args):
    rows = _all(db, query, *args)
    return rows[0][0] if rows else None


def _all(db, query, *args):
    import sqlite3

    con = sqlite3.connect(str(db))
    try:
        return con.execute(query, args).fetchall()
    finally:
        con.close()


def _until(dev, done, what, timeout=60.0):
    """Let the table run as the laptop's clock goes until done(): None, or why not (a MemoryError in
    its log, or `what` not within `timeout` s)."""
    import time

    at = time.monotonic()
    end = at + timeout
    while not done():
        now = time.monotonic()
        if now > end:
            return "%s: not within %.0f s" % (what, timeout)
        if "MemoryError" in dev.log.getvalue():
            return None  # _result says it
        threading.Event().wait(0.02)  # the hub's turn (a process of its own)
        dev.wait(max(10, int((time.monotonic() - at) * 1000)))
        at = now
    return None


def _result(why, text):
    if why is None and "MemoryError" in text:
        why = "MemoryError: " + text[text.index("MemoryError"):][:200]
    if why is None and "maximum recursion depth" in text:
        why = "the C stack ran out: " + text[text.index("maximum recursion depth"):][:200]
    best = [0, 0, 0, 0, -1, -1, -1]
    for line in text.splitlines():  # one line per start of the device (an update restarts it)
        if line.startswith("heap-watch "):
            seen = [int(x) for x in line.split()[1:8]]
            if seen[0] > best[0]:
                best[:3] = seen[:3]
            best[3] = max(best[3], seen[3])
            least = best[6]
            best[4:6] = seen[4:6]  # ESP-IDF's heap at the end: as the last start left it
            best[6] = seen[6] if least < 0 else min(least, seen[6])  # the least of every start
    return Result(why is None, why, *best)


def _checked(dev, steps):
    for keys, check in steps:
        _play(dev, keys)
        if check is not None:
            text = dev.snap().text
            if not text or not check(text):  # no text: a halted device shows none
                return "after %r the screen shows %r" % (keys[-40:], text)
    return None


# From the standings: home, settings, WLAN, network name, password, the server's address.
WLAN = "* 4 C C C # 8 2 3 3 3 wait:1200 3 3 5 5 5 # 4 3 3 4 4 wait:1200 3 3 4 4 4 6 # %s #"


def _play(dev, keys):
    for token in keys.split():
        if token.startswith("wait:"):
            dev.wait(int(token[5:]))
        else:
            dev.key(token)


def _about_says(dev, version):
    text = dev.snap().text
    for _ in range(6):  # back to home, whatever screen: * until it is there
        if any(row.startswith("Tafel") or "Neues Spiel" in row for row in text):
            break
        _play(dev, "* wait:100")
        text = dev.snap().text
    _play(dev, "C #")  # home: the last entry is "Info"
    text = dev.snap().text
    shown = [row.split()[-1] for row in text if row.startswith("Version")]
    return None if shown == [version] else "the About screen shows %r, not version %s" % (text, version)
