# `tafel sim`: the unchanged firmware on the MicroPython unix port, in the terminal or headless from a key script.
#
#   tafel sim                                   # interactive: the display in the terminal, keys from the keyboard
#   tafel sim --script FILE --out DIR           # headless: run the key script, write snapshots (PNG and text)
#   tafel sim --flash PATH --board NAME         # another flash image file, another board profile
#   tafel sim --script FILE --stay --port-file F  # headless, then serve the USB serial until killed
#
# The device side is firmware/sim/run.py, from this checkout or from the copy
# installed with the package (app_files.py); device.py speaks its line protocol and
# terminal.py draws it in a terminal; script.py parses key scripts,
# runtime.py picks the interpreter and the board's heap. The flash image is a file, so saved
# games survive from one run to the next and across a power cut.
#
# The USB serial (serial.py): interactive, and headless with --stay or
# --port-file, the device's serial is a pseudo-terminal whose path is printed
# ("serial: /dev/pts/N"; interactive: on its own status line under the display
# too) and written to --port-file once the device is ready for a host
# (headless: after the script), and at the same time to a port file in the
# user's data folder (link/simports.py), removed when the simulator ends, so
# tafel info/export/... without --port find it. --stay keeps the device running
# after the script, simulated time following real time, until SIGTERM, Ctrl-C
# or the end of a piped standard input. docs/protocol.md says what it speaks.
# A device with the pseudo-terminal (interactive, --stay, --port-file) is one
# a laptop's USB port holds: it never deep-sleeps (nothing on the serial could
# wake it), its display still goes dark.
#
# The clock (--clock): interactive, the device's clock follows the laptop's
# wall clock from power-on (every start of the chip begins at the laptop's
# time, device.py wall_clock); headless it starts unset, as an ESP32's does,
# so a script's snapshots and games are the same from run to run.
import os
import shutil
import signal
import stat
import sys
import threading
import time
from pathlib import Path

from .. import app_files
from ..exits import Exit
from ..lang import count, say
from ..link import simports
from ..paths import user_data_dir
from . import runtime as sim_runtime
from .device import SimDevice, SimError
from .script import TOKENS, ScriptError, Step, parse_script  # noqa: F401  (tafel_host.sim.launcher's API)
from .serial import DEFAULT_BAUD, SimSerial, write_port_file

DEFAULT_BOARD = "esp32-devkitc-ssd1306"
SNAP_SCALE = 4  # snapshot PNGs of a mono display (the 128x64 OLED): 4 x 4 image pixels per display pixel
SNAP_SCALE_COLOUR = 2  # of a colour display (the 240x135 LCD): 2 x 2, its picture is already drawn at about 2x
STAY_TICK = 0.01  # seconds between the waits that carry real time over to the device in --stay



class SetupError(Exception):
    """Something the simulator needs is missing or wrong (exit code 2)."""


# -- where things are --

def repo_root():
    """The tree holding firmware/, lib/tafel/ and hardware/boards/: the checkout of an editable
    install, else the copy installed with the package (app_files.py)."""
    return app_files.root()


def find_run_py(root=None):
    root = Path(root) if root is not None else repo_root()
    path = root / "firmware" / "sim" / "run.py"
    if not path.is_file():
        raise SetupError(say("sim_no_run_py", path))
    return path


def find_micropython():
    """The MicroPython unix port: next to this Python first (the venv's), then on PATH."""
    name = "micropython.exe" if os.name == "nt" else "micropython"
    beside = Path(sys.executable).parent / name  # not resolved: a venv's python is often a symlink
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("micropython")
    if found:
        return Path(found)
    raise SetupError(say("sim_no_micropython", sys.executable))


def boards(root=None):
    """Board profiles by name: hardware/boards/<name>.json."""
    root = Path(root) if root is not None else repo_root()
    return {path.stem: path for path in sorted((root / "hardware" / "boards").glob("*.json"))}


def find_board(name, root=None):
    """A board profile by name, or a path to a profile file."""
    if name.endswith(".json") and Path(name).is_file():
        return Path(name).resolve()
    known = boards(root)
    if name in known:
        return known[name]
    raise SetupError(say("sim_no_board", name, ", ".join(known) or say("sim_none")))


def default_flash_path():
    return user_data_dir() / "sim-flash.img"


def device_command(micropython, run_py, flash, board):
    """The device process on this unix port (the host runtime: the board's heap scaled, runtime.py)."""
    runtime = sim_runtime.choose(board, repo_root(), lambda: micropython, "host")
    return sim_runtime.command(runtime, run_py, flash, board)


