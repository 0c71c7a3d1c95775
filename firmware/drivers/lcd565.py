# What the colour LCD drivers share (ST7789, ILI9341): MIPI DCS commands, palettes, backlight, sleep, the SPI bus.
#
# Both controllers take the same MIPI DCS command set for what Tafel uses
# (reset, sleep, pixel format, memory access control, inversion, address
# window, memory write) and both get RGB565 pixels, big-endian. A driver is a
# framebuf.FrameBuffer the UI draws on in one bit a pixel; its show_pages(mask)
# turns changed pages into RGB565 through two 2-colour palettes (see st7789.py
# and ili9341.py for how each scales its picture), two panel rows at a time:
#
#   normal  the background for unlit pixels, the text colour for lit ones;
#   accent  inverted cells (title bars, the cursor): text in the background
#           colour on the accent colour.
#
# Which canvas cells are inverted: the ST7789 driver reads it from the picture,
# a cell whose rows 0 and 1 of column 0 are lit (no glyph lights them, an
# inverted cell always does; ui/canvas.py's unmark() clears that mark where
# something else, the table view's big digits, lit those pixels). The ILI9341
# driver is told instead: the canvas keeps its `inverted_cells`.
#
# The strip (make_strip()): two panel rows of RGB565 (960 B on the T-Display,
# 1280 B on the 320x240 board), what one write sends. Both boards' profiles draw
# every picture pixel 2 panel rows tall: its row is blitted into the strip's
# first row and copied down to the second (a slice copy, memcpy). So the heap
# holds the picture, one page's band at most and this strip, and a page of the
# picture costs 8 writes: more, smaller transfers, the same bytes.
#
# The bus variants differ only in write_cmd(buf) (a command byte) and
# write_data(buf) (its parameters or pixels), and may send a window's pixels in
# one transfer: begin_pixels(), pixels(buf) for each strip, end_pixels() (by
# default each strip is a write_data). The SPI ones take spi_bus(), spi_reset,
# spi_write_cmd, spi_write_data, spi_begin_pixels and spi_end_pixels from here:
# one CS frame for all of a window's strips, each strip a write of the bus.
import framebuf

from tafel.compat import const

SWRESET = const(0x01)
SLPIN = const(0x10)
SLPOUT = const(0x11)
NORON = const(0x13)
INVOFF = const(0x20)
INVON = const(0x21)
DISPOFF = const(0x28)
DISPON = const(0x29)
CASET = const(0x2A)
RASET = const(0x2B)  # "page address set" (PASET) in the ILI9341's datasheet
RAMWR = const(0x2C)
MADCTL = const(0x36)
COLMOD = const(0x3A)

_COLMOD_16BIT = const(0x55)  # 65K colours, 16 bits a pixel (RGB565)


def swap16(colour):
    """RGB565 as framebuf must store it so the bytes go out big-endian."""
    return (colour & 0xFF) << 8 | colour >> 8


def rgb565(r, g, b):
    return (r & 0xF8) << 8 | (g & 0xFC) << 3 | b >> 3


