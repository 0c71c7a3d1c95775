# Interactive simulator: the display drawn in the terminal with half-blocks, keys from the keyboard, the clock following real time.
#
# How the glass becomes terminal text (half-blocks, colours, shrinking, the
# legend beside it) is render.py; this file is the loop around it. The
# terminal is put in raw mode and always restored, whatever happens. About
# every 50 ms the real time that passed is sent as a `wait`, and the picture is
# fetched and redrawn only when the device says its glass changed. A key press
# itself moves the device's clock on by the time the key is held (debounce), so
# device time runs a little ahead of the wall clock while typing.
import os
import select
import signal
import sys
import time

from ..exits import Exit
from ..lang import say
from .device import SimDevice, SimError
from .render import colour_mode, compose, display_lines

TICK = 0.05  # seconds between waits
MAX_WAIT_MS = 1000  # after a stall (a slow boot, a suspended terminal) do not race through the backlog


_ESCAPES = {
    b"\x1b[A": "CCW", b"\x1bOA": "CCW",  # up
    b"\x1b[D": "CCW", b"\x1bOD": "CCW",  # left
    b"\x1b[B": "CW", b"\x1bOB": "CW",  # down
    b"\x1b[C": "CW", b"\x1bOC": "CW",  # right
    b"\x1bOM": "PUSH",  # keypad Enter
    b"\x1b[15~": "POWER", b"\x1b[[E": "POWER",  # F5 (xterm, Linux console)
}
_SINGLE = {"*": "*", "#": "#", "\x7f": "*", "\x08": "*", "\r": "PUSH", "\n": "PUSH",
           "!": "POWER", "q": "QUIT", "Q": "QUIT", "\x03": "QUIT", "\x04": "QUIT"}


def decode_keys(data):
    """Actions for the bytes read from the terminal: device key names, "POWER" or "QUIT"; other keys are ignored."""
    actions = []
    i, n = 0, len(data)
    while i < n:
        byte = data[i]
        if byte == 0x1B:
            if i + 1 < n and data[i + 1] in b"[O":
                j = i + 2
                if data[i + 1:i + 3] == b"[[":  # Linux console function keys: ESC [ [ letter
                    j += 1
                while j < n and not 0x40 <= data[j] <= 0x7E:
                    j += 1
                action = _ESCAPES.get(bytes(data[i:j + 1]))
                if action:
                    actions.append(action)
                i = j + 1
            else:
                i += 1  # a lone Escape (or Alt+key): ignored
            continue
        ch = chr(byte)
        i += 1
        if ch == "\r" and i < n and data[i] == 0x0A:
            i += 1  # CR LF is one Enter
        if "0" <= ch <= "9":
            actions.append(ch)
        elif ch in "abcdABCD":
            actions.append(ch.upper())
        elif ch in _SINGLE:
            actions.append(_SINGLE[ch])
    return actions


class Terminal:
    """Draws composed screens, rewriting only the lines that changed."""

    def __init__(self, out):
        self.out = out
        self.shown = []
        self.size = None

    def draw(self, lines, size):
        parts = []
        if size != self.size:
            self.size, self.shown = size, []
            parts.append("\x1b[2J")
        for i, line in enumerate(lines):
            if i >= len(self.shown) or self.shown[i] != line:
                parts.append("\x1b[%d;1H%s\x1b[0m\x1b[K" % (i + 1, line))
        for i in range(len(lines), len(self.shown)):
            parts.append("\x1b[%d;1H\x1b[K" % (i + 1))
        self.shown = list(lines)
        if parts:
            self.out.write("".join(parts))
            self.out.flush()


def _raise_exit(signum, frame):
    raise SystemExit(128 + signum)


def unavailable(stdin, stdout, system=None):
    """Why the interactive simulator cannot run here, or None if it can."""
    if (os.name if system is None else system) == "nt":
        return say("sim_windows")
    if not (stdin.isatty() and stdout.isatty()):
        return say("sim_no_terminal")
    return None


def run(command, flash, log_path=None, stdin=None, stdout=None, port=None, wall_clock=None):
    """The interactive simulator; returns the exit code.

    port: the device's serial port, shown on a status line of its own; wall_clock: SimDevice's."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    problem = unavailable(stdin, stdout)
    if problem:
        print("tafel sim: " + problem, file=sys.stderr)
        return Exit.USAGE
    import termios
    import tty

    log = open(log_path, "w", encoding="utf-8") if log_path else open(os.devnull, "w")
    device = SimDevice(command, log=log, wall_clock=wall_clock)
    fd = stdin.fileno()
    saved = termios.tcgetattr(fd)
    old_handlers = {sig: signal.signal(sig, _raise_exit) for sig in (signal.SIGTERM, signal.SIGHUP)}
    failure = None
    try:
        tty.setraw(fd)
        stdout.write("\x1b[?1049h\x1b[?25l\x1b[2J")  # alternate screen, hide the cursor
        stdout.flush()
        _loop(device, fd, Terminal(stdout), flash, port)
    except SimError as err:
        failure = err
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        stdout.write("\x1b[0m\x1b[?25h\x1b[?1049l")  # back to the normal screen, cursor on
        stdout.flush()
        for sig, handler in old_handlers.items():
            signal.signal(sig, handler)
        device.close()
        log.close()
    where = say("sim_where", flash) + (say("sim_log", log_path) if log_path else "")
    if failure is not None:
        print("tafel sim: %s\n%s" % (failure, where), file=sys.stderr)
        return Exit.FAILED
    print(say("sim_off", where))
    return Exit.OK


def status_lines(flash, last, note, port=None):
    """The lines under the display: the serial port on its own (what tafel info/export find), then
    the flash file, the last key and what happened."""
    lines = [say("sim_port_line", port)] if port else []
    return lines + [say("sim_flash_line", flash, last, note)]


def _loop(device, fd, term, flash, port=None):
    status = {"last": "-", "note": say("sim_on")}
    shown = {}
    mode = colour_mode()

    def paint(glass):
        cols, rows = os.get_terminal_size(term.out.fileno())
        key = (cols, rows) if getattr(glass, "colour", False) else None  # colour: the shrink follows the size
        text = status_lines(flash, status["last"], status["note"], port)
        if shown.get("glass") is not glass or shown.get("key") != key:
            shown["glass"], shown["key"] = glass, key
            shown["lines"], shown["width"], shown["style"] = display_lines(glass, cols, rows, mode, len(text))
        title = "Tafel · %s" % device.board
        term.draw(compose(shown["lines"], shown["width"], cols, rows, title, text, shown["style"]), (cols, rows))

    device.start()
    glass = device.snap()
    paint(glass)
    last = time.monotonic()
    while True:
        ready, _, _ = select.select([fd], [], [], max(0.0, last + TICK - time.monotonic()))
        changed = False
        if ready:
            data = os.read(fd, 1024)
            if not data:
                return
            for action in decode_keys(data):
                if action == "QUIT":
                    return
                if action == "POWER":
                    status["note"] = say("sim_cut_at", time.strftime("%H:%M:%S"))
                    device.power_cut()
                    last = time.monotonic()
                    changed = True
                else:
                    status["last"] = action
                    changed = device.key(action) or changed
        now = time.monotonic()
        ms = int((now - last) * 1000)
        if ms >= TICK * 1000:
            changed = device.wait(min(ms, MAX_WAIT_MS)) or changed
            last = now if ms > MAX_WAIT_MS else last + ms / 1000.0
        if changed:
            glass = device.snap()
        paint(glass)  # cheap when nothing changed: only lines that differ (status, a resize) are written