def auto_command(run_py, flash, board, want="auto"):
    """The device process as `tafel sim` starts it for a board (device_runtime)."""
    return sim_runtime.command(device_runtime(board, want), run_py, flash, board)


def device_runtime(board, want="auto"):
    """The Runtime `tafel sim` runs a board on (runtime.choose); SetupError if it cannot be had."""
    try:
        return sim_runtime.choose(board, repo_root(), find_micropython, want)
    except sim_runtime.NoRuntime as err:
        raise SetupError(str(err)) from None


# -- key scripts --

def read_script(name):
    """The script's text and the name used in messages; '-' reads standard input."""
    if name == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(name, encoding="utf-8") as src:
            return src.read(), name
    except (OSError, UnicodeDecodeError) as err:
        raise SetupError(say("sim_no_script", name, err)) from None


def save_snapshot(glass, out_dir, name):
    """DIR/<name>.png (a mono display at 4x, greyscale; a colour one at 2x, RGB) and DIR/<name>.txt (the text rows)."""
    scale = SNAP_SCALE_COLOUR if getattr(glass, "colour", False) else SNAP_SCALE
    (out_dir / (name + ".png")).write_bytes(glass.png(scale))
    with open(out_dir / (name + ".txt"), "w", encoding="utf-8", newline="\n") as out:
        out.write("".join(row + "\n" for row in glass.text))


def run_script(device, steps, out_dir, source="script"):
    """Play the steps on a started device; a failing step raises SimError naming its place."""
    done = {"steps": 0, "snaps": [], "power_cuts": 0}
    for step in steps:
        try:
            if step.kind == "key":
                device.key(step.arg)
            elif step.kind == "wait":
                device.wait(step.arg)
            elif step.kind == "snap":
                save_snapshot(device.snap(), out_dir, step.arg)
                done["snaps"].append(step.arg)
            else:
                device.power_cut()
                done["power_cuts"] += 1
        except SimError as err:
            raise SimError("%s:%d:%d: %s: %s" % (source, step.line, step.col, _token(step), err)) from None
        done["steps"] += 1
    return done


def _token(step):
    if step.kind in ("key", "power-cut"):
        return step.arg or step.kind
    return "%s:%s" % (step.kind, step.arg)


def summary(done, out_dir, seconds):
    cuts = done["power_cuts"]
    text = say("sim_steps", done["steps"], seconds)
    if cuts:
        text += say("sim_power_cuts", count(cuts, "sim_power_cut"))
    snaps = done["snaps"]
    if snaps:
        shown = ", ".join(snaps[:8]) + (", ..." if len(snaps) > 8 else "")
        text += say("sim_snapshots", count(len(snaps), "sim_snapshot"), out_dir, shown)
    return text


# -- the command --

def add_parser(commands):
    cmd = commands.add_parser("sim", help=say("hp_sim"), description=say("hp_sim_d", say("sim_tokens")))
    cmd.add_argument("--script", metavar=say("m_file"), help=say("hp_sim_script"))
    cmd.add_argument("--out", metavar=say("m_dir"), help=say("hp_sim_out"))
    cmd.add_argument("--flash", metavar=say("m_path"), help=say("hp_sim_flash", default_flash_path()))
    cmd.add_argument("--board", metavar=say("m_name"), default=DEFAULT_BOARD,
                     help=say("hp_sim_board", ", ".join(boards())))
    cmd.add_argument("--stay", action="store_true", help=say("hp_sim_stay"))
    cmd.add_argument("--port-file", metavar=say("m_file"), help=say("hp_sim_port_file"))
    cmd.add_argument("--clock", choices=("wall", "unset"), help=say("hp_sim_clock"))
    cmd.add_argument("--baud", metavar="N", type=int, default=DEFAULT_BAUD, help=say("hp_sim_baud"))
    cmd.add_argument("--runtime", choices=("auto", "device", "host"), default="auto", help=say("hp_sim_runtime"))
    cmd.set_defaults(run=run)
    return cmd


