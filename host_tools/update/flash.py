# `tafel flash`: the first install on a blank board, MicroPython with esptool, then the app with mpremote.
#
#   tafel flash --firmware ESP32_GENERIC-v1.25.0.bin       # port auto-detected, bundle built from this checkout
#   tafel flash --port COM4 --board lilygo-tdisplay-st7789 --firmware FW.bin --bundle tafel-0.9.0.bundle --erase
#   tafel flash --skip-esptool --bundle FILE                # MicroPython is on the board: the app only
#   tafel flash --dry-run ...                               # print the commands; nothing is touched
#
# Decisions (docs/flashing.md): the bundle is checked with the device's own code
# (tafel/bundle/reader.py) before the board is touched; without --bundle one
# is built from this checkout with the signing key (as `tafel bundle build`).
# A board that runs a Tafel app already (/app/current) is refused: updates go by
# `tafel update`; --force installs into the free slot and switches to it there,
# the running version untouched until the pointer's one rename. /data is never
# touched. The mpremote half is flash_install.py.
# Exit codes: 0 installed and answering, 1 failed on the board, 2 bad input, 3 no device.
import hashlib
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tafel.bundle import reader
from tafel.bundle.errors import UpdateError

from ..exits import Exit
from ..lang import say
from ..link import ports
from ..sim.launcher import DEFAULT_BOARD, SetupError, find_board, repo_root
from . import esp_image, keys
from .bundle_build import BOOT_FILES, BundleProblem, build, describe
from .flash_install import (
    Board,
    FileBar,
    InstallError,
    answer,
    check_hashes,
    differences,
    install_commands,
    mpremote_argv,
    parse_pointer,
    pointer_command,
    pointer_text,
    slot_dirs,
    verify_command,
)

# The chip a profile's "mcu" names: (MicroPython's download name, offset of the image).
CHIPS = {
    "esp32": ("ESP32_GENERIC", 0x1000),
    "esp32s2": ("ESP32_GENERIC_S2", 0x1000),
    "esp32s3": ("ESP32_GENERIC_S3", 0x0),
    "esp32c3": ("ESP32_GENERIC_C3", 0x0),
    "esp32c6": ("ESP32_GENERIC_C6", 0x0),
}
FLASH_BAUD = 460800  # esptool's writing rate; the bridges on these boards all manage it


def add_parser(commands):
    cmd = commands.add_parser("flash", help=say("hp_flash"), description=say("hp_flash_d"))
    cmd.add_argument("--port", metavar="PORT", help=say("hp_flash_port", ports.ENV))
    cmd.add_argument("--board", metavar=say("m_name"), default=DEFAULT_BOARD, help=say("hp_flash_board"))
    cmd.add_argument("--firmware", metavar="IMAGE.bin", help=say("hp_flash_firmware"))
    cmd.add_argument("--bundle", metavar=say("m_file"), help=say("hp_flash_bundle"))
    cmd.add_argument("--key", metavar=say("m_path"), help=say("hp_flash_key"))
    keys.add_trust_arguments(cmd, say("hp_flash_trust"))
    cmd.add_argument("--baud", type=int, default=FLASH_BAUD, help=say("hp_flash_baud"))
    cmd.add_argument("--skip-esptool", action="store_true", help=say("hp_flash_skip"))
    cmd.add_argument("--erase", action="store_true", help=say("hp_flash_erase"))
    cmd.add_argument("--force", action="store_true", help=say("hp_flash_force"))
    cmd.add_argument("--dry-run", action="store_true", help=say("hp_flash_dry_run"))
    cmd.set_defaults(run=run_flash)


def _say(text):
    print("tafel flash: %s" % text, file=sys.stderr)


def _show(argv):
    return subprocess.list2cmdline(argv) if os.name == "nt" else shlex.join(argv)


def esptool_commands(chip, port, image, baud=FLASH_BAUD, erase=False):
    """The esptool command lines for a chip ("esp32", ...): erase (optional), then write the image:
    a path (written whole at the chip's image offset) or [(flash address, path)] (image_pieces)."""
    _, offset = CHIPS[chip]
    pieces = [(offset, image)] if isinstance(image, (str, Path)) else image
    base = [sys.executable, "-m", "esptool", "--chip", chip, "--port", port, "--baud", str(baud)]
    write = base + ["write-flash"]
    for address, path in pieces:
        write += ["0x%x" % address, str(path)]
    return ([base + ["erase-flash"]] if erase else []) + [write]


