# The simulator's PNG files (sim/glass.py, written with Pillow), read back with Pillow: size, mode, every pixel.
import io

import pytest
from PIL import Image

from tafel_host.sim.glass import DARK, LIT, SEAM, ColourGlass, Glass


def read_png(data):
    """(width, height, depth, rows) of an 8-bit greyscale PNG: rows of pixel values 0-255."""
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG" and picture.mode == "L"
    width, height = picture.size
    values = picture.tobytes()
    return width, height, 8, [list(values[y * width:(y + 1) * width]) for y in range(height)]


def read_rgb_png(data):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB PNG."""
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG" and picture.mode == "RGB"
    width, height = picture.size
    values = picture.tobytes()
    return width, height, [[tuple(values[i:i + 3]) for i in range(y * width * 3, (y + 1) * width * 3, 3)]
                           for y in range(height)]


def mono(lit, width=3, height=8):
    """A Glass of width x height (MONO_VLSB: a byte is 8 rows of one column) with the pixels in `lit` on."""
    data = bytearray(width * ((height + 7) // 8))
    for x, y in lit:
        data[(y >> 3) * width + x] |= 1 << (y & 7)
    return Glass(width, height, bytes(data), [])


def test_a_small_scale_draws_plain_blocks():
    width, height, depth, rows = read_png(mono({(1, 0)}).png(scale=2))
    assert (width, height, depth) == (6, 16, 8)
    assert rows[0] == rows[1] == [DARK, DARK, LIT, LIT, DARK, DARK]
    assert rows[2] == [DARK] * 6


def test_a_lit_pixel_at_4x_has_a_face_and_a_seam_on_black():
    width, height, _, rows = read_png(mono({(0, 0), (2, 1)}).png(scale=4))
    assert (width, height) == (12, 32)
    assert rows[0][:4] == rows[2][:4] == [LIT, LIT, LIT, SEAM]  # the face, its right edge the seam
    assert rows[3][:4] == [SEAM] * 4  # the seam along its bottom
    assert rows[0][4:8] == [DARK] * 4  # an unlit pixel is the black glass
    assert rows[4][8:12] == [LIT, LIT, LIT, SEAM] and rows[7][8:12] == [SEAM] * 4
    assert sum(1 for row in rows for v in row if v == LIT) == 2 * 9


def test_colour_glass_is_rgb_in_plain_blocks():
    red, blue = 0xF800, 0x001F
    data = b"".join(bytes((c >> 8, c & 0xFF)) for c in (red, 0, 0, blue))
    width, height, rows = read_rgb_png(ColourGlass(2, 2, data, []).png(scale=3))
    assert (width, height) == (6, 6)
    assert rows[0] == rows[2] == [(255, 0, 0)] * 3 + [(0, 0, 0)] * 3
    assert rows[5] == [(0, 0, 0)] * 3 + [(0, 0, 255)] * 3


@pytest.mark.parametrize("scale", [0, -1])
def test_a_scale_below_one_is_refused(scale):
    with pytest.raises(ValueError):
        mono(set()).png(scale=scale)
    with pytest.raises(ValueError):
        ColourGlass(1, 1, b"\x00\x00", []).png(scale=scale)
