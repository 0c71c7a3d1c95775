# Large digits for the table view: a 5x7 font as rectangles in flash, drawn at any whole scale by fill_rect.
#
# What standings need and nothing more: 0-9, '-', '+' and the space. Each
# glyph is a 5 x 7 grid (the drawings are in tests/firmware/test_bigfont.py)
# kept as the few rectangles that cover it, two bytes each (x << 4 | y,
# w << 4 | h): 130 bytes of a bytes constant, which a frozen module keeps in
# flash. Drawing a digit is a handful of fill_rect calls whatever the scale
# (framebuf's C fills the pixels), nothing is allocated, and no Python loop
# runs over pixels. A character advances 6 grid columns (one blank between
# two); width() leaves the last one's blank off.
#
# draw() can clip to a band of rows (top..bottom-1), so a screen that redraws
# one text row of a two-row line draws exactly that row's share of the digits.
from tafel.compat import const

HEIGHT = const(7)  # grid rows of a glyph
_ADVANCE = const(6)  # grid columns from one character to the next

_CHARS = "0123456789-+ "
_AT = bytes([0, 8, 16, 30, 44, 58, 70, 84, 94, 108, 122, 124, 130, 130])
_RECTS = (
    b"\x10\x31\x01\x15\x41\x15\x16\x31\x20\x11\x11\x21\x22\x14\x16\x31\x10\x31\x01\x11\x41\x12\x33\x11"
    b"\x24\x11\x15\x11\x06\x51\x10\x31\x01\x11\x41\x12\x23\x21\x44\x12\x05\x11\x16\x31\x30\x11\x21\x21"
    b"\x12\x11\x32\x12\x03\x11\x04\x51\x35\x12\x00\x51\x01\x11\x02\x41\x43\x13\x05\x11\x16\x31\x20\x21"
    b"\x11\x11\x02\x11\x03\x41\x04\x12\x44\x12\x16\x31\x00\x51\x41\x11\x32\x11\x23\x11\x14\x13\x10\x31"
    b"\x01\x12\x41\x12\x13\x31\x04\x12\x44\x12\x16\x31\x10\x31\x01\x12\x41\x12\x13\x41\x44\x11\x35\x11"
    b"\x16\x21\x03\x51\x21\x12\x03\x51\x24\x12"
)


def width(text, scale):
    """Pixels `text` takes at `scale`."""
    return len(text) * _ADVANCE * scale - scale if text else 0


def height(scale):
    return HEIGHT * scale


def draw(display, x, y, text, scale, colour=1, top=0, bottom=None):
    """Draw `text` with its top left corner at (x, y), each grid cell scale x scale pixels;
    only rows top..bottom-1 are touched (bottom None: to the display's end). A character
    the font lacks is left blank."""
    if bottom is None:
        bottom = y + HEIGHT * scale
    rects, at = _RECTS, _AT
    for ch in text:
        i = _CHARS.find(ch)
        if i >= 0:
            for k in range(at[i], at[i + 1], 2):
                a, b = rects[k], rects[k + 1]
                y0 = y + (a & 15) * scale
                y1 = y0 + (b & 15) * scale
                if y0 < top:
                    y0 = top
                if y1 > bottom:
                    y1 = bottom
                if y1 > y0:
                    display.fill_rect(x + (a >> 4) * scale, y0, (b >> 4) * scale, y1 - y0, colour)
        x += _ADVANCE * scale
