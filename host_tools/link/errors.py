# What can go wrong on the serial link, as the laptop tells it: the exceptions every command maps to an
# exit code, and how MicroPython's REPL shows itself when it answers in place of the app.
from ..exits import Exit
from ..lang import say


class LinkError(Exception):
    """The link failed; subclasses say how."""


class NoAnswer(LinkError):
    """Nothing answered the handshake: no Tafel app on this port (or it is at the REPL)."""


class AtRepl(NoAnswer):
    """The MicroPython prompt answered the handshake: the device is on, the Tafel app is not running."""

    exit_code = Exit.AT_PROMPT  # what every command exits with (ports.find's PortError takes it over)


_REPL_SIGNS = (b">>>", b"Traceback (most recent call last)", b"MicroPython", b"raw REPL", b"MPY: soft reboot")

CTRL_B = b"\x02"  # MicroPython's raw REPL: back to the friendly one


def at_repl(text):
    """True when bytes the port brought are MicroPython's REPL talking (a prompt, a traceback, its banner)."""
    return any(sign in text for sign in _REPL_SIGNS)


class DeviceGone(LinkError):
    """The device stopped answering in a session (unplugged, reset, crashed)."""


class NoisyLine(DeviceGone):
    """Frames kept arriving damaged until the export could not go on: the cable or port is bad."""

    def __init__(self, damaged, lines):
        share = 100 * damaged // lines if lines else 0
        DeviceGone.__init__(self, say("noisy_line", damaged, lines, share))
        self.damaged = damaged
        self.lines = lines


class DeviceError(LinkError):
    """The device answered ERR: `code` as in docs/protocol.md, `detail` its text."""

    def __init__(self, code, detail=""):
        LinkError.__init__(self, say("device_says", code) + (": " + detail if detail else ""))
        self.code = code
        self.detail = detail