class Lcd565(framebuf.FrameBuffer):
    """The controller's commands, palettes, backlight and sleep. A subclass sets up its
    picture (`pages` of 8 rows, `_all_pages` their mask), calls setup() and make_strip(),
    then its init."""

    marks_inverted = True  # reads the inverted-cell mark from the picture (see above); ui/canvas.py asks

    def setup(self, width, height, rotation, x_offset, y_offset, palette, invert_colours, backlight, sleep_ms):
        self.panel_width = width
        self.panel_height = height
        self.rotation = rotation & 3
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
        self._normal = framebuf.FrameBuffer(bytearray(4), 2, 1, framebuf.RGB565)
        self._accent = framebuf.FrameBuffer(bytearray(4), 2, 1, framebuf.RGB565)
        self.set_palette(palette or {})
        # Command buffers, made once.
        self._op = bytearray(1)
        self._arg = bytearray(1)
        self._caset = bytearray(4)
        self._raset = bytearray(4)
        _put16(self._caset, x_offset, x_offset + width - 1)

    def make_strip(self, rows):
        """The strip: two panel rows of RGB565 (`_stripbuf`, what one write sends), `_line` a
        framebuf over its first `rows` rows (what the palettes blit into), `_top` and `_below`
        its two rows as views (`_below[:] = _top` doubles a row)."""
        w = self.panel_width
        buf = self._stripbuf = bytearray(4 * w)
        self._line = framebuf.FrameBuffer(buf, w, rows, framebuf.RGB565)
        whole = memoryview(buf)
        self._top = whole[:2 * w]
        self._below = whole[2 * w:]

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

    def reset(self):
        """A software reset; the bus variants do a hardware reset when they have the pin."""
        self._cmd(SWRESET)
        self.sleep_ms(120)

    def _clear_panel(self):
        # The controller's RAM powers up with noise: the whole panel in the background colour.
        self._line.fill(swap16(self.bg))
        self._below[:] = self._top
        h = self.panel_height
        self._window(0, h - 1)
        self.begin_pixels()
        for _ in range(h >> 1):
            self.pixels(self._stripbuf)
        if h & 1:
            self.pixels(self._top)
        self.end_pixels()

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
        self._op[0] = CASET
        self.write_cmd(self._op)
        self.write_data(self._caset)
        y = self.y_offset
        _put16(self._raset, y + first, y + last)
        self._op[0] = RASET
        self.write_cmd(self._op)
        self.write_data(self._raset)
        self._op[0] = RAMWR
        self.write_cmd(self._op)

    def begin_pixels(self):
        """Before a window's strips (a bus variant opens one transfer for them all)."""

    def pixels(self, buf):
        """One strip of the window's pixels (a bus variant may replace this by its bus's write)."""
        self.write_data(buf)

    def end_pixels(self):
        """After a window's strips."""

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
        self._cmd(SLPIN)
        self.asleep = True
        self.sleep_ms(5)  # no command for 5 ms after SLPIN

    def poweron(self):
        self._cmd(SLPOUT)
        self.sleep_ms(5)  # no command for 5 ms after SLPOUT
        self.asleep = False
        self._backlight(self.level)

    def contrast(self, value):
        """0-255: the backlight's brightness (off/on only without PWM)."""
        self.level = value
        if not self.asleep:
            self._backlight(value)

    def invert(self, on):
        # An IPS glass inverts by itself: INVON is its normal state there.
        self._cmd(INVOFF if on == self.invert_colours else INVON)

    def power_up(self, madctl):
        """Out of sleep into a cleared, lit picture: what both controllers do after their own set-up
        (`madctl`: the memory access byte for the rotation, with the controller's colour order)."""
        self._cmd(SLPOUT)
        self.sleep_ms(120)  # the panel's supply settles; SLPIN is refused before that
        self._cmd1(COLMOD, _COLMOD_16BIT)
        self._cmd1(MADCTL, madctl)
        self._cmd(INVON if self.invert_colours else INVOFF)
        self._cmd(NORON)
        self.fill(0)
        self._clear_panel()  # the controller's RAM powers up with noise
        self.show()
        self._cmd(DISPON)
        self.asleep = False
        self._backlight(self.level)

    def show(self):
        """Send the whole picture."""
        self.show_pages(self._all_pages)


def _put16(buf, a, b):
    buf[0] = a >> 8
    buf[1] = a & 0xFF
    buf[2] = b >> 8
    buf[3] = b & 0xFF


# ---- on a 4-wire SPI bus: DC low for a command byte, high for its parameters and pixels; CS low around each.

def spi_bus(lcd, spi, dc, cs, rst):
    lcd.spi = spi
    lcd.dc = dc
    lcd.cs = cs
    lcd.rst = rst
    lcd.pixels = spi.write  # a strip within the frame spi_begin_pixels opened: the bus's write alone


def spi_reset(lcd):
    if lcd.rst is None:
        Lcd565.reset(lcd)
        return
    lcd.rst(1)
    lcd.sleep_ms(1)
    lcd.rst(0)  # at least 10 us low
    lcd.sleep_ms(1)
    lcd.rst(1)
    lcd.sleep_ms(120)  # reset done; SLPOUT is refused for 120 ms


def _spi_write(lcd, dc, buf):
    # One transfer with the D/C line at `dc` (0: a command, 1: its data), framed by CS where there is one.
    cs = lcd.cs
    lcd.dc(dc)
    if cs is not None:
        cs(0)
    lcd.spi.write(buf)
    if cs is not None:
        cs(1)


def spi_write_cmd(lcd, buf):
    _spi_write(lcd, 0, buf)


def spi_write_data(lcd, buf):
    _spi_write(lcd, 1, buf)


def spi_begin_pixels(lcd):
    # One frame for a window's pixels: D/C high, CS low until spi_end_pixels.
    lcd.dc(1)
    if lcd.cs is not None:
        lcd.cs(0)


def spi_end_pixels(lcd):
    if lcd.cs is not None:
        lcd.cs(1)