def run(args):
    serial = None
    try:
        steps = source = None
        if args.script is not None:
            text, source = read_script(args.script)
            steps = parse_script(text, source)
        elif args.out is not None:
            raise SetupError(say("sim_out_needs_script"))
        elif args.stay:
            raise SetupError(say("sim_stay_needs_script"))
        else:
            from . import terminal

            problem = terminal.unavailable(sys.stdin, sys.stdout)
            if problem:
                raise SetupError(problem)
        if args.baud <= 0:
            raise SetupError(say("sim_baud", args.baud))
        command, flash = _prepare(args)
        wall = time.time if (args.clock or ("unset" if steps is not None else "wall")) == "wall" else None
        if steps is None or args.stay or args.port_file:
            serial = SimSerial(args.baud)
            command += serial.device_args()
            print("serial: %s" % serial.path, flush=True)  # in every language: scripts read the port from it
        if steps is None:
            log = user_data_dir() / "sim.log"
            log.parent.mkdir(parents=True, exist_ok=True)
            _announce(serial, args.port_file)
            try:
                return terminal.run(command, flash, log, port=serial.path, wall_clock=wall)
            finally:
                _close(serial, args.port_file)
        out_dir = None
        if args.out is not None:
            out_dir = Path(args.out)
            out_dir.mkdir(parents=True, exist_ok=True)
        elif any(step.kind == "snap" for step in steps):
            raise SetupError(say("sim_needs_out"))
    except (SetupError, ScriptError, OSError) as err:
        print("tafel sim: %s" % err, file=sys.stderr)
        _close(serial, None)
        return Exit.USAGE
    try:
        return _headless(command, steps, out_dir, source, serial, args, wall)
    finally:
        _close(serial, args.port_file)


def _announce(serial, port_file):
    """The port is ready for a host: its path to --port-file and to the data folder's port file."""
    if port_file:
        write_port_file(port_file, serial.path)
    serial.registered = simports.register(serial.path)


def _close(serial, port_file):
    if serial is not None:
        serial.close()
        if getattr(serial, "registered", None):
            simports.unregister(serial.registered)
        if port_file:
            try:
                os.remove(port_file)
            except OSError:
                pass


def _prepare(args):
    run_py = find_run_py()
    board = find_board(args.board)
    runtime = device_runtime(board, args.runtime)
    # Which chip this is, on stderr (stdout carries the port and the summary): the virtual chip, or the
    # host port's approximation of it.
    print(say("sim_runs_on", runtime.note, "" if runtime.kind == "device" else say("sim_make_device_build")),
          file=sys.stderr)
    flash = Path(args.flash).expanduser() if args.flash else default_flash_path()
    flash.parent.mkdir(parents=True, exist_ok=True)
    return sim_runtime.command(runtime, run_py, flash.resolve(), board), flash


def _headless(command, steps, out_dir, source, serial=None, args=None, wall_clock=None):
    started = time.monotonic()
    device = SimDevice(command, wall_clock=wall_clock)
    try:
        device.start()
        done = run_script(device, steps, out_dir, source)
        if serial is not None:
            _announce(serial, args.port_file)
        if args is not None and args.stay:
            print(summary(done, out_dir, time.monotonic() - started), flush=True)
            return _stay(device, watch_stdin=args.script != "-")
    except SimError as err:
        print("tafel sim: %s" % err, file=sys.stderr)
        return Exit.FAILED
    except KeyboardInterrupt:
        print(say("sim_interrupted"), file=sys.stderr)
        return Exit.INTERRUPTED
    finally:
        device.close()
    print(summary(done, out_dir, time.monotonic() - started))
    return Exit.OK


def _stay(device, watch_stdin=True):
    """Keeps the device running in real time (its link serving the serial) until SIGTERM,
    Ctrl-C, or the end of standard input when that is a pipe."""
    stop = threading.Event()
    old = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    if watch_stdin and _is_pipe(sys.stdin):
        threading.Thread(target=_wait_for_eof, args=(sys.stdin, stop), daemon=True).start()
    try:
        follow_real_time(device, stop)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, old)
    return Exit.OK


def follow_real_time(device, stop, after=None, clock=time.monotonic):
    """Lets the device's simulated time follow real time (a wait every STAY_TICK) until `stop` is set.

    after(): called after each wait (a caller's look at the device between them). A device that
    started again inside a wait (its watchdog reset it) counts its time from that new start.
    The fraction of a millisecond not yet waited is carried here, and the device carries the
    overshoot of its 10 ms steps (firmware/sim/device.py), so over hours its clock keeps to
    `clock` (tests pass a fake one and a stop whose wait moves it)."""
    last = clock()
    while not stop.is_set():
        stop.wait(STAY_TICK)
        ms = int((clock() - last) * 1000)
        if ms >= 10:
            starts = device.starts
            device.wait(ms)
            last = clock() if device.starts != starts else last + ms / 1000.0
            if after is not None:
                after()


def _is_pipe(stream):
    try:
        return stat.S_ISFIFO(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):
        return False


def _wait_for_eof(stream, stop):
    try:
        while stream.buffer.read1(4096) if hasattr(stream, "buffer") else stream.read(4096):
            pass
    except (OSError, ValueError):
        pass
    stop.set()
