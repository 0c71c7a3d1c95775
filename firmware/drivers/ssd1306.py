# SSD1306 OLED driver: a framebuf.FrameBuffer that sends itself (all, or changed pages) to the chip.
#
# Drawing is framebuf's (in C) on `buffer`, MONO_VLSB: byte p*width + x holds
# the 8 pixels of column x in page p (rows 8p..8p+7), bit 0 the top one. The
# bus variants differ only in write_cmd(buf) and write_data(buf); command
# buffers are made once, so show(), show_pages() and the settings allocate
# nothing.
import framebuf

from tafel.compat import const

_MEM_MODE = const(0x20)  # + 0: horizontal addressing (page after page)
_COL_ADDR = const(0x21)  # + first, last column
_PAGE_ADDR = const(0x22)  # + first, last page
_START_LINE = const(0x40)
_CONTRAST = const(0x81)
_CHARGE_PUMP = const(0x8D)  # + 0x14 on, 0x10 off
_SEG_REMAP = const(0xA1)  # column 127 to SEG0: modules mount the glass mirrored
_ENTIRE_ON = const(0xA4)  # follow the RAM (0xA5 would light every pixel)
_NORM_INV = const(0xA6)  # | 1: inverted
_MUX = const(0xA8)
_DISP = const(0xAE)  # | 1: on (0xAE is the chip's sleep mode)
_COM_REMAP = const(0xC8)  # scan COM[N-1] to COM0: the other half of the mirroring
_OFFSET = const(0xD3)
_CLK_DIV = const(0xD5)
_PRECHARGE = const(0xD9)
_COM_PINS = const(0xDA)
_VCOMH = const(0xDB)


class SSD1306(framebuf.FrameBuffer):
    def __init__(self, width, height, external_vcc=False):
        self.width = width
        self.height = height
        self.pages = height // 8
        self.external_vcc = external_vcc
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        whole = memoryview(self.buffer)
        self._page = [whole[p * width:(p + 1) * width] for p in range(self.pages)]
        x0 = (128 - width) // 2  # narrower glass sits in the middle columns
        self._window = bytearray((_COL_ADDR, x0, x0 + width - 1, _PAGE_ADDR, 0, self.pages - 1))
        self._one = bytearray(1)
        self._two = bytearray(2)
        self.init_display()

    def init_display(self):
        self.write_cmd(bytes((
            _DISP,  # off while being set up
            _MEM_MODE, 0x00,
            _START_LINE,
            _SEG_REMAP,
            _MUX, self.height - 1,
            _COM_REMAP,
            _OFFSET, 0x00,
            _COM_PINS, 0x02 if self.width > 2 * self.height else 0x12,
            _CLK_DIV, 0x80,
            _PRECHARGE, 0x22 if self.external_vcc else 0xF1,
            _VCOMH, 0x30,
            _CONTRAST, 0x7F,
            _ENTIRE_ON,
            _NORM_INV,
            _CHARGE_PUMP, 0x10 if self.external_vcc else 0x14,
        )))
        self.fill(0)
        self.show()  # clear the RAM before the glass lights: it powers up with noise
        self.poweron()

    def _cmd(self, a):
        self._one[0] = a
        self.write_cmd(self._one)

    def _cmd_arg(self, a, b):
        self._two[0] = a
        self._two[1] = b
        self.write_cmd(self._two)

    def poweroff(self):
        """Glass dark (the chip's sleep mode); RAM and framebuffer are kept."""
        self._cmd(_DISP)

    def poweron(self):
        self._cmd(_DISP | 1)

    def contrast(self, value):
        """0-255."""
        self._cmd_arg(_CONTRAST, value)

    def invert(self, on):
        self._cmd(_NORM_INV | (1 if on else 0))

    def show(self):
        """Send the whole framebuffer."""
        self._page_window(0, self.pages - 1)
        self.write_data(self.buffer)

    def show_pages(self, mask):
        """Send only the pages whose bit is set in mask (bit p: rows 8p..8p+7).

        Each run of neighbouring pages costs one address window and one data
        write per page; unchanged pages cost nothing on the bus.
        """
        last = self.pages - 1
        if mask & ((1 << self.pages) - 1) == (1 << self.pages) - 1:
            self.show()
            return
        p = 0
        while p <= last:
            if not mask & (1 << p):
                p += 1
                continue
            q = p
            while q < last and mask & (1 << (q + 1)):
                q += 1
            self._page_window(p, q)
            while p <= q:
                self.write_data(self._page[p])
                p += 1

    def _page_window(self, first, last):
        # Column window stays the full width; only the page window changes.
        w = self._window
        w[4] = first
        w[5] = last
        self.write_cmd(w)


class SSD1306_I2C(SSD1306):
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.i2c = i2c
        self.addr = addr
        # Control byte first: 0x00 = all following bytes are commands,
        # 0x40 = all following bytes go to display RAM (Co bit clear).
        self._cmds = [b"\x00", None]
        self._data = [b"\x40", None]
        super().__init__(width, height, external_vcc)

    def write_cmd(self, buf):
        self._cmds[1] = buf
        self.i2c.writevto(self.addr, self._cmds)

    def write_data(self, buf):
        self._data[1] = buf
        self.i2c.writevto(self.addr, self._data)
