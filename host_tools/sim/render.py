# The simulator's display as terminal text: half-blocks, colours, shrinking to fit, the framed screen.
#
# Each character cell shows two pixels, one above the other (▀ ▄ █). A colour
# glass is drawn with ▀ in 24-bit ANSI colours, or the 256-colour palette, or
# lit/dark on a terminal without colours; when too small it is shrunk 2x or 3x
# (see terminal.py for the interactive loop that uses this).
import os
import re
from collections import Counter

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


def fit_factor(width, height, cols, rows, status_lines=1):
    """1, 2 or 3: the smallest shrink at which a width x height display, its short legend and the
    status lines fit the terminal."""
    for factor in (1, 2, 3):
        w = -(-width // factor)
        h = (-(-height // factor) + 1) // 2  # text lines: two pixel rows each
        if cols >= w + 2 and rows >= h + 2 + len(SHORT_LEGEND) + status_lines:
            return factor
    return 3


def visible_len(text):
    return len(_ANSI.sub("", text))


def _fit(text, width):
    return text if len(text) <= width else text[:max(width - 1, 0)] + "…"


def compose(glass_lines, width, cols, rows, title, status, style=GLASS_ON):
    """The whole terminal screen as lines (with colours): framed display, key legend, status line(s).

    status: one line of text, or a list of lines, each on its own row at the bottom (shown even when
    the terminal is too small for the display). style goes in front of every display line (the
    OLED's colours); colour lines carry their own ("").
    """
    status = [status] if isinstance(status, str) else list(status)
    frame_w, frame_h = width + 2, len(glass_lines) + 2
    need_rows = frame_h + len(SHORT_LEGEND) + len(status)
    side = cols >= frame_w + 2 + LEGEND_WIDTH and rows >= max(frame_h, len(LEGEND)) + len(status)
    if not side and (cols < frame_w or rows < need_rows):
        return [
            "Tafel simulator: this terminal is %d x %d; the display needs at least %d x %d." % (cols, rows, frame_w, need_rows),
            "Make the window larger (or the font smaller). q quits.",
            "",
        ] + [_fit(line, cols) for line in status]
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
    screen += [DIM + _fit(line, cols) + RESET for line in status]
    return screen


def display_lines(glass, cols, rows, mode, status_lines=1):
    """(lines, width, style): the glass drawn for a terminal of cols x rows."""
    if not getattr(glass, "colour", False):
        return half_blocks(glass), glass.width, GLASS_ON
    factor = fit_factor(glass.width, glass.height, cols, rows, status_lines)
    return colour_blocks(glass, factor, mode), -(-glass.width // factor), GLASS_ON if mode == "mono" else ""
