# A device whose flash does not mount, end to end in the simulator: the recovery screen, the laptop reads the raw flash.
#
# An evening is played by key script on the simulator's flash image; then
# blocks 0 and 1 (LittleFS's superblock pair, the root) are erased, as the
# issue's damage left them, and the device powers on. It boots into recovery
# mode (firmware/recovery/, the same code the chip's _boot.py runs), says so
# on screen, answers `tafel info` as a device in recovery, and hands the raw
# flash to read_flash() byte for byte, and to `tafel rescue --port`, which
# rebuilds the games from it. Then C and # on the device format it, and the
# next boot is an empty device that works. The serial is a pseudo-terminal at
# a fast line rate (the figure at 115200 baud is bench/flash_read_speed.py's).
import json
import os
import shutil
import threading

import pytest

import sim_games
from needs import POSIX, needs
from simlink import ROOT, play
from tafel_host.cli import main
from tafel_host.link.client import Link
from tafel_host.rescue.cli import rescue_image
from tafel_host.rescue.link import read_flash
from tafel_host.sim.device import SimDevice
from tafel_host.sim.launcher import DEFAULT_BOARD, auto_command, find_board, find_run_py, follow_real_time
from tafel_host.sim.serial import SimSerial

pytestmark = [
    needs(POSIX, "pseudo-terminals", "the simulator's serial is one: run it on Linux or macOS"),
]

BAUD = 460800
RUNNING = "1 D D # # 2 6 6 wait:1200 6 6 2 # # # 2 2 3 3 6 6 # D # A D 5 # #\n"  # a fourth game, one round
RECOVERY_SCREEN = ["Flash-Fehler", "Speicher defekt", "4 Spiele da", "Spiele retten:", "am Laptop", "tafel rescue",
                   "", "C = formatieren"]


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """(the damaged flash image, its bytes): three finished games and a running one, root erased."""
    tmp = tmp_path_factory.mktemp("evening")
    script = tmp / "evening.txt"
    script.write_text(sim_games.script(sim_games.plan(3, target=100)) + RUNNING)
    flash = tmp / "flash.img"
    play(script, flash)
    with open(flash, "r+b") as f:
        f.write(b"\xff" * 8192)  # blocks 0 and 1
    return flash, flash.read_bytes()


class Running:
    """The simulated device on a pseudo-terminal, its time following real time while `live`."""

    def __init__(self, flash, log):
        self.serial = SimSerial(BAUD)
        command = auto_command(find_run_py(), flash, find_board(DEFAULT_BOARD))
        self.device = SimDevice(command + self.serial.device_args(), log=log)
        self.port = self.serial.path
        self.device.start()
        self.stop = self.thread = None

    def live(self):
        self.stop = threading.Event()
        self.thread = threading.Thread(target=follow_real_time, args=(self.device, self.stop), daemon=True)
        self.thread.start()

    def still(self):
        """Time stands still again: keys can be pressed (the launcher speaks to one caller at a time)."""
        self.stop.set()
        self.thread.join(30)

    def screen(self):
        return self.device.snap().text

    def close(self):
        if self.thread is not None and self.thread.is_alive():
            self.still()
        self.device.close()
        self.serial.close()


def test_a_flash_that_does_not_mount_is_read_whole_over_usb_then_formatted_on_the_device(evening, tmp_path, data_home,
                                                                                           capsys):
    image, before = evening
    flash = tmp_path / "flash.img"
    shutil.copyfile(image, flash)
    with open(tmp_path / "device.log", "w") as log:
        dev = Running(flash, log)
        try:
            assert dev.screen()[:8] == RECOVERY_SCREEN
            dev.live()
            assert main(["info", "--port", dev.port]) == 0
            out = capsys.readouterr().out
            assert "recovery mode: its file system does not mount, while the raw flash holds 4 games" in out
            link = Link.open(dev.port, BAUD)
            try:
                assert link.hello["mode"] == "recovery"
                assert read_flash(link) == before == flash.read_bytes()  # byte for byte, nothing written
                link.bye()
            finally:
                link.close()
            saved = tmp_path / "saved.img"
            assert main(["rescue", "--port", dev.port, "--baud", str(BAUD), "--save-image", str(saved),
                         "-o", str(tmp_path / "rescued.json")]) == 0
            out = capsys.readouterr().out
            assert saved.read_bytes() == before
            doc = json.loads((tmp_path / "rescued.json").read_text())
            assert len(doc["games"]) == 4 and doc["device"]["id"].startswith("sim-")
            dev.still()
            assert dev.screen()[6] == "Flash gelesen"
            dev.device.key("C")
            assert "Nicht gerettet!" not in dev.screen() and dev.screen()[7] == "# = Ja  * = Nein"
            dev.device.key("#")  # erase, format, reset: the next boot is an empty device
            assert dev.device.restarts == 1
            assert dev.screen()[0].startswith("Tafel")
            dev.live()
            assert main(["info", "--port", dev.port]) == 0
            assert "games    0 stored" in capsys.readouterr().out
        finally:
            dev.close()
    doc, report, code = rescue_image(flash.read_bytes())
    assert doc["games"] == [] and code == 1, report  # not one old record left anywhere on the flash


MPY_SRC = ROOT / "build" / "micropython-1.28.0"


@needs((MPY_SRC / "tools" / "manifestfile.py").is_file(), "MicroPython's unpacked sources", "make device-build")
def test_the_esp32_image_boots_by_our_rules_and_never_by_stocks():
    # What MicroPython's own manifest tool collects for the Tafel board: one _boot.py, ours (two of
    # one name would not both freeze), no inisetup (stock's formatting first-boot setup), bootsel.py
    # as the fallback recovery's format relies on, recovery mode itself, never boot.py or main.py.
    import sys

    sys.path.insert(0, str(MPY_SRC / "tools"))
    try:
        import manifestfile
    finally:
        sys.path.pop(0)
    cwd = os.getcwd()
    try:
        m = manifestfile.ManifestFile(manifestfile.MODE_FREEZE, {
            "MPY_DIR": str(MPY_SRC), "PORT_DIR": str(MPY_SRC / "ports" / "esp32"),
            "BOARD_DIR": str(ROOT / "firmware" / "port" / "boards" / "TAFEL_ESP32"),
            "MPY_LIB_DIR": str(MPY_SRC / "lib" / "micropython-lib")})
        m.execute(str(ROOT / "firmware" / "port" / "boards" / "TAFEL_ESP32" / "manifest.py"))
    finally:
        os.chdir(cwd)  # the tool changes folder into each manifest it includes
    frozen = {}
    for f in m.files():
        frozen.setdefault(f.target_path, []).append(f.full_path)
    assert frozen["_boot.py"] == [str(ROOT / "firmware" / "port" / "_boot.py")]
    assert frozen["bootsel.py"] == [str(ROOT / "firmware" / "bootsel.py")]
    assert "recovery/boot.py" in frozen and "store/mount.py" in frozen and "flashbdev.py" in frozen
    assert not {"inisetup.py", "boot.py", "main.py"} & set(frozen)
    assert all(len(paths) == 1 for paths in frozen.values())
