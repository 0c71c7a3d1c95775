# Interactive simulator: the display drawn in the terminal with half-blocks, keys from the keyboard, the clock following real time.
#
# Each character cell shows two pixels, one above the other (▀ ▄ █), so the
# 128x64 display takes 128 columns by 32 lines and keeps its proportions. A
# colour display (the 240x135 LCD) is drawn with ▀ in 24-bit ANSI colours
# (the upper pixel's colour in front, the lower one's behind), or in the
# 256-colour palette when the terminal does not announce 24-bit colour
# (COLORTERM), or as lit/dark half-blocks on a terminal without colours;
# TAFEL_SIM_COLOURS=truecolor|256|mono chooses. When the terminal is too
# small for it at full size it is shrunk 2x or 3x, each block taking its
# most common colour (a tie goes to the rarer colour, the text's), blocks
# aligned to the picture's own pixel doubling so the glyphs stay sharp. The
# terminal is put in raw mode and always restored, whatever happens. About
# every 50 ms the real time that passed is sent as a `wait`, and the picture is
# fetched and redrawn only when the device says its glass changed. A key press
# itself moves the device's clock on by the time the key is held (debounce), so
# device time runs a little ahead of the wall clock while typing.
import os
import re
import select
import signal
import sys
import time
from collections import Counter

from .sim_device import SimDevice, SimError

TICK = 0.05  # seconds between waits
MAX_WAIT_MS = 1000  # after a stall (a slow boot, a suspended terminal) do not race through the backlog

GLASS_ON = "\x1b[38;5;195;40m"  # light cyan-white on black, as an OLED
DIM = "\x1b[2m"
BOLD = "\x1b[1m"
RESET = "\x1b[0m"
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

LEGEND = [
    BOLD + "keypad" + RESET,
    "  0-9    digits, T9 letters",
    "  a      A  Sieger",
    "  b      B  + (another addend)",
    "  c      C  up / previous",
    "  d      D  down / next",
    "  *      back / delete (Backspace)",
    "  #      OK",
    BOLD + "knob" + RESET,
    "  ← ↑    turn left (CCW)",
    "  → ↓    turn right (CW)",
    "  Enter  push (OK)",
    BOLD + "simulator" + RESET,
    "  ! F5   power cut, then power on",
    "  q      quit (Ctrl-C too)",
]
LEGEND_WIDTH = 36
SHORT_LEGEND = [
    "keypad: 0-9 digits · a-d = A Sieger, B +, C up, D down · * back (Backspace) · # OK",
    "knob: ←↑ turn left, →↓ turn right, Enter push · ! or F5 power cut · q or Ctrl-C quit",
]

# Escape sequences of the keys we use (normal and application cursor mode).
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


