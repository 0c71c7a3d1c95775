# Which serial port the device is on: --port, then TAFEL_PORT, then the USB bridges ESP32 boards use.
#
# A port named by the user is used as it is: a device path (/dev/ttyUSB0,
# /dev/cu.usbserial-0001, COM3) or any pyserial URL (loop://, socket://host:port,
# rfc2217://...). Without one, every USB serial port whose vendor and product
# id belong to a usual ESP32 bridge is tried, and only a port whose device
# answers the handshake counts. The caller hands in `probe(port)`, which opens
# the port, does the handshake and returns the open link (or raises), so this
# module knows nothing of the protocol and tests fake everything.
import os
import sys

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
    """No usable device: `code` is the exit code (3 none found, 2 the user must choose)."""

    def __init__(self, message, code=3):
        super().__init__(message)
        self.code = code


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
        return ("On Linux: your user needs the serial group to open the port: "
                "sudo usermod -aG dialout $USER (uucp on Arch), then log out and in again. "
                "ModemManager probes a freshly plugged /dev/ttyACM* for a few seconds: wait and retry, "
                "or stop it (sudo systemctl stop ModemManager).")
    if platform == "darwin":
        return ("On macOS: use the /dev/cu.* port, not /dev/tty.* (which waits for a carrier signal). "
                "CP210x and CH340 boards may need their vendor's driver on older macOS.")
    if platform.startswith("win"):
        return ("On Windows: the port is COMn (Device Manager, Ports (COM & LPT)); close other programs "
                "that hold it (a serial monitor, Thonny, an IDE). CP210x and CH340 boards need their driver.")
    return "Name the port with --port."


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


def find(probe, port=None, env=None, list_ports=comports, platform=None):
    """(port, link) of the one device that answers; PortError otherwise.

    probe(port) returns an open link or raises OSError (cannot open) or any
    other exception (opened, but no Tafel answered)."""
    named, source = explicit(port, env)
    if named:
        try:
            return named, probe(named)
        except OSError as err:
            raise PortError("cannot open %s (from %s): %s\n%s" % (named, source, _why(err), hints(platform)))
        except Exception as err:
            why = _why(err)
            if "REPL" not in why:
                why += ". Is the Tafel app running (not stopped at the REPL)?"
            raise PortError("no Tafel answered on %s (from %s): %s" % (named, source, why))
    infos = list(list_ports())
    found = candidates(infos)
    if not found:
        others = sorted(info.device for info in infos)
        seen = ("; serial ports seen: %s (use --port if one of them is it)" % ", ".join(others)) if others else ""
        raise PortError("no Tafel found: no USB serial port of an ESP32 bridge (Espressif, CP210x, CH340, "
                        "FTDI)%s. Plug the device in with a data cable, or name the port with --port or "
                        "%s.\n%s" % (seen, ENV, hints(platform)))
    answered, failed = [], []
    for device, what in found:
        try:
            answered.append((device, probe(device)))
        except Exception as err:  # a port that cannot be opened or does not answer is no Tafel
            failed.append("%s (%s): %s" % (device, what, _why(err)))
    if len(answered) == 1:
        return answered[0]
    for _, link in answered:
        _close(link)
    if not answered:
        raise PortError("no Tafel answered on %s.\nIs the Tafel app running (not stopped at the REPL)?\n%s"
                        % ("; ".join(failed), hints(platform)))
    names = ", ".join("%s (device %s)" % (device, _device_id(link)) for device, link in answered)
    raise PortError("several Tafel devices answered: %s. Choose one with --port or %s."
                    % (names, ENV), code=2)


def _why(err):
    text = str(err).strip() or type(err).__name__
    if isinstance(err, PermissionError) or "Permission denied" in text:
        text += " (no permission)"
    return text


def _device_id(link):
    hello = getattr(link, "hello", None) or {}
    return hello.get("device", "?") if isinstance(hello, dict) else "?"


def _close(link):
    try:
        link.close()
    except Exception:
        pass
