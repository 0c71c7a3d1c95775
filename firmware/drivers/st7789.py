# ST7789 colour LCD driver without a frame buffer in colour: the UI draws on a 1 KB mono framebuf, pages go out scaled and coloured.
#
# A full 240x135 RGB565 frame would take 64 KB, the whole heap. Instead the
# driver *is* a framebuf.FrameBuffer of the UI's logical size, MONO_VLSB
# 128x64 (1 KB), exactly like the SSD1306 driver, so the canvas and every
# screen run unchanged. show_pages(mask) turns each changed 8-pixel page into
# a band of the panel, 16 rows high:
#
#   - horizontally 15/8 on the T-Display: each 8-pixel glyph cell becomes 15
#     panel columns (16 cells fill 240). The cell's column 0 gets 1 pixel and
#     columns 1-7 get 2: framebuf's 8x8 font uses column 0 as its spacing
#     column (4 of 95 glyphs touch it, 12 touch column 7), so glyphs stay
#     crisp. Other panel widths spread their spare pixels the same way
#     (column 0 narrowest, then 7, 1, 6 ...). The page's bytes are copied to
#     their panel columns into `_band`, one MONO_VLSB page 240 wide (241 B:
#     each byte goes to its first panel column and the one after, which the
#     next column overwrites where it is narrow, so no table of widths).
#   - colour: each of the band's 8 rows is blitted by framebuf (in C) through
#     a 2-colour palette into the first row of the strip (drivers/lcd565.py:
#     two panel rows of RGB565, 960 B);
#   - vertically 2x: that row is copied to the strip's second row (a slice
#     copy, memcpy) and the strip is sent: eight strips a page.
#
# A glyph cell whose column 0 has rows 0 and 1 lit is an inverted cell (no
# glyph ever lights them; the canvas's inverted rows and bars light the
# whole cell): it is drawn with the accent palette, text in the background
# colour on the accent colour. A fully inverted page (a title bar) is one
# blit with the accent palette. A page with some inverted cells (the cursor
# on a name) is blitted with the normal palette, then its inverted cells'
# columns alone (copied into `_mask`, the rest zero) once more with the
# accent for lit pixels and the background transparent.
#
# The 240x128 picture sits vertically centred in the 135 rows (3 above, 4
# below); the margins are cleared once at start-up. Everything per page is
# preallocated: show_pages() and show() allocate nothing. Heap: 1024 B
# framebuffer + 241 + 240 B band and mask + 960 B strip + 128 B column map +
# palettes and views (bench/display_redraw.py measures the total).
#
# Colours are RGB565; the panel takes them big-endian, framebuf stores them
# little-endian, so the palettes hold them byte-swapped. contrast() is the
# backlight (PWM duty when the board gives a PWM object, else on/off);
# poweroff()/poweron() are the controller's sleep (SLPIN/SLPOUT) with the
# backlight. Commands, palettes, backlight, sleep and the SPI bus are shared
# with the ILI9341 driver: drivers/lcd565.py.
import framebuf

from drivers.lcd565 import (  # noqa: F401 (rgb565, swap16: this module's API before the split)
    Lcd565,
    rgb565,
    spi_begin_pixels,
    spi_bus,
    spi_end_pixels,
    spi_reset,
    spi_write_cmd,
    spi_write_data,
    swap16,
)
from tafel.compat import const

# MADCTL per rotation (quarter turns clockwise from the panel's portrait):
# MY 0x80, MX 0x40, MV 0x20 (row/column exchange); RGB order.
MADCTL = (0x00, 0x60, 0xC0, 0xA0)

_LOGICAL_W = const(128)  # what the UI draws on: 16 x 8 text cells of 8x8
_LOGICAL_H = const(64)
_PAGES = const(8)
_INVERTED = const(0x03)  # rows 0 and 1 of a cell's column 0: lit only in inverted cells
# Which glyph column loses its second pixel first when a cell is narrower than 16.
_NARROW_ORDER = (0, 7, 1, 6, 2, 5, 3, 4)


