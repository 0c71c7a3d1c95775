# Emulated SSD1306 controller (simulator only): fed the raw I2C bytes, it keeps its own GDDRAM and shows what the glass would.
#
# It knows nothing of the driver: it parses control bytes (Co and D/C# bits),
# decodes commands with their arguments (a command may continue in the next
# transaction, as drivers that send one byte per transaction do), writes data
# into its 128x64 GDDRAM through the addressing mode and windows, and renders
# the glass from RAM plus the state: display on/off, charge pump, contrast,
# invert, entire-on, segment and COM remap, start line, multiplex, offset.
# The glass is mounted as on the usual modules: mirrored in both directions
# relative to SEG0/COM0, which the driver's 0xA1 and 0xC8 undo. Clock,
# pre-charge, VCOMH, COM pin layout and scrolling are recorded, not rendered.
# With strict=True anything a real chip would silently misread (an unknown
# command, a bad control byte) raises ChipError, so driver bugs show up.


class ChipError(ValueError):
    pass


# Argument bytes each multi-byte command takes.
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1,
         0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
_SINGLE = (0x2E, 0x2F, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3)


class SSD1306Chip:
    def __init__(self, width=128, height=64, external_vcc=False, strict=True):
        self.width = width
        self.height = height
        self.external_vcc = external_vcc
        self.strict = strict
        self.ram = bytearray(1024)  # GDDRAM: 8 pages x 128 columns, MONO_VLSB
        self.transactions = 0  # I2C write transactions addressed to the chip
        self.cmd_bytes = 0  # command and argument bytes decoded
        self.data_bytes = 0  # bytes written into GDDRAM
        self.power_on()

    def power_on(self):
        """The state after power-up or reset; the RAM holds noise, as a real one does."""
        seed = 12345
        for i in range(len(self.ram)):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            self.ram[i] = seed >> 16 & 0xFF
        self.on = False
        self.charge_pump = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.seg_remap = False
        self.com_remap = False
        self.start_line = 0
        self.mux = 64
        self.offset = 0
        self.mode = 2  # 0 horizontal, 1 vertical, 2 page addressing (the reset default)
        self.col_start, self.col_end, self.col = 0, 127, 0
        self.page_start, self.page_end, self.page = 0, 7, 0
        self.settings = {}  # recorded only: clock, pre-charge, VCOMH, COM pins, scrolling
        self.scrolling = False
        self._cmd = []  # the command being collected
        self._need = 0  # argument bytes it still needs

    # ---- the bus side -----------------------------------------------------------
    def write(self, bufs):
        """One I2C write transaction: the bytes after the address, as a list of buffers."""
        self.transactions += 1
        ctrl = None  # None: a control byte comes next
        single = False  # Co=1: one byte, then another control byte
        for buf in bufs:
            for b in buf:
                if ctrl is None:
                    if b & 0x3F and self.strict:
                        raise ChipError("bad control byte 0x%02x" % b)
                    ctrl = b & 0x40
                    single = bool(b & 0x80)
                    continue
                if ctrl:
                    self._data(b)
                else:
                    self._command(b)
                if single:
                    ctrl = None
                    single = False
        if single and self.strict:
            raise ChipError("transaction ends after a control byte with Co set")

    def _data(self, b):
        self.data_bytes += 1
        self.ram[self.page * 128 + self.col] = b
        if self.mode == 0:  # horizontal: along the page, then the next page
            if self.col < self.col_end:
                self.col += 1
            else:
                self.col = self.col_start
                self.page = self.page + 1 if self.page < self.page_end else self.page_start
        elif self.mode == 1:  # vertical: down the pages, then the next column
            if self.page < self.page_end:
                self.page += 1
            else:
                self.page = self.page_start
                self.col = self.col + 1 if self.col < self.col_end else self.col_start
        else:  # page mode: along the page only, wrapping to the start column
            self.col = self.col + 1 if self.col < 127 else self.col_start

    def _command(self, b):
        self.cmd_bytes += 1
        if self._need:
            self._cmd.append(b)
            self._need -= 1
            if not self._need:
                self._run(self._cmd)
            return
        need = _ARGS.get(b, 0)
        if need:
            self._cmd = [b]
            self._need = need
        else:
            self._run((b,))

    def _run(self, cmd):
        op = cmd[0]
        if op < 0x10:  # page mode: low nibble of the column
            self.col_start = self.col = (self.col_start & 0xF0) | op
        elif op < 0x18:
            self.col_start = self.col = (self.col_start & 0x0F) | (op & 0x07) << 4
        elif op == 0x20:
            if cmd[1] & 3 == 3 and self.strict:
                raise ChipError("invalid addressing mode")
            self.mode = cmd[1] & 3
        elif op == 0x21:
            self.col_start, self.col_end = cmd[1] & 127, cmd[2] & 127
            self.col = self.col_start
        elif op == 0x22:
            self.page_start, self.page_end = cmd[1] & 7, cmd[2] & 7
            self.page = self.page_start
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 63
        elif op == 0x81:
            self.contrast = cmd[1]
        elif op == 0x8D:
            self.charge_pump = bool(cmd[1] & 0x04)
        elif op in (0xA0, 0xA1):
            self.seg_remap = bool(op & 1)
        elif op in (0xA4, 0xA5):
            self.entire_on = bool(op & 1)
        elif op in (0xA6, 0xA7):
            self.inverted = bool(op & 1)
        elif op == 0xA8:
            self.mux = (cmd[1] & 63) + 1
        elif op in (0xAE, 0xAF):
            self.on = bool(op & 1)
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op in (0xC0, 0xC8):
            self.com_remap = bool(op & 8)
        elif op == 0xD3:
            self.offset = cmd[1] & 63
        elif op in (0x2E, 0x2F):
            self.scrolling = op == 0x2F
        elif op in _ARGS:
            self.settings[op] = bytes(cmd[1:])
        elif op not in _SINGLE and self.strict:
            raise ChipError("unknown command 0x%02x" % op)

    # ---- the glass --------------------------------------------------------------
    @property
    def lit(self):
        """Whether the glass shows anything at all (display on and panel voltage there)."""
        return self.on and (self.charge_pump or self.external_vcc)

    def pixel(self, x, y):
        """1 if the pixel x, y (from the viewer's top left) glows."""
        if not self.lit:
            return 0
        if self.entire_on:
            return 1
        seg = 127 - (128 - self.width) // 2 - x  # mounting: mirrored
        com = self.height - 1 - y
        col = 127 - seg if self.seg_remap else seg
        k = (self.mux - 1 - com if self.com_remap else com) + self.offset & 63
        if k >= self.mux:
            return 0
        row = (k + self.start_line) & 63
        bit = self.ram[(row >> 3) * 128 + col] >> (row & 7) & 1
        return bit ^ 1 if self.inverted else bit

    def fingerprint(self):
        """A CRC-32 of what glass() would return, without making it (the simulator asks after
        every command whether the picture changed; it must not allocate in the device's heap)."""
        import binascii

        w, h = self.width, self.height
        if not self.lit:
            return 0
        if (self.seg_remap and self.com_remap and w == 128 and h == 64 and self.mux == 64
                and not (self.start_line or self.offset or self.entire_on)):
            return binascii.crc32(self.ram) ^ (1 if self.inverted else 0)
        return binascii.crc32(self.glass())

    def picture(self):
        """What glass() returns, in one buffer kept for it and changed in place (the simulator
        runs in the device's heap and asks for no new block per snapshot); keep nothing of it."""
        pic = getattr(self, "_pic", None)
        if pic is None:
            pic = self._pic = bytearray(self.width * self.height // 8)
        if not self.lit:
            for i in range(len(pic)):
                pic[i] = 0
        elif self._usual():
            pic[:] = self.ram
            if self.inverted:
                for i in range(len(pic)):
                    pic[i] ^= 0xFF
        else:
            pic[:] = self.glass()  # a rare set-up: rendered pixel by pixel
        return pic

    def _usual(self):
        # The usual set-up: the glass is the RAM as it is (glass() says the same).
        return (self.seg_remap and self.com_remap and self.width == 128 and self.height == 64 and self.mux == 64
                and not (self.start_line or self.offset or self.entire_on))

    def glass(self):
        """What the viewer sees, as a new bytearray in the driver's layout (MONO_VLSB, width x height)."""
        w, h = self.width, self.height
        out = bytearray(w * h // 8)
        if not self.lit:
            return out
        if (self.seg_remap and self.com_remap and w == 128 and h == 64 and self.mux == 64
                and not (self.start_line or self.offset or self.entire_on)):
            out[:] = self.ram  # the usual set-up: the glass is the RAM as it is
        else:
            for y in range(h):
                for x in range(w):
                    if self.pixel(x, y):
                        out[(y >> 3) * w + x] |= 1 << (y & 7)
            return out
        if self.inverted:
            for i in range(len(out)):
                out[i] ^= 0xFF
        return out
