# Test helper (not a test): the colour board (T-Display, ST7789) on the simulated machine, and the picture its glass must show.
import os

import board
from sim import simmachine

_HERE = __file__ if __file__.startswith("/") else os.getcwd() + "/" + __file__
REPO = _HERE.rsplit("/", 3)[0]
PROFILE = REPO + "/hardware/boards/lilygo-tdisplay-st7789.json"

TOP = 3  # the 240x128 picture is centred in 135 rows: 3 above, 4 below


def profile():
    return board.load_profile(PROFILE)


def make(prof=None, strict=True, chip_prof=None):
    """(hw, board): the simulated machine (wired by chip_prof, default the same profile) and the board built on it."""
    prof = prof or profile()
    hw = simmachine.from_profile(chip_prof or prof, strict)
    return hw, board.build(prof, hw)


def columns(x):
    """The panel columns of logical column x, worked out afresh: 16 cells of 15 pixels, a cell's column 0 one pixel wide."""
    cell, i = x // 8, x % 8
    start = 15 * cell + (0 if i == 0 else 2 * i - 1)
    return range(start, start + (1 if i == 0 else 2))


def inverted_cell(buf, page, cell):
    # Rows 0 and 1 of the cell's column 0 lit: no glyph lights them, an inverted cell always does.
    return buf[page * 128 + cell * 8] & 3 == 3


def expected(buf, palette):
    """The glass (240x135 RGB565, big-endian bytes) for a 128x64 MONO_VLSB picture `buf`."""
    fg, bg, accent = palette["fg"], palette["bg"], palette["accent"]
    out = bytearray(240 * 135 * 2)
    for i in range(0, len(out), 2):
        out[i] = bg >> 8
        out[i + 1] = bg & 0xFF
    for y in range(64):
        page = y >> 3
        for x in range(128):
            lit = buf[page * 128 + x] >> (y & 7) & 1
            if inverted_cell(buf, page, x // 8):
                colour = accent if lit else bg
            else:
                colour = fg if lit else bg
            if colour == bg:
                continue
            for yy in (TOP + 2 * y, TOP + 2 * y + 1):
                for xx in columns(x):
                    i = (yy * 240 + xx) * 2
                    out[i] = colour >> 8
                    out[i + 1] = colour & 0xFF
    return out


def colours(glass):
    """The set of RGB565 values on a glass."""
    return set(glass[i] << 8 | glass[i + 1] for i in range(0, len(glass), 2))


class NullSPI:
    """Takes bytes and counts them; allocates nothing."""

    def __init__(self):
        self.bytes = 0

    def write(self, buf):
        self.bytes += len(buf)


class NullPin:
    def __call__(self, v=None):
        return 0


class NullPWM:
    def __init__(self):
        self.duty = 0

    def duty_u16(self, value=None):
        if value is not None:
            self.duty = value
        return self.duty


def no_sleep(ms):
    pass