def image_pieces(image, chip, folder):
    """([(flash address, path)], what it means for NVS): the merged image's bootloader, partition
    table and application as files in `folder`, so the NVS partition between them is kept
    (esp_image.py); the image whole where it is not laid out that way."""
    data = Path(image).read_bytes()
    base = CHIPS[chip][1]
    try:
        parts = esp_image.split(data, base)
    except esp_image.ImageError as err:
        return [(base, image)], say("fl_written_whole", err)
    pieces = []
    for (address, part), name in zip(parts, ("bootloader", "partition-table", "application")):
        path = Path(folder) / (name + ".bin")
        path.write_bytes(part)
        pieces.append((address, path))
    nvs = esp_image.nvs_range(data, base)
    kept = say("fl_nvs_kept", nvs[0], nvs[1] // 1024) if nvs else say("fl_nothing_between")
    return pieces, say("fl_written_apart", kept)


def boot_version(root):
    """BOOT_VERSION of the bootsel.py this install puts on the board."""
    match = re.search(r"^BOOT_VERSION = (\d+)", (Path(root) / "firmware" / "bootsel.py").read_text(), re.M)
    if not match:
        raise BundleProblem(say("fl_no_boot_version"))
    return int(match.group(1))


def unpack_bundle(data, trusted, boot, out_dir):
    """Check a bundle as a device would (signature, min-boot, every file) and write its files under out_dir."""
    def sink(entry):
        path = Path(out_dir) / entry.path
        path.parent.mkdir(parents=True, exist_ok=True)
        return open(path, "wb")

    return reader.verify_bundle(io.BytesIO(data), trusted, None, boot, mpy=None, sink=sink)


def _sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _bundle(args, tmp):
    """(bundle bytes, where it came from); BundleProblem or KeyProblem when there is none."""
    if args.bundle:
        try:
            return Path(args.bundle).read_bytes(), args.bundle
        except OSError as err:
            raise BundleProblem(say("fl_cannot_read", args.bundle, err.strerror or err)) from None
    out = Path(tmp) / "tafel.bundle"
    try:
        build(out, args.key, trust_store=args.trust_store)
    except (BundleProblem, keys.KeyProblem) as err:
        raise BundleProblem(say("fl_needs_key", err)) from None
    return out.read_bytes(), say("fl_built_here")


def _opens(port):
    # ports.find's probe: a blank board answers nothing, so a port that opens is the board.
    import serial

    return serial.serial_for_url(port, baudrate=115200, timeout=0.1)


def run_flash(args):
    root = repo_root()
    try:
        profile_path = find_board(args.board)
        import json

        chip = json.loads(profile_path.read_text()).get("mcu", "esp32")
    except (SetupError, ValueError) as err:
        _say(err)
        return Exit.USAGE
    if chip not in CHIPS:
        _say(say("fl_unknown_mcu", args.board, chip, ", ".join(CHIPS)))
        return Exit.USAGE
    if not args.skip_esptool:
        problem = _check_image(args.firmware, chip)
        if problem:
            _say(problem)
            return Exit.USAGE
    with tempfile.TemporaryDirectory(prefix="tafel-flash-") as tmp:
        image = None
        if not args.skip_esptool:
            image, note = image_pieces(args.firmware, chip, tmp)
            print(say("fl_firmware", args.firmware, note))
        try:
            data, origin = _bundle(args, tmp)
            trusted = keys.trusted_keys(args)
            m = unpack_bundle(data, trusted, boot_version(root), Path(tmp) / "slot")
        except (BundleProblem, keys.KeyProblem) as err:
            _say(err)
            return Exit.USAGE
        except UpdateError as err:
            _say(say("fl_refused", describe(err)))
            return Exit.USAGE
        print(say("fl_bundle", origin, m.version, len(m.files)))
        files = [(e.path, Path(tmp) / "slot" / e.path) for e in m.files]
        # bootsel.py and boot.py: the checkout's, or the copy installed with the package (app_files.py)
        root_files = [(name, root / "firmware" / name) for name in BOOT_FILES]
        root_files.insert(0, ("board.json", profile_path))
        if args.dry_run:
            return _dry_run(args, chip, image, m, files, root_files)
        try:
            port, probe = ports.find(_opens, port=args.port)
            probe.close()
        except ports.PortError as err:
            _say(err)
            return err.code
        if not args.skip_esptool:
            code = _esptool(args, chip, port, image)
            if code:
                return code
        try:
            return _install(args, port, m, files, root_files)
        except InstallError as err:
            _say(err)
            return Exit.FAILED


def _check_image(image, chip):
    if not image:
        return say("fl_no_firmware", chip, CHIPS[chip][0], CHIPS[chip][0])
    try:
        with open(image, "rb") as f:
            head = f.read(1)
    except OSError as err:
        return say("fl_cannot_read", image, err.strerror or err)
    if head != b"\xe9":  # every ESP image starts with this magic byte
        return say("fl_not_image", image)
    return None


def _dry_run(args, chip, image, m, files, root_files):
    port = ports.explicit(args.port)[0] or "PORT"
    if not args.skip_esptool:
        print(say("fl_dry_esptool"))
        for argv in esptool_commands(chip, port, image, args.baud, args.erase):
            print(_show(argv))
    print(say("fl_dry_tafel", m.version))
    steps = [
        install_commands("a", files, root_files, slot_dirs("a", [p for p, _ in files])),
        [verify_command("a", [p for p, _ in files], [p for p, _ in root_files])],
        [pointer_command(pointer_text("a", m.version))],
    ]
    print(_show(mpremote_argv(port, ("exec", say("fl_dry_probe")))))
    for commands in steps:
        print(_show(mpremote_argv(port, *commands)))
    print(say("fl_dry_then", port))
    return Exit.OK


def _esptool(args, chip, port, image):
    """Run esptool's commands, echoing its output; an exit code when it failed, else None."""
    for argv in esptool_commands(chip, port, image, args.baud, args.erase):
        print("$ " + _show(argv), flush=True)
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        lines = []
        for line in proc.stdout:
            lines.append(line.rstrip())
            print(line, end="", flush=True)
        if proc.wait() != 0:
            errors = [x.strip() for x in lines if "error" in x.lower()] or [x for x in lines if x.strip()][-1:]
            _say(say("fl_esptool_failed", port, proc.returncode, errors[0] if errors else say("fl_no_output")))
            return Exit.FAILED
    return None


def _install(args, port, m, files, root_files):
    board = Board(port)
    print(say("fl_waiting", port), flush=True)
    try:
        info = board.probe()
    except InstallError as err:
        hint = say("fl_no_micropython") if args.skip_esptool else ""
        raise InstallError("%s%s" % (err, hint)) from None
    current = parse_pointer(info.get("pointer"))
    slot, prev = "a", None
    if current is not None:
        if not args.force:
            _say(say("fl_runs_tafel", current.get("version")))
            return Exit.USAGE
        if current.get("tries") is not None or current.get("crashes") is not None:
            raise InstallError(say("fl_on_trial", current.get("version")))
        slot, prev = ("b" if current["slot"] == "a" else "a"), current["slot"]
    if info.get("mpy") and info["mpy"] != m.mpy:
        raise InstallError(say("fl_mpy", m.mpy, info["mpy"]))
    if info.get("free", 0) < m.files_size:
        raise InstallError(say("fl_no_room", m.files_size // 1024, info["free"] // 1024))
    # A Tafel firmware image holds most files frozen (its appimage): those stay out of the slot.
    image = info.get("image") or {}
    want_slot = {e.path: e.sha256.hex() for e in m.files if image.get(e.path) != e.sha256.hex()}
    in_image = len(files) - len(want_slot)
    files = [(p, local) for p, local in files if p in want_slot]
    paths = [p for p, _ in files]
    check = verify_command(slot, paths, [p for p, _ in root_files])
    want_root = {p: _sha(local) for p, local in root_files}
    started = time.monotonic()
    # What the slot holds already (a run cut short, or --force onto an older copy) is not sent again.
    todo_slot, todo_root, removed = differences(board.run(check), want_slot, want_root)
    copy = [(p, local) for p, local in files if p in todo_slot]
    commands = install_commands(slot, copy, [(p, local) for p, local in root_files if p in todo_root],
                                slot_dirs(slot, [p for p, _ in copy]))
    with FileBar(len(commands) - 1, say("fl_installing", m.version, slot)) as bar:
        board.run(*commands, on_line=bar.line)
    removed += check_hashes(board.run(check), want_slot, want_root)
    text = pointer_text(slot, m.version, prev)
    if not Board.marked(board.run(pointer_command(text))):
        raise InstallError(say("fl_no_pointer"))
    print(say("fl_installed", m.version, len(files), slot, say("fl_in_image", in_image) if in_image else "",
              len(root_files), len(commands) - 1, say("fl_removed", len(removed)) if removed else "",
              time.monotonic() - started))
    board.soft_reboot()
    answered = answer(port, m.version)
    if answered != m.version:
        raise InstallError(say("fl_no_answer", say("fl_answers", answered) if answered else say("fl_no_app")))
    print(say("fl_restarted", m.version))
    return Exit.OK
