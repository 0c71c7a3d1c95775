# Which serial port the device is on: --port, then TAFEL_PORT, then the USB bridges ESP32 boards use and running simulators.
#
# A port named by the user is used as it is: a device path (/dev/ttyUSB0,
# /dev/cu.usbserial-0001, COM3) or any pyserial URL (loop://, socket://host:port,
# rfc2217://...). Without one, every USB serial port whose vendor and product
# id belong to a usual ESP32 bridge is tried, and so is the pseudo-terminal of
# each running `tafel sim` (its port file, simports.py); only a port whose
# device answers the handshake counts. The caller hands in `probe(port)`, which opens
# the port, does the handshake and returns the open link (or raises), so this
# module knows nothing of the protocol and tests fake everything. lock(port)
# keeps a second tafel command off a port one is using (PortBusy, exit 1).
import os
import sys

from ..exits import Exit
from ..lang import say

ENV = "TAFEL_PORT"

# (vendor id, product id or None for any, what it is)
BRIDGES = (
    (0x303A, None, "Espressif native USB (ESP32-S2/S3/C3/C6)"),
    (0x10C4, 0xEA60, "Silicon Labs CP210x"),
    (0x1A86, 0x7523, "WCH CH340"),
    (0x1A86, 0x55D4, "WCH CH9102"),
    (0x0403, 0x6001, "FTDI FT232R"),
    (0x0403, 0x6015, "FTDI FT-X"),
)


class PortError(Exception):
    """No usable device: `code` is the exit code (3 none found, 2 the user must choose, 1 busy,
    4 a device at the MicroPython prompt: the probe's exception says so with exit_code)."""

    def __init__(self, message, code=Exit.NO_DEVICE):
        super().__init__(message)
        self.code = code


class PortBusy(PortError):
    """Another tafel command holds the port (its lock): exit 1, never "no answer"."""

    def __init__(self, message):
        PortError.__init__(self, message, code=Exit.FAILED)


# ---- the port lock: one tafel command per port ---------------------------------------
# An advisory lock (fcntl.flock; msvcrt.locking on Windows) on a file keyed by the
# port's real path in the data folder's locks/, held from opening the port to
# closing it; the holder's pid is written at PID_AT (outside the locked byte, which
# Windows will not let others read). Within one process the lock is shared (counted).
PID_AT = 16
_held = {}  # lock file path -> [fd, users] of the locks this process holds


def lock_path(port, folder=None):
    """The lock file of a device path; None for a pyserial URL (socket://, rfc2217://: no local device)."""
    if "://" in port:
        return None
    import re
    from pathlib import Path

    if folder is None:
        from ..paths import user_data_dir

        folder = user_data_dir() / "locks"
    key = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.realpath(port).strip("/\\")) or "_"
    return Path(folder) / (key + ".lock")