class ST7789(Lcd565):
    width = _LOGICAL_W  # what the canvas sees: the logical display
    height = _LOGICAL_H
    pages = _PAGES
    _all_pages = 0xFF

    def __init__(self, width, height, rotation=1, x_offset=0, y_offset=0, palette=None,
                 invert_colours=True, backlight=None, sleep_ms=None):
        if not (_LOGICAL_W <= width <= 2 * _LOGICAL_W and 2 * _LOGICAL_H <= height):
            raise ValueError("st7789: a %dx%d panel cannot show the 128x64 UI at 2x" % (width, height))
        self.buffer = bytearray(_LOGICAL_W * _LOGICAL_H // 8)
        super().__init__(self.buffer, _LOGICAL_W, _LOGICAL_H, framebuf.MONO_VLSB)
        self.setup(width, height, rotation, x_offset, y_offset, palette, invert_colours, backlight, sleep_ms)

        # Horizontal map: logical column j starts at panel column _xs[j] (2 pixels wide unless
        # the next column starts 1 further on).
        cell = width // 16
        narrow = _NARROW_ORDER[:16 - cell]
        x = (width - 16 * cell) // 2
        xs = self._xs = bytearray(_LOGICAL_W)
        for j in range(_LOGICAL_W):
            xs[j] = x
            x += 1 if (j & 7) in narrow else 2
        self._cell_w = cell
        self._y0 = (height - 2 * _LOGICAL_H) // 2  # centred: rows above the picture

        # The band (one mono page of panel width, a byte more for the last column's second
        # write) and the inverted cells' columns of it, for a second blit in the accent.
        self._bandbuf = bytearray(width + 1)
        self._band = framebuf.FrameBuffer(self._bandbuf, width, 8, framebuf.MONO_VLSB)
        self._maskbuf = bytearray(width)
        self._mask = framebuf.FrameBuffer(self._maskbuf, width, 8, framebuf.MONO_VLSB)
        self.make_strip(1)  # one panel row blitted, copied to the second
        self.init_display()

    # ---- set-up -------------------------------------------------------------------
    def init_display(self):
        self.reset()
        self.power_up(MADCTL[self.rotation])

    # ---- drawing ------------------------------------------------------------------
    def show_pages(self, mask):
        """Send only the pages whose bit is set in mask (bit p: rows 8p..8p+7 of the 128x64 picture).

        Each run of neighbouring pages costs one address window; a page costs
        eight strips of 240x2 pixels (7680 bytes on the bus).
        """
        p = 0
        while p < _PAGES:
            if not mask & (1 << p):
                p += 1
                continue
            q = p
            while q < _PAGES - 1 and mask & (1 << (q + 1)):
                q += 1
            y = self._y0 + 16 * p
            self._window(y, self._y0 + 16 * q + 15)
            self.begin_pixels()
            while p <= q:
                self._send_page(p)
                p += 1
            self.end_pixels()

    def _send_page(self, p):
        buf, band = self.buffer, self._bandbuf
        i = p * _LOGICAL_W
        for x in self._xs:
            b = buf[i]
            band[x] = b
            band[x + 1] = b  # the second pixel of a wide column; a narrow one's neighbour writes over it
            i += 1
        # Inverted cells (bars, the cursor): bit c set.
        inverted = 0
        i = p * _LOGICAL_W
        for c in range(16):
            if buf[i + (c << 3)] & _INVERTED == _INVERTED:
                inverted |= 1 << c
        palette = self._normal
        mixed = inverted and inverted != 0xFFFF
        if mixed:
            self._mask.fill(0)
            mask, xs, w = self._maskbuf, self._xs, self._cell_w
            for c in range(16):
                if inverted & (1 << c):
                    left = xs[c << 3]
                    for x in range(left, left + w):
                        mask[x] = band[x]
        elif inverted:
            palette = self._accent
        # Each logical row into the strip's first row, copied down to the second, sent.
        # (no more than three names assigned at once: four would build a tuple on the heap)
        line, top, below = self._line, self._top, self._below
        source = self._band
        for y in range(8):
            line.blit(source, 0, -y, -1, palette)
            if mixed:
                line.blit(self._mask, 0, -y, self._key, self._accent)
            below[:] = top
            self.pixels(self._stripbuf)


class ST7789_SPI(ST7789):
    """On a 4-wire SPI bus (drivers/lcd565.py): DC low for a command byte, high for its parameters and pixels."""

    def __init__(self, width, height, spi, dc, cs=None, rst=None, **options):
        spi_bus(self, spi, dc, cs, rst)
        super().__init__(width, height, **options)

    reset = spi_reset
    write_cmd = spi_write_cmd
    write_data = spi_write_data
    begin_pixels = spi_begin_pixels
    end_pixels = spi_end_pixels
