# The simulated board's parts on CPython (host_tools/simboard): the launcher's own copy of the display models.
#
# The firmware tests drive these models in MicroPython (tests/firmware/test_st7789.py and the
# others); on CPython the launcher takes quicker paths through the same RAM (extended slices for a
# rotated panel's strided rows, a fingerprint of the RAM and state instead of a rendered glass).
# They must show exactly what the pixel-by-pixel paths show.
import random

import pytest

from tafel_host.simboard import glass565, st7789
from tafel_host.simboard.ili9341 import ILI9341Chip
from tafel_host.simboard.st7789 import ST7789Chip

PANELS = [(ST7789Chip, (240, 135, 1, True)), (ST7789Chip, (135, 240, 2, True)), (ILI9341Chip, (320, 240, 1, False)),
          (ILI9341Chip, (240, 320, 0, False)), (ILI9341Chip, (320, 240, 3, False))]


def _paint(chip_class, args, quick):
    rng = random.Random(1)
    if not quick:  # as MicroPython has to: no extended slices
        st7789._strided = glass565._gathered = lambda *a: False
    chip = chip_class(*args, strict=False)
    chip.clock = lambda: 10 ** 6
    for madctl in (0x00, 0x60, 0xA0, 0xC0, 0x20, 0x40, 0x80, 0xE8, 0x28):
        chip.spi_write(bytes([0x36]), 0)
        chip.spi_write(bytes([madctl]), 1)
        chip.spi_write(bytes([0x2A]), 0)
        chip.spi_write(bytes([0, 10, 0, 200]), 1)
        chip.spi_write(bytes([0x2B]), 0)
        chip.spi_write(bytes([0, 5, 0, 100]), 1)
        chip.spi_write(bytes([0x2C]), 0)
        chip.spi_write(bytes(rng.randrange(256) for _ in range(2 * 191 * 50 + 1)), 1)  # an odd byte left over
    chip.asleep, chip.display_on = False, True
    chip.set_backlight(1.0)
    glasses = []
    for madctl in (0x00, 0x60, 0xA0, 0xC0, 0x28):
        chip.madctl = madctl
        chip._stale()
        glasses.append((bytes(chip.picture()), chip.fingerprint()))
    return bytes(chip.ram), glasses


@pytest.mark.parametrize("chip_class, args", PANELS)
def test_the_quick_paths_show_what_the_pixel_by_pixel_ones_show(chip_class, args, monkeypatch):
    quick = _paint(chip_class, args, True)
    monkeypatch.setattr(st7789, "_strided", st7789._strided)
    monkeypatch.setattr(glass565, "_gathered", glass565._gathered)
    slow = _paint(chip_class, args, False)
    assert quick == slow


def test_the_fingerprint_changes_with_the_picture_only():
    chip = ST7789Chip(240, 135, 1, True, strict=False)
    chip.asleep, chip.display_on = False, True
    chip.set_backlight(1.0)
    seen = chip.fingerprint()
    assert chip.fingerprint() == seen  # nothing changed
    chip.ram[100] ^= 0xFF
    assert chip.fingerprint() != seen  # a cell behind the glass
    seen = chip.fingerprint()
    chip.inv_on = not chip.inv_on
    assert chip.fingerprint() != seen  # the inversion
    chip.display_on = False
    assert chip.fingerprint() == 0  # dark
