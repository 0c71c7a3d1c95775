# ILI9341 colour LCD driver (2.8"/3.2" 320x240): the UI draws on a mono framebuf, pages go out in RGB565 strips.
#
# A 320x240 RGB565 frame would be 150 KB, twice the whole heap. As the ST7789
# driver does (drivers/st7789.py), this driver *is* a one-bit framebuf.FrameBuffer
# (MONO_HLSB) and turns each changed 8-row page into RGB565 only on its way out,
# through drivers/lcd565.py's palettes (text colour, background, the accent for
# inverted cells: title bars and the cursor), a few rows at a time.
#
# How big the picture is decides the heap, and two profile fields choose it:
#   pixel_scale  each picture pixel is a pixel_scale x pixel_scale block on the
#                glass: 2 gives a 160x120 picture (2400 B), 1 the glass's own
#                320x240 (9600 B);
#   text_scale   what the canvas (ui/canvas.py) reads from .text_scale: each
#                font pixel drawn as text_scale x text_scale picture pixels.
# Either way round the normal 8x8 font is 16 glass pixels tall, 20 columns x
# 15 rows: readable at a metre. pixel_scale 2 with text_scale 1 draws exactly
# the same glass as 1 with 2 (tests/firmware/test_ili9341.py proves it) for a
# quarter of the framebuffer and no scaled glyphs, so the profile uses it;
# pixel_scale 1 is there for a UI that wants the finer grid.
#
# Sending a page (show_pages(mask), bit p: picture rows 8p..8p+7), through the
# strip of drivers/lcd565.py (two glass rows of RGB565, 1280 B):
#   pixel_scale 1: the page is blitted (by framebuf, in C) through the palette
#     into the strip, two rows at a time, straight from the framebuffer: four
#     strips a page.
#   pixel_scale 2: each picture row is doubled sideways into a band (one glass
#     row in one bit a pixel, 40 B) through a 16-entry nibble table, the band is
#     blitted into the strip's first row, which is copied down (memcpy) to the
#     second: eight strips a page.
# Which cells are inverted the driver is told, not guessed: the canvas keeps
# `inverted_cells` (one bit mask a text row) as it draws, so pixels drawn by
# other means (the table view's big digits) never pass for an inverted cell's
# mark as they can on the ST7789 (drivers/lcd565.py). A row with some inverted
# cells (the cursor) is blitted once more through the accent palette from
# `_mask`, a copy of the inverted cells' bytes only (as in the ST7789 driver),
# as large as what is blitted: the band's row, or a page at pixel_scale 1.
# Everything is preallocated: show_pages() and show() allocate nothing.
#
# The common 2.8" modules (red board, 14-pin header, ILI9341 with a resistive
# touch panel and an SD socket Tafel leaves unwired) have their glass mirrored
# against the controller's RAM and wired BGR: the MADCTL of each rotation
# carries MX or MY and the BGR bit (the values Adafruit's and rdagger's drivers
# use); the simulator's chip (sim/ili9341_chip.py) models that glass.
import framebuf

from drivers.lcd565 import (
    Lcd565,
    spi_begin_pixels,
    spi_bus,
    spi_end_pixels,
    spi_reset,
    spi_write_cmd,
    spi_write_data,
)
from tafel.compat import const

# MADCTL per rotation (quarter turns clockwise from the module's portrait, pins at the top):
# MY 0x80, MX 0x40, MV 0x20 (row/column exchange), BGR 0x08 added by `bgr`.
MADCTL = (0x40, 0x20, 0x80, 0xE0)
_BGR = const(0x08)
_MARK = const(0x80)  # column 0 of a cell in its first byte (MONO_HLSB: the high bit is the leftmost pixel)

# The ILI9341's power, VCOM, frame-rate and gamma set-up after a reset (datasheet 8.2-8.4):
# command, number of parameters, parameters. Values: the modules' makers' defaults.
_INIT = bytes((
    0xCF, 3, 0x00, 0xC1, 0x30,  # power control B
    0xED, 4, 0x64, 0x03, 0x12, 0x81,  # power-on sequence control
    0xE8, 3, 0x85, 0x00, 0x78,  # driver timing control A
    0xCB, 5, 0x39, 0x2C, 0x00, 0x34, 0x02,  # power control A
    0xF7, 1, 0x20,  # pump ratio control
    0xEA, 2, 0x00, 0x00,  # driver timing control B
    0xC0, 1, 0x23,  # power control 1: GVDD 4.6 V
    0xC1, 1, 0x10,  # power control 2
    0xC5, 2, 0x3E, 0x28,  # VCOM control 1
    0xC7, 1, 0x86,  # VCOM control 2
    0xB1, 2, 0x00, 0x18,  # frame rate: 79 Hz
    0xF2, 1, 0x00,  # three-gamma off
    0x26, 1, 0x01,  # gamma curve 1
    0xE0, 15, 0x0F, 0x31, 0x2B, 0x0C, 0x0E, 0x08, 0x4E, 0xF1, 0x37, 0x07, 0x10, 0x03, 0x0E, 0x09, 0x00,
    0xE1, 15, 0x00, 0x0E, 0x14, 0x03, 0x11, 0x07, 0x31, 0xC1, 0x48, 0x08, 0x0F, 0x0C, 0x31, 0x36, 0x0F,
))
# A nibble's four pixels, each doubled: 0b0101 -> 0b00110011.
_NIBBLE2 = b"\x00\x03\x0c\x0f\x30\x33\x3c\x3f\xc0\xc3\xcc\xcf\xf0\xf3\xfc\xff"