def lock(port, folder=None):
    """Take the port's lock (a release() callable); PortBusy naming the pid of the command holding it."""
    path = lock_path(port, folder)
    if path is None:
        return lambda: None
    key = str(path)
    if key in _held:
        _held[key][1] += 1
        return _releaser(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(key, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        _lock_fd(fd)
    except OSError:
        pid = _pid_in(fd)
        os.close(fd)
        raise PortBusy(say("port_busy", port, say("pid", pid) if pid else say("pid_unknown"))) from None
    os.lseek(fd, PID_AT, os.SEEK_SET)
    os.write(fd, (b"%d\n" % os.getpid()).ljust(12))
    _held[key] = [fd, 1]
    return _releaser(key)


def first_holder(port):
    """True when this process holds the port's lock once (its first user): pyserial's exclusive mode
    may then be asked for (POSIX device paths only), without shutting out this process's other user."""
    path = lock_path(port) if os.name == "posix" else None
    return path is not None and _held.get(str(path), [0, 0])[1] == 1


def _releaser(key):
    done = []

    def release():
        if done or key not in _held:
            return
        done.append(1)
        _held[key][1] -= 1
        if _held[key][1] <= 0:
            fd = _held.pop(key)[0]
            try:
                _unlock_fd(fd)
            finally:
                os.close(fd)  # closing alone frees a flock too

    return release


def _pid_in(fd):
    try:
        os.lseek(fd, PID_AT, os.SEEK_SET)
        text = os.read(fd, 12).decode("ascii", "replace").strip()
        return text if text.isdigit() else None
    except OSError:
        return None


def _lock_fd(fd):
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        return
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _unlock_fd(fd):
    try:
        import fcntl
    except ImportError:
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
        return
    fcntl.flock(fd, fcntl.LOCK_UN)


def bridge(info):
    """What USB bridge a list_ports entry is, or None if it is none we know."""
    vid, pid = getattr(info, "vid", None), getattr(info, "pid", None)
    for known_vid, known_pid, what in BRIDGES:
        if vid == known_vid and (known_pid is None or pid == known_pid):
            return what
    return None


def hints(platform=None):
    """What usually stands between a user and a serial port on this system."""
    platform = sys.platform if platform is None else platform
    if platform.startswith("linux"):
        return say("hint_linux")
    if platform == "darwin":
        return say("hint_macos")
    if platform.startswith("win"):
        return say("hint_windows")
    return say("hint_other")


def comports():
    from serial.tools import list_ports

    return list_ports.comports()


def candidates(infos):
    """The ports that look like an ESP32 board, as (device, bridge name), in a stable order."""
    found = [(info.device, bridge(info)) for info in infos if bridge(info)]
    return sorted(found)


def explicit(port=None, env=None):
    """The port the user named (--port wins over TAFEL_PORT), and where the name came from."""
    env = os.environ if env is None else env
    if port:
        return port, "--port"
    if env.get(ENV, "").strip():
        return env[ENV].strip(), ENV
    return None, None


def simulators(sims):
    """The running simulators' ports as candidates: (pseudo-terminal, what it is)."""
    return [(port, say("simulator_pid", pid)) for port, pid in sims()]


def find(probe, port=None, env=None, list_ports=None, platform=None, sims=None):
    """(port, link) of the one device that answers; PortError otherwise.

    probe(port) returns an open link or raises OSError (cannot open) or any
    other exception (opened, but no Tafel answered). list_ports() lists the
    serial ports (default: pyserial's), sims() the running simulators as
    (port, pid) (default: their port files, simports.running; a caller that
    hands in its own list_ports and no sims has none)."""
    named, source = explicit(port, env)
    if named:
        try:
            return named, probe(named)
        except PortBusy:
            raise
        except OSError as err:
            raise PortError(say("cannot_open", named, source, _why(err), hints(platform))) from None
        except Exception as err:
            why = _why(err)
            code = getattr(err, "exit_code", Exit.NO_DEVICE)
            if code != Exit.NO_DEVICE:  # it says itself what it is: the MicroPython prompt answered (errors.AtRepl)
                raise PortError("%s: %s" % (named, why), code=code) from None
            if "REPL" not in why:
                why += ". " + say("app_running")
            raise PortError(say("no_answer_on", named, source, why)) from None
    if sims is None:
        if list_ports is None:
            from . import simports

            sims = simports.running
        else:
            sims = list
    infos = list((list_ports or comports)())
    found = candidates(infos) + simulators(sims)
    if not found:
        others = sorted(info.device for info in infos)
        seen = say("ports_seen", ", ".join(others)) if others else ""
        raise PortError(say("no_tafel_found", seen, ENV, hints(platform)))
    answered, failed, busy = [], [], []
    repl = False  # a board answered from the MicroPython prompt
    for device, what in found:
        try:
            answered.append((device, probe(device)))
        except PortBusy as err:
            busy.append(err)
        except Exception as err:  # a port that cannot be opened or does not answer is no Tafel
            failed.append("%s (%s): %s" % (device, what, _why(err)))
            repl = repl or getattr(err, "exit_code", Exit.NO_DEVICE) == Exit.AT_PROMPT
    if len(answered) == 1:
        return answered[0]
    for _, link in answered:
        _close(link)
    if not answered and busy:
        raise busy[0]
    if not answered and repl:
        raise PortError(say("no_app_answered", "; ".join(failed)), code=Exit.AT_PROMPT)
    if not answered:
        raise PortError(say("none_answered", "; ".join(failed), say("app_running"), hints(platform)))
    names = ", ".join(say("port_of_device", device, _device_id(link)) for device, link in answered)
    raise PortError(say("several_answered", names, ENV), code=Exit.USAGE)


def _why(err):
    text = str(err).strip() or type(err).__name__
    if isinstance(err, PermissionError) or "Permission denied" in text:
        text += say("no_permission_to")
    return text


def _device_id(link):
    hello = getattr(link, "hello", None) or {}
    return hello.get("device", "?") if isinstance(hello, dict) else "?"


def _close(link):
    try:
        link.close()
    except Exception:
        pass
