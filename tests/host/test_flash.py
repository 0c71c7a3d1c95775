# tafel flash, the first install: the mpremote half for real against the simulator's REPL, the esptool half
# by the commands it builds (no ESP32 here) and by esptool failing on a port where no chip answers.
#
# The simulated board starts as a blank one does after esptool: the simulator runs this checkout flat
# (no /app on its flash), with a game in /data. `tafel flash --skip-esptool` installs a bundle signed
# with a key made here (its trust store is the one the bundle carries), reboots the board into it and
# checks the handshake; then the simulator is started afresh on the same flash image.
import hashlib
import json
import os
import subprocess
import sys

import pytest

from needs import POSIX, needs
from simlink import ROOT, SimPort, play
from tafel_host.cli import main
from tafel_host.link.client import Link
from tafel_host.sim.launcher import DEFAULT_BOARD, device_runtime, find_board, find_micropython
from tafel_host.update import bundle_build, keys
from tafel_host.update.flash import CHIPS, esptool_commands

pytestmark = [
    needs(POSIX, "pseudo-terminals", "the simulator's serial is one: run it on Linux or macOS"),
]

VERSION = "7.7.7"  # not the checkout's: the handshake tells the installed app from the flat one
GAME = ("1 D D\n# # 2 6 6 wait:1200 6 6 2 #\n# # 2 2 3 3 6 6 #\n# # 2 2 2 5 5 5 3 3 6 6 6 #\n"
        "D #\nA D 3 6 D 5 0 B 3 # #\n")  # Anna, Ben, Cleo; the worked example's round saved
BOARD = ROOT / "hardware" / "boards" / "esp32-devkitc-ssd1306.json"

# Every file in a simulator flash image with its SHA-256, read on the unix port (the image is LittleFS).
LIST_FILES = """import sys, hashlib, binascii, vfs
sys.path.insert(0, %r)
from sim.flashdev import FlashDev
vol = vfs.VfsLfs2(FlashDev(path=sys.argv[1]))
def walk(top):
    for e in vol.ilistdir(top):
        p = top + '/' + e[0]
        if e[1] == 0x4000:
            walk(p)
        else:
            with vol.open(p, 'rb') as f:
                print(p[1:], binascii.hexlify(hashlib.sha256(f.read()).digest()).decode())
walk('')
""" % str(ROOT / "firmware")


