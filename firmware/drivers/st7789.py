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
#     their panel columns into `_band`, one MONO_VLSB page 240 wide (240 B).
#   - colour: the band is blitted by framebuf (in C) through a 2-colour
#     palette into an RGB565 strip of 240x8 (3840 B), four rows at a time
#     into the strip's even rows (a view with twice the stride);
#   - vertically 2x: each even row is copied to the odd row below it (a
#     slice copy, memcpy), and the strip is sent: two strips a page.
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
# framebuffer + 2 x 240 B band and mask + 3840 B strip + 272 B column map +
# palettes and views (bench/display_redraw.py measures the total).
#
# Colours are RGB565; the panel takes them big-endian, framebuf stores them
# little-endian, so the palettes hold them byte-swapped. contrast() is the
# backlight (PWM duty when the board gives a PWM object, else on/off);
# poweroff()/poweron() are the controller's sleep (SLPIN/SLPOUT) with the
# backlight. The bus variants differ only in write_cmd(buf) (a command byte)
# and write_data(buf) (its parameters or pixels).
import framebuf
from tafel.compat import const

_SWRESET = const(0x01)
_SLPIN = const(0x10)
_SLPOUT = const(0x11)
_NORON = const(0x13)
_INVOFF = const(0x20)
_INVON = const(0x21)
_DISPOFF = const(0x28)
_DISPON = const(0x29)
_CASET = const(0x2A)
_RASET = const(0x2B)
_RAMWR = const(0x2C)
_MADCTL = const(0x36)
_COLMOD = const(0x3A)

_COLMOD_16BIT = const(0x55)  # 65K colours, 16 bits a pixel (RGB565)
# MADCTL per rotation (quarter turns clockwise from the panel's portrait):
# MY 0x80, MX 0x40, MV 0x20 (row/column exchange); RGB order.
MADCTL = (0x00, 0x60, 0xC0, 0xA0)

LOGICAL_W = const(128)  # what the UI draws on: 16 x 8 text cells of 8x8
LOGICAL_H = const(64)
_PAGES = const(8)
_STRIP = const(8)  # panel rows per strip: half a page's band
_HALF = const(4)  # logical rows per strip
_INVERTED = const(0x03)  # rows 0 and 1 of a cell's column 0: lit only in inverted cells
# Which glyph column loses its second pixel first when a cell is narrower than 16.
_NARROW_ORDER = (0, 7, 1, 6, 2, 5, 3, 4)


def swap16(colour):
    """RGB565 as framebuf must store it so the bytes go out big-endian."""
    return (colour & 0xFF) << 8 | colour >> 8


def rgb565(r, g, b):
    return (r & 0xF8) << 8 | (g & 0xFC) << 3 | b >> 3