class ILI9341(Lcd565):
    marks_inverted = False  # told which cells are inverted (inverted_cells), it reads no marks

    def __init__(self, width=320, height=240, rotation=1, x_offset=0, y_offset=0, palette=None,
                 invert_colours=False, backlight=None, sleep_ms=None, bgr=True, pixel_scale=1, text_scale=1):
        s = pixel_scale
        if s not in (1, 2) or width % (8 * s) or height % (8 * s):
            raise ValueError("ili9341: a %dx%d panel at pixel scale %r" % (width, height, s))
        w, h = width // s, height // s
        self.width = w  # what the canvas sees: the picture
        self.height = h
        self.text_scale = text_scale
        self.pixel_scale = s
        self.bgr = bgr
        self.pages = h // 8
        self._all_pages = (1 << self.pages) - 1
        self.buffer = bytearray(w * h // 8)
        super().__init__(self.buffer, w, h, framebuf.MONO_HLSB)
        self.setup(width, height, rotation, x_offset, y_offset, palette, invert_colours, backlight, sleep_ms)
        row = width // 8  # bytes a glass row has in one bit a pixel
        self._row = row
        self._cell_bytes = text_scale * s  # bytes a text cell is wide on the glass
        self._cells = w // (8 * text_scale)
        self._all_cells = (1 << self._cells) - 1
        self.inverted_cells = [0] * (h // (8 * text_scale))  # kept by the canvas: bit c, cell c inverted
        # What is blitted at once: a page (pixel_scale 1, straight from the picture) or the
        # band's one row (pixel_scale 2); the mask as large.
        rows = 8 if s == 1 else 1
        self._maskbuf = bytearray(row * rows)
        self._mask = framebuf.FrameBuffer(self._maskbuf, width, rows, framebuf.MONO_HLSB)
        if s == 2:
            self._bandbuf = bytearray(row)
            self._band = framebuf.FrameBuffer(self._bandbuf, width, 1, framebuf.MONO_HLSB)
        self.make_strip(2 if s == 1 else 1)  # pixel_scale 2: one glass row blitted, copied to the second
        self.init_display()

    def init_display(self):
        self.reset()
        init, i = memoryview(_INIT), 0
        while i < len(_INIT):
            n = _INIT[i + 1]
            self._cmd(_INIT[i])
            self.write_data(init[i + 2:i + 2 + n])
            i += 2 + n
        self.power_up(MADCTL[self.rotation] | (_BGR if self.bgr else 0))

    # ---- drawing ------------------------------------------------------------------
    def show_pages(self, mask):
        """Send only the pages whose bit is set in mask (bit p: picture rows 8p..8p+7).

        Each run of neighbouring pages costs one address window; a page costs
        8 x pixel_scale glass rows of 640 bytes on the bus, two rows a write.
        """
        pages, g = self.pages, 8 * self.pixel_scale
        p = 0
        while p < pages:
            if not mask & (1 << p):
                p += 1
                continue
            q = p
            while q < pages - 1 and mask & (1 << (q + 1)):
                q += 1
            self._window(g * p, g * (q + 1) - 1)
            self.begin_pixels()
            while p <= q:
                self._send_page(p)
                p += 1
            self.end_pixels()

    def _send_page(self, p):
        inverted = self.inverted_cells[p // self.text_scale]
        palette = self._accent if inverted == self._all_cells else self._normal
        mixed = inverted and inverted != self._all_cells
        line, stripbuf = self._line, self._stripbuf
        if self.pixel_scale == 1:
            if mixed:
                self._fill_mask(self.buffer, p * 8 * self._row, inverted, 8)
            for h in (0, 2, 4, 6):
                line.blit(self, 0, -8 * p - h, -1, palette)
                if mixed:
                    line.blit(self._mask, 0, -h, self._key, self._accent)
                self.pixels(stripbuf)
            return
        # Each picture row doubled sideways into the band (a nibble's 4 pixels -> 8), blitted into
        # the strip's first row, copied down to the second, sent.
        buf, bandbuf, nib = self.buffer, self._bandbuf, _NIBBLE2
        top, below = self._top, self._below
        n = self._row  # band bytes: two a picture byte
        i = 4 * p * n
        for _ in range(8):
            for o in range(0, n, 2):
                b = buf[i]
                bandbuf[o] = nib[b >> 4]
                bandbuf[o + 1] = nib[b & 15]
                i += 1
            line.blit(self._band, 0, 0, -1, palette)
            if mixed:
                self._fill_mask(bandbuf, 0, inverted, 1)
                line.blit(self._mask, 0, 0, self._key, self._accent)
            below[:] = top
            self.pixels(stripbuf)

    def _fill_mask(self, src, base, inverted, rows):
        # Only the inverted cells' bytes of `rows` glass rows of src from base on, the rest dark.
        mask, row, cw = self._maskbuf, self._row, self._cell_bytes
        self._mask.fill(0)
        for c in range(self._cells):
            if inverted & (1 << c):
                x = c * cw
                for r in range(rows):
                    o = r * row + x
                    for k in range(o, o + cw):
                        mask[k] = src[base + k]


class ILI9341_SPI(ILI9341):
    """On a 4-wire SPI bus (drivers/lcd565.py): DC low for a command byte, high for its parameters and pixels."""

    def __init__(self, width, height, spi, dc, cs=None, rst=None, **options):
        spi_bus(self, spi, dc, cs, rst)
        super().__init__(width, height, **options)

    reset = spi_reset
    write_cmd = spi_write_cmd
    write_data = spi_write_data
    begin_pixels = spi_begin_pixels
    end_pixels = spi_end_pixels
