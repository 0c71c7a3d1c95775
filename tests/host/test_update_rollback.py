# A broken new version rolls back by itself, end to end in the simulator: version N installed
# (sim/install.py), a game played, then `tafel update` over the pseudo-terminal to N+1 built to
# raise on import or to hang before it confirms itself. Nothing else is done: the simulated
# watchdog (sim/simwdt.py; its trial timeout shortened to TRIAL_WDT_MS, the mechanism the same)
# resets each trial boot, bootsel.py counts them, and after 3 the device is back on N by itself:
# its screen says the update was rolled back, `tafel info` reports N, the game is as it was, and a
# good N+2 still updates.
import functools
import shutil
import subprocess
import threading

import pytest

from simlink import ROOT
from tafel_host import bundle_build, keys, update_client
from tafel_host.cli import main
from tafel_host.link_client import Link
from tafel_host.sim import (DEFAULT_BOARD, auto_command, find_board, find_micropython, find_run_py,
                            follow_real_time, parse_script, run_script)
from tafel_host.sim_device import SimDevice
from tafel_host.sim_serial import SimSerial
from simupdate import GAME, install

TRIAL_WDT_MS = 2500  # the device's 60 s, shortened: a start under load must still feed in time
BACK_WAIT = 1.0  # seconds tafel update waits for the new version to answer (it never will)
ROLLED = "Update zurückgen"  # the old version's note, "Update zurückgenommen", as the 16 columns show it
N, GOOD = "0.8.0", "0.10.0"
# Broken builds: (version, source file, what is done to it)
RAISES = ("0.9.0", "firmware/ui/app.py", lambda text: text + "\nfrom ui.missing import Screen  # left out of the build\n")
HANGS = ("0.9.1", "firmware/startup.py",
         lambda text: text.replace('    notes = store.boot()\n', '    while True:  # stuck before the UI is up\n        pass\n'
                                   '    notes = store.boot()\n'))


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
    s.bundles = {N: bundle(s, N), GOOD: bundle(s, GOOD)}
    for version, path, change in (RAISES, HANGS):
        s.bundles[version] = bundle(s, version, path, change)
    return s


def bundle(s, version, broken=None, change=None):
    """A bundle of this checkout as `version`; with `broken`, that source file changed first."""
    root = s.dir / ("src-" + version)
    shutil.copytree(ROOT / "firmware", root / "firmware", ignore=shutil.ignore_patterns("__pycache__", "sim"))
    shutil.copytree(ROOT / "lib" / "tafel", root / "lib" / "tafel", ignore=shutil.ignore_patterns("__pycache__"))
    if broken:
        target = root / broken
        changed = change(target.read_text())
        assert changed != target.read_text()
        target.write_text(changed)
    files, mpy = bundle_build.compile_tree(s.mpy_cross, root, version, s.store)
    path = s.dir / ("tafel-%s.bundle" % version)
    path.write_bytes(bundle_build.pack(files, version, s.key, mpy))
    return path


class Live:
    """The simulated device with its USB serial on a pseudo-terminal and its time following real
    time (as `tafel sim --stay`), keeping the screen of every boot as it comes up."""

    def __init__(self, flash):
        self.serial = SimSerial()
        command = auto_command(find_run_py(), flash, find_board(DEFAULT_BOARD))
        self.device = SimDevice(command + self.serial.device_args() + ["--trial-wdt-ms", str(TRIAL_WDT_MS)])
        self.port = self.serial.path
        self.boots = []  # (resets so far, the screen's text rows) of each boot
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
        if len(self.boots) < self.device.starts:  # a boot since the last look: its first screen
            with self.booted:
                self.boots.append((self.device.resets, self.device.snap().text))
                self.booted.notify_all()

    def wait_for_boot(self, check, timeout):
        with self.booted:
            assert self.booted.wait_for(lambda: any(check(*boot) for boot in self.boots), timeout), self.boots

    def close(self):
        self.stop.set()
        if self.thread is not None:
            self.thread.join(30)
        self.device.close()
        self.serial.close()


def games(port):
    link = Link.open(port)
    try:
        return link.games()
    finally:
        link.bye()
        link.close()


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


def rolls_back(setup, broken, flash, monkeypatch, capsys):
    install(setup, flash, N)
    live = Live(flash)
    try:
        live.play(GAME)
        live.run()
        before = games(live.port)
        assert len(before) == 1 and before[0]["rounds"] == 1
        # The new version never answers: tafel update gives up waiting for it sooner than its 20 s.
        monkeypatch.setattr(update_client, "back_again", functools.partial(update_client.back_again, timeout=BACK_WAIT))
        assert main(["update", "--port", live.port, str(setup.bundles[broken])]) == 0
        assert "staged and checked %s" % broken in capsys.readouterr().out
        # Three trial boots of the broken version, each ended by the watchdog; then N, saying so.
        live.wait_for_boot(lambda resets, text: ROLLED in "\n".join(text), timeout=60)
        assert [resets for resets, text in live.boots if ROLLED in "\n".join(text)] == [3]
        assert main(["info", "--port", live.port]) == 0
        assert "firmware %s" % N in capsys.readouterr().out
        assert games(live.port) == before
        assert main(["update", "--port", live.port, str(setup.bundles[GOOD])]) == 0
        assert "the device restarted and runs %s" % GOOD in capsys.readouterr().out
        assert games(live.port) == before
        assert live.device.resets == 3  # the good version confirmed itself and feeds its watchdog
    finally:
        live.close()
    # three updates and a rollback later, the boot files are still the ones installed first
    assert boot_files(flash) == [(ROOT / "firmware" / name).read_text() for name in ("boot.py", "bootsel.py")]


def test_a_version_that_raises_on_import_rolls_back_by_itself(setup, monkeypatch, capsys):
    rolls_back(setup, RAISES[0], setup.dir / "flash-raises.img", monkeypatch, capsys)


def test_a_version_that_hangs_before_confirming_rolls_back_by_itself(setup, monkeypatch, capsys):
    rolls_back(setup, HANGS[0], setup.dir / "flash-hangs.img", monkeypatch, capsys)
