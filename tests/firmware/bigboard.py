# Test helper (not a test): the 320x240 board (DevKitC, ILI9341) on the simulated machine, and the glass it must show.
import os

import board
from sim import simmachine

_HERE = __file__ if __file__.startswith("/") else os.getcwd() + "/" + __file__
REPO = _HERE.rsplit("/", 3)[0]
PROFILE = REPO + "/hardware/boards/esp32-devkitc-ili9341.json"
W, H = 320, 240


def profile(**display):
    """The profile, its display section changed by `display` (e.g. pixel_scale=1, text_scale=2)."""
    p = board.load_profile(PROFILE)
    p["display"].update(display)
    return p


def make(prof=None, strict=True, chip_prof=None):
    """(hw, board): the simulated machine (wired by chip_prof, default the same profile) and the board built on it."""
    prof = prof or profile()
    hw = simmachine.from_profile(chip_prof or prof, strict)
    return hw, board.build(prof, hw)


def lit(display, x, y):
    """Picture pixel (x, y) of the driver's MONO_HLSB framebuffer."""
    return display.buffer[(y * display.width + x) >> 3] >> (7 - (x & 7)) & 1


def inverted(display, x, y):
    """Whether picture pixel (x, y) lies in a text cell the canvas drew inverted (it tells the driver)."""
    cell = 8 * display.text_scale
    return display.inverted_cells[y // cell] >> (x // cell) & 1


def expected(display, palette):
    """The glass (320x240 RGB565, big-endian bytes) the driver's picture must make, worked out afresh."""
    fg, bg, accent = palette["fg"], palette["bg"], palette["accent"]
    s = W // display.width
    out = bytearray(W * H * 2)
    for i in range(0, len(out), 2):
        out[i] = bg >> 8
        out[i + 1] = bg & 0xFF
    for y in range(display.height):
        for x in range(display.width):
            if not lit(display, x, y):
                continue
            colour = accent if inverted(display, x, y) else fg
            for yy in range(s * y, s * y + s):
                for xx in range(s * x, s * x + s):
                    i = (yy * W + xx) * 2
                    out[i] = colour >> 8
                    out[i + 1] = colour & 0xFF
    return out


def colours(glass):
    """The set of RGB565 values on a glass."""
    return set(glass[i] << 8 | glass[i + 1] for i in range(0, len(glass), 2))