class ST7789(framebuf.FrameBuffer):
    def __init__(self, width, height, rotation=1, x_offset=0, y_offset=0, palette=None,
                 invert_colours=True, backlight=None, sleep_ms=None):
        if not (LOGICAL_W <= width <= 2 * LOGICAL_W and 2 * LOGICAL_H <= height):
            raise ValueError("st7789: a %dx%d panel cannot show the 128x64 UI at 2x" % (width, height))
        self.width = LOGICAL_W  # what the canvas sees: the logical display
        self.height = LOGICAL_H
        self.pages = _PAGES
        self.panel_width = width
        self.panel_height = height
        self.rotation = rotation & 3
        self.x_offset = x_offset
        self.y_offset = y_offset
        self.invert_colours = invert_colours  # IPS panels show true colours only with INVON
        self.backlight = backlight  # a PWM (duty_u16) or a Pin, or None
        self._pwm = hasattr(backlight, "duty_u16")
        if sleep_ms is None:
            import time

            sleep_ms = time.sleep_ms
        self.sleep_ms = sleep_ms
        self.level = 255  # contrast, i.e. backlight brightness
        self.asleep = True

        self.buffer = bytearray(LOGICAL_W * LOGICAL_H // 8)
        super().__init__(self.buffer, LOGICAL_W, LOGICAL_H, framebuf.MONO_VLSB)
        whole = memoryview(self.buffer)
        self._page = [whole[p * LOGICAL_W:(p + 1) * LOGICAL_W] for p in range(_PAGES)]

        # Horizontal map: logical column j starts at panel column _xs[j]; _wide[j] says 2 pixels.
        cell = width // 16
        narrow = _NARROW_ORDER[:16 - cell]
        self._x0 = (width - 16 * cell) // 2
        self._xs = bytearray(LOGICAL_W)
        self._wide = bytearray(LOGICAL_W)
        self._cell_x = bytearray(16)
        x = self._x0
        for j in range(LOGICAL_W):
            if j & 7 == 0:
                self._cell_x[j >> 3] = x
            self._xs[j] = x
            self._wide[j] = 0 if (j & 7) in narrow else 1
            x += 1 + self._wide[j]
        self._y0 = (height - 2 * LOGICAL_H) // 2  # centred: rows above the picture

        # The band (one mono page of panel width) and the colour strip it is blitted into.
        self._bandbuf = bytearray(width)
        self._band = framebuf.FrameBuffer(self._bandbuf, width, 8, framebuf.MONO_VLSB)
        self._stripbuf = bytearray(width * _STRIP * 2)
        self._strip = framebuf.FrameBuffer(self._stripbuf, width, _STRIP, framebuf.RGB565)
        strip = memoryview(self._stripbuf)
        row = 2 * width  # bytes a strip row
        self._even = framebuf.FrameBuffer(self._stripbuf, width, _HALF, framebuf.RGB565, 2 * width)
        self._rows = [(strip[2 * k * row:(2 * k + 1) * row], strip[(2 * k + 1) * row:(2 * k + 2) * row])
                      for k in range(_HALF)]
        # The inverted cells' columns of the band, for a second blit in the accent.
        self._maskbuf = bytearray(width)
        self._mask = framebuf.FrameBuffer(self._maskbuf, width, 8, framebuf.MONO_VLSB)
        self._cell_w = cell
        self._normal = framebuf.FrameBuffer(bytearray(4), 2, 1, framebuf.RGB565)
        self._accent = framebuf.FrameBuffer(bytearray(4), 2, 1, framebuf.RGB565)
        self.set_palette(palette or {})

        # Command buffers, made once.
        self._op = bytearray(1)
        self._arg = bytearray(1)
        self._caset = bytearray(4)
        self._raset = bytearray(4)
        _put16(self._caset, x_offset, x_offset + width - 1)
        self.init_display()

    # ---- set-up -------------------------------------------------------------------
    def set_palette(self, palette):
        """fg, bg, accent as RGB565 integers; takes effect with the next show()."""
        self.fg = palette.get("fg", 0xFFFF)
        self.bg = palette.get("bg", 0x0000)
        self.accent = palette.get("accent", 0xFE40)
        self._normal.pixel(0, 0, swap16(self.bg))
        self._normal.pixel(1, 0, swap16(self.fg))
        self._accent.pixel(0, 0, swap16(self.bg))  # inverted cells: text in the background colour
        self._accent.pixel(1, 0, swap16(self.accent))  # on the accent colour
        self._key = swap16(self.bg)  # the mask's blit leaves the background alone

    def init_display(self):
        self.reset()
        self._cmd(_SLPOUT)
        self.sleep_ms(120)  # the panel's supply settles; SLPIN is refused before that
        self._cmd1(_COLMOD, _COLMOD_16BIT)
        self._cmd1(_MADCTL, MADCTL[self.rotation])
        self._cmd(_INVON if self.invert_colours else _INVOFF)
        self._cmd(_NORON)
        self.fill(0)
        self._clear_panel()  # the controller's RAM powers up with noise
        self.show()
        self._cmd(_DISPON)
        self.asleep = False
        self._backlight(self.level)

    def reset(self):
        """A software reset; the bus variants do a hardware reset when they have the pin."""
        self._cmd(_SWRESET)
        self.sleep_ms(120)

    def _clear_panel(self):
        self._strip.fill(swap16(self.bg))
        w, h = self.panel_width, self.panel_height
        self._window(0, h - 1)
        rows = h
        while rows >= _STRIP:
            self.write_data(self._stripbuf)
            rows -= _STRIP
        if rows:
            self.write_data(memoryview(self._stripbuf)[:rows * w * 2])

    # ---- commands -----------------------------------------------------------------
    def _cmd(self, op):
        self._op[0] = op
        self.write_cmd(self._op)

    def _cmd1(self, op, arg):
        self._op[0] = op
        self.write_cmd(self._op)
        self._arg[0] = arg
        self.write_data(self._arg)

    def _window(self, first, last):
        """Address window: the full panel width, panel rows first..last (picture coordinates); then RAMWR."""
        self._op[0] = _CASET
        self.write_cmd(self._op)
        self.write_data(self._caset)
        y = self.y_offset
        _put16(self._raset, y + first, y + last)
        self._op[0] = _RASET
        self.write_cmd(self._op)
        self.write_data(self._raset)
        self._op[0] = _RAMWR
        self.write_cmd(self._op)

    def _backlight(self, level):
        bl = self.backlight
        if bl is None:
            return
        if self._pwm:
            bl.duty_u16(level * 257)
        else:
            bl(1 if level else 0)

    def poweroff(self):
        """Glass dark: backlight off and the controller asleep; its RAM and the framebuffer are kept."""
        self._backlight(0)
        self._cmd(_SLPIN)
        self.asleep = True
        self.sleep_ms(5)  # no command for 5 ms after SLPIN

    def poweron(self):
        self._cmd(_SLPOUT)
        self.sleep_ms(5)  # no command for 5 ms after SLPOUT
        self.asleep = False
        self._backlight(self.level)

    def contrast(self, value):
        """0-255: the backlight's brightness (off/on only without PWM)."""
        self.level = value
        if not self.asleep:
            self._backlight(value)

    def invert(self, on):
        # The IPS glass inverts by itself: INVON is its normal state.
        self._cmd(_INVOFF if on == self.invert_colours else _INVON)

    # ---- drawing ------------------------------------------------------------------
    def show(self):
        """Send the whole picture."""
        self.show_pages(0xFF)

    def show_pages(self, mask):
        """Send only the pages whose bit is set in mask (bit p: rows 8p..8p+7 of the 128x64 picture).

        Each run of neighbouring pages costs one address window; a page costs
        two strips of 240x8 pixels (7680 bytes on the bus).
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
            while p <= q:
                self._send_page(p)
                p += 1

    def _send_page(self, p):
        page = self._page[p]
        band, xs, wide = self._bandbuf, self._xs, self._wide
        for j in range(LOGICAL_W):
            b = page[j]
            x = xs[j]
            band[x] = b
            if wide[j]:
                band[x + 1] = b
        # Inverted cells (bars, the cursor): bit c set.
        inverted = 0
        for c in range(16):
            if page[c << 3] & _INVERTED == _INVERTED:
                inverted |= 1 << c
        if inverted and inverted != 0xFFFF:
            self._mask.fill(0)
            mask, cell_x, w = self._maskbuf, self._cell_x, self._cell_w
            for c in range(16):
                if inverted & (1 << c):
                    x = cell_x[c]
                    for x in range(x, x + w):
                        mask[x] = band[x]
        self._send_half(0, inverted)
        self._send_half(-_HALF, inverted)

    def _send_half(self, y, inverted):
        # Logical rows -y .. -y+3 of the band into the strip's even rows, copied down, sent.
        even = self._even
        if inverted == 0xFFFF:
            even.blit(self._band, 0, y, -1, self._accent)
        else:
            even.blit(self._band, 0, y, -1, self._normal)
            if inverted:
                even.blit(self._mask, 0, y, self._key, self._accent)
        for top, below in self._rows:
            below[:] = top
        self.write_data(self._stripbuf)


def _put16(buf, a, b):
    buf[0] = a >> 8
    buf[1] = a & 0xFF
    buf[2] = b >> 8
    buf[3] = b & 0xFF


class ST7789_SPI(ST7789):
    """On a 4-wire SPI bus: DC low for a command byte, high for its parameters and pixels; CS low around each."""

    def __init__(self, width, height, spi, dc, cs=None, rst=None, **options):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.rst = rst
        super().__init__(width, height, **options)

    def reset(self):
        if self.rst is None:
            ST7789.reset(self)
            return
        self.rst(1)
        self.sleep_ms(1)
        self.rst(0)  # at least 10 us low
        self.sleep_ms(1)
        self.rst(1)
        self.sleep_ms(120)  # reset done; SLPOUT is refused for 120 ms

    def write_cmd(self, buf):
        cs = self.cs
        self.dc(0)
        if cs is not None:
            cs(0)
        self.spi.write(buf)
        if cs is not None:
            cs(1)

    def write_data(self, buf):
        cs = self.cs
        self.dc(1)
        if cs is not None:
            cs(0)
        self.spi.write(buf)
        if cs is not None:
            cs(1)