def image_files(flash):
    done = subprocess.run([str(find_micropython()), "-X", "heapsize=8M", "-c", LIST_FILES, str(flash)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return dict(line.split(" ") for line in done.stdout.splitlines())


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Setup:
    pass


@pytest.fixture(scope="module")
def s(tmp_path_factory):
    s = Setup()
    s.dir = tmp_path_factory.mktemp("flash")
    s.store = s.dir / "trusted.py"
    s.store.write_text((ROOT / "firmware" / "update" / "trusted.py").read_text())
    key, _, public = keys.generate(s.dir / "keys")
    keys.add_to_trust_store(s.store, public, "test")
    s.bundle = s.dir / "tafel.bundle"
    s.manifest = bundle_build.build(s.bundle, key, VERSION, trust_store=s.store).manifest
    s.image = s.dir / "micropython.bin"
    s.image.write_bytes(b"\xe9" + bytes(4095))  # an ESP image's first byte, for the checks before esptool
    s.empty = s.dir / "empty.txt"
    s.empty.write_text("\n")
    # the board: the checkout's firmware flat, a game on its flash
    s.flash = s.dir / "flash.img"
    game = s.dir / "game.txt"
    game.write_text(GAME)
    play(game, s.flash)
    s.before = image_files(s.flash)
    with SimPort(s.empty, s.flash, s.dir) as sim:
        link = Link.open(sim.port)
        s.flat_version = link.hello["fw"]
        s.games = link.games()
        link.bye()
        link.close()
        s.code = main(["flash", "--skip-esptool", "--port", sim.port, "--bundle", str(s.bundle),
                       "--trust-store", str(s.store)])
    s.after = image_files(s.flash)
    return s


def flash_args(s, *more):
    return ["flash", "--bundle", str(s.bundle), "--trust-store", str(s.store), *more]


def test_the_installed_bundle_answers_after_the_reboot_and_after_a_fresh_start(s):
    assert s.flat_version != VERSION
    assert s.code == 0  # tafel flash saw the handshake of VERSION after its soft reboot
    with SimPort(s.empty, s.flash, s.dir) as sim:
        link = Link.open(sim.port)
        assert link.hello["fw"] == VERSION
        assert link.games() == s.games
        link.bye()
        link.close()


def image_digests():
    """What the simulated board's firmware image holds frozen: {bundle path: SHA-256 hex}; none on the host port."""
    if device_runtime(find_board(DEFAULT_BOARD)).kind != "device":
        return {}
    names = {}
    exec((ROOT / "build" / "appimage" / "appimage.py").read_text(), names)  # what the device build froze
    return dict(zip(names["FILES"], (digest.hex() for digest in names["DIGESTS"])))


def test_the_files_on_the_flash_are_the_manifest_and_the_checkout_root_files(s):
    # The slot holds every manifest file the board's firmware image does not hold frozen.
    slot = {path[len("app/a/"):]: digest for path, digest in s.after.items() if path.startswith("app/a/")}
    image = image_digests()
    assert slot == {e.path: e.sha256.hex() for e in s.manifest.files if image.get(e.path) != e.sha256.hex()}
    assert "main.py" in slot and len(slot) < len(s.manifest.files) or not image
    assert s.after["boot.py"] == sha(ROOT / "firmware" / "boot.py")
    assert s.after["bootsel.py"] == sha(ROOT / "firmware" / "bootsel.py")
    assert s.after["board.json"] == sha(BOARD)
    assert not [p for p in s.after if p.startswith("app/") and not p.startswith("app/a/") and p != "app/current"]


def test_the_pointer_names_slot_a_confirmed(s, tmp_path):
    out = tmp_path / "current"
    # read back over mpremote, the way it was written; the installed board has its flash at /
    with SimPort(s.empty, s.flash, s.dir) as sim:
        done = subprocess.run([sys.executable, "-m", "mpremote", "connect", sim.port,
                               "resume", "exec", "import os\nos.chdir('/')", "+", "fs", "cp",
                               ":app/current", str(out)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    pointer = json.loads(out.read_text())
    assert pointer["slot"] == "a" and pointer["version"] == VERSION
    assert pointer["tries"] is None and pointer["crashes"] is None


def test_the_games_in_data_are_untouched(s):
    data_before = {p: d for p, d in s.before.items() if p.startswith("data/")}
    data_after = {p: d for p, d in s.after.items() if p.startswith("data/")}
    assert data_before and data_after == data_before


def test_a_board_that_runs_tafel_is_refused_without_force(s, capsys):
    with SimPort(s.empty, s.flash, s.dir) as sim:
        assert main(flash_args(s, "--skip-esptool", "--port", sim.port)) == 2
    err = capsys.readouterr().err
    assert "runs Tafel %s already" % VERSION in err and "tafel update" in err and "--force" in err


@pytest.mark.parametrize("board", sorted(p.stem for p in (ROOT / "hardware" / "boards").glob("*.json")))
def test_dry_run_prints_esptool_with_the_board_chip_and_offset(s, board, capsys):
    profile = json.loads((ROOT / "hardware" / "boards" / (board + ".json")).read_text())
    assert main(flash_args(s, "--dry-run", "--erase", "--port", "/dev/ttyUSB7", "--board", board,
                           "--firmware", str(s.image))) == 0
    out = capsys.readouterr().out
    chip = profile["mcu"]
    assert "-m esptool --chip %s --port /dev/ttyUSB7 --baud 460800 erase-flash" % chip in out
    assert "-m esptool --chip %s --port /dev/ttyUSB7 --baud 460800 write-flash 0x%x %s" % (
        chip, CHIPS[chip][1], s.image) in out
    assert "-m mpremote connect /dev/ttyUSB7 resume" in out and ":app/a/main.py" in out
    assert out.index("erase-flash") < out.index("write-flash") < out.index("mpremote")


def test_image_offsets_follow_the_chip():
    assert esptool_commands("esp32", "P", "fw.bin")[-1][-2:] == ["0x1000", "fw.bin"]
    assert esptool_commands("esp32s2", "P", "fw.bin")[-1][-2:] == ["0x1000", "fw.bin"]
    assert esptool_commands("esp32s3", "P", "fw.bin")[-1][-2:] == ["0x0", "fw.bin"]
    assert esptool_commands("esp32c3", "P", "fw.bin")[-1][-2:] == ["0x0", "fw.bin"]
    assert len(esptool_commands("esp32", "P", "fw.bin", erase=True)) == 2


def test_esptool_failing_stops_before_the_app_is_installed(s, capsys):
    master, slave = os.openpty()  # a port where no chip answers
    port = os.ttyname(slave)
    try:
        code = main(flash_args(s, "--port", port, "--firmware", str(s.image)))
    finally:
        os.close(master)
        os.close(slave)
    assert code == 1
    captured = capsys.readouterr()
    assert "esptool failed on %s" % port in captured.err and "Nothing was installed" in captured.err
    assert "Failed to connect" in captured.err
    assert "waiting for MicroPython" not in captured.out  # the mpremote step never ran


def test_bad_input_is_refused_before_the_board_is_touched(s, tmp_path, capsys):
    port = str(tmp_path / "no-such-port")  # a port is looked at only after these checks
    assert main(flash_args(s, "--port", port)) == 2
    assert "--firmware IMAGE.bin is needed" in capsys.readouterr().err
    elf = tmp_path / "firmware.elf"
    elf.write_bytes(b"\x7fELF" + bytes(60))
    assert main(flash_args(s, "--port", port, "--firmware", str(elf))) == 2
    assert "no ESP32 firmware image" in capsys.readouterr().err
    tampered = tmp_path / "tampered.bundle"
    data = bytearray(s.bundle.read_bytes())
    data[-1] ^= 1
    tampered.write_bytes(bytes(data))
    assert main(["flash", "--skip-esptool", "--port", port, "--bundle", str(tampered),
                 "--trust-store", str(s.store)]) == 2
    err = capsys.readouterr().err
    assert "the bundle is refused: The file " in err and "(bad_file)" in err  # one plain sentence (refusals.py)
    assert main(["flash", "--skip-esptool", "--port", port, "--bundle", str(s.bundle)]) == 2
    assert "foreign_key" in capsys.readouterr().err  # signed with a key the checkout's store lacks
    assert main(flash_args(s, "--skip-esptool", "--port", port)) == 3
    assert "cannot open" in capsys.readouterr().err


def test_mpremote_that_stops_answering_is_ended_with_a_clear_error(monkeypatch):
    # mpremote has no time limit of its own and prints nothing while it waits for a board that
    # went silent: the install ends it at its limit instead of waiting for ever.
    from tafel_host.update import flash_install

    monkeypatch.setattr(flash_install, "mpremote_argv",
                        lambda port, *commands, **how: [sys.executable, "-c", "import time; time.sleep(60)"])
    with pytest.raises(flash_install.InstallError, match="did not finish on /dev/ttyX in 1 s"):
        flash_install.Board("/dev/ttyX", timeout=1).run(("exec", "print(1)"))