def half_blocks(glass):
    """The glass as text: one character per pixel column and per two pixel rows."""
    w, data = glass.width, glass.data
    lines = []
    for r in range((glass.height + 1) // 2):
        base, shift = (r // 4) * w, (r % 4) * 2  # two rows of one 8-pixel page: bits 2k (top) and 2k+1 (bottom)
        lines.append("".join(" ▀▄█"[(data[base + x] >> shift) & 3] for x in range(w)))
    return lines


# -- colour displays --

def colour_mode(env=None):
    """"truecolor", "256" or "mono": what the terminal can show, from the environment."""
    env = os.environ if env is None else env
    chosen = env.get("TAFEL_SIM_COLOURS", "").lower()
    if chosen in ("truecolor", "256", "mono"):
        return chosen
    if env.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "truecolor"
    term = env.get("TERM", "")
    if not term or term in ("dumb", "vt100", "vt220", "linux"):
        return "mono"
    return "256"


def _rgb(colour):
    r, g, b = colour >> 11 & 0x1F, colour >> 5 & 0x3F, colour & 0x1F
    return r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2


_CUBE = (0, 95, 135, 175, 215, 255)  # the 6x6x6 cube of the 256-colour palette


def xterm256(colour):
    """The nearest of the 256-colour palette's cube (16-231) and grey ramp (232-255) to an RGB565 colour."""
    r, g, b = _rgb(colour)

    def level(v):
        return min(range(6), key=lambda i: abs(_CUBE[i] - v))

    ci = (level(r), level(g), level(b))
    cube = (_CUBE[ci[0]], _CUBE[ci[1]], _CUBE[ci[2]])
    grey = min(23, max(0, round(((r + g + b) / 3 - 8) / 10)))
    gv = 8 + 10 * grey

    def dist(c):
        return (c[0] - r) ** 2 + (c[1] - g) ** 2 + (c[2] - b) ** 2

    if dist((gv, gv, gv)) < dist(cube):
        return 232 + grey
    return 16 + 36 * ci[0] + 6 * ci[1] + ci[2]


def _phase(lines, factor):
    """The offset (0..factor-1) at which blocks of `factor` lines mix the fewest different lines."""
    best, best_mixed = 0, None
    for p in range(factor):
        mixed = 0
        for start in range(p - factor if p else 0, len(lines), factor):
            block = lines[max(start, 0):start + factor]
            if any(line != block[0] for line in block[1:]):
                mixed += 1
        if best_mixed is None or mixed < best_mixed:
            best, best_mixed = p, mixed
    return best


def shrink(rows, factor):
    """Rows of colours, factor x factor pixels to one: each block's most common colour, a tie to the rarer one overall."""
    if factor == 1:
        return [list(row) for row in rows]
    overall = Counter(c for row in rows for c in row)
    py = _phase(rows, factor)
    px = _phase(list(zip(*rows)), factor)
    height, width = len(rows), len(rows[0])
    out = []
    for y0 in range(py - factor if py else 0, height, factor):
        ys = range(max(y0, 0), min(y0 + factor, height))
        line = []
        for x0 in range(px - factor if px else 0, width, factor):
            xs = range(max(x0, 0), min(x0 + factor, width))
            counts = Counter(rows[y][x] for y in ys for x in xs)
            line.append(max(counts, key=lambda c: (counts[c], -overall[c])))
        out.append(line)
    return out


def colour_blocks(glass, factor=1, mode="truecolor"):
    """A colour glass as text lines: ▀ with the upper pixel's colour in front and the lower one's behind."""
    rows = shrink(glass.rows(), factor)
    if len(rows) % 2:
        rows.append(rows[-1])
    if mode == "mono":  # lit: anything but the most common colour (the background)
        back = Counter(c for row in rows for c in row).most_common(1)[0][0]
        return ["".join(" ▀▄█"[(top != back) | (bottom != back) << 1] for top, bottom in zip(upper, lower))
                for upper, lower in zip(rows[0::2], rows[1::2])]
    if mode == "truecolor":
        def fg(c):
            return "\x1b[38;2;%d;%d;%dm" % _rgb(c)

        def bg(c):
            return "\x1b[48;2;%d;%d;%dm" % _rgb(c)
    else:
        def fg(c):
            return "\x1b[38;5;%dm" % xterm256(c)

        def bg(c):
            return "\x1b[48;5;%dm" % xterm256(c)
    lines = []
    for upper, lower in zip(rows[0::2], rows[1::2]):
        parts, front, back = [], None, None
        for top, bottom in zip(upper, lower):
            if bottom != back:
                parts.append(bg(bottom))
                back = bottom
            if top == bottom:
                parts.append(" ")  # the background colour alone
                continue
            if top != front:
                parts.append(fg(top))
                front = top
            parts.append("▀")
        lines.append("".join(parts) + RESET)
    return lines


def fit_factor(width, height, cols, rows):
    """1, 2 or 3: the smallest shrink at which a width x height display and its short legend fit the terminal."""
    for factor in (1, 2, 3):
        w = -(-width // factor)
        h = (-(-height // factor) + 1) // 2  # text lines: two pixel rows each
        if cols >= w + 2 and rows >= h + 2 + len(SHORT_LEGEND) + 1:
            return factor
    return 3


def visible_len(text):
    return len(_ANSI.sub("", text))


def _fit(text, width):
    return text if len(text) <= width else text[:max(width - 1, 0)] + "…"


def compose(glass_lines, width, cols, rows, title, status, style=GLASS_ON):
    """The whole terminal screen as lines (with colours): framed display, key legend, status line.

    style goes in front of every display line (the OLED's colours); colour lines carry their own ("").
    """
    frame_w, frame_h = width + 2, len(glass_lines) + 2
    need_rows = frame_h + len(SHORT_LEGEND) + 1
    side = cols >= frame_w + 2 + LEGEND_WIDTH and rows >= max(frame_h, len(LEGEND)) + 1
    if not side and (cols < frame_w or rows < need_rows):
        return [
            "Tafel simulator: this terminal is %d x %d; the display needs at least %d x %d." % (cols, rows, frame_w, need_rows),
            "Make the window larger (or the font smaller). q quits.",
            "",
            _fit(status, cols),
        ]
    label = " %s " % title
    top = "┌" + label + "─" * max(width - len(label), 0) + "┐"
    screen = [top] + ["│" + style + line + RESET + "│" for line in glass_lines] + ["└" + "─" * width + "┘"]
    if side:
        for i, text in enumerate(LEGEND):
            while len(screen) <= i:
                screen.append(" " * frame_w)
            screen[i] += "  " + text
    else:
        screen += [_fit(text, cols) for text in SHORT_LEGEND]
    screen.append(DIM + _fit(status, cols) + RESET)
    return screen


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
        return ("the interactive simulator needs a POSIX terminal: on Windows run it in WSL; "
                "headless mode (tafel sim --script FILE --out DIR) works here")
    if not (stdin.isatty() and stdout.isatty()):
        return ("interactive mode needs a terminal (standard input and output); "
                "for scripts and tests use tafel sim --script FILE --out DIR")
    return None


def run(command, flash, log_path=None, stdin=None, stdout=None):
    """The interactive simulator; returns the exit code."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    problem = unavailable(stdin, stdout)
    if problem:
        print("tafel sim: " + problem, file=sys.stderr)
        return 2
    import termios
    import tty

    log = open(log_path, "w", encoding="utf-8") if log_path else open(os.devnull, "w")
    device = SimDevice(command, log=log)
    fd = stdin.fileno()
    saved = termios.tcgetattr(fd)
    old_handlers = {sig: signal.signal(sig, _raise_exit) for sig in (signal.SIGTERM, signal.SIGHUP)}
    failure = None
    try:
        tty.setraw(fd)
        stdout.write("\x1b[?1049h\x1b[?25l\x1b[2J")  # alternate screen, hide the cursor
        stdout.flush()
        _loop(device, fd, Terminal(stdout), flash)
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
    where = "flash image: %s" % flash + ("; device log: %s" % log_path if log_path else "")
    if failure is not None:
        print("tafel sim: %s\n%s" % (failure, where), file=sys.stderr)
        return 1
    print("tafel sim: switched off; %s" % where)
    return 0


def display_lines(glass, cols, rows, mode):
    """(lines, width, style): the glass drawn for a terminal of cols x rows."""
    if not getattr(glass, "colour", False):
        return half_blocks(glass), glass.width, GLASS_ON
    factor = fit_factor(glass.width, glass.height, cols, rows)
    return colour_blocks(glass, factor, mode), -(-glass.width // factor), GLASS_ON if mode == "mono" else ""


def _loop(device, fd, term, flash):
    status = {"last": "-", "note": "on"}
    shown = {}
    mode = colour_mode()

    def paint(glass):
        cols, rows = os.get_terminal_size(term.out.fileno())
        key = (cols, rows) if getattr(glass, "colour", False) else None  # colour: the shrink follows the size
        if shown.get("glass") is not glass or shown.get("key") != key:
            shown["glass"], shown["key"] = glass, key
            shown["lines"], shown["width"], shown["style"] = display_lines(glass, cols, rows, mode)
        title = "Tafel · %s" % device.board
        text = "flash %s · last key: %s · %s" % (flash, status["last"], status["note"])
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
                    status["note"] = "power cut at %s, on again" % time.strftime("%H:%M:%S")
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
