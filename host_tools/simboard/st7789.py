# Emulated ST7789 LCD controller and its glass (simulator only): fed the SPI bytes with the DC line, it keeps its own RGB565 RAM.
#
# It knows nothing of the driver. The controller's RAM is 240 columns x 320
# rows of RGB565 (big-endian on the bus, as the chip takes it); the glass is
# a smaller panel sitting in the middle of that RAM, as on the LILYGO
# T-Display: 135x240 at RAM column 52, row 40. Only the cells behind the
# glass are kept (`ram`, the panel's portrait, row by row): writes to the
# others are counted and dropped, as nobody could ever see them. Memory writes go through the
# address window (CASET, RASET), the pointer (RAMWR, RAMWRC) and MADCTL's
# exchange and mirrors (MV, MX, MY), so a driver with a wrong rotation or
# offset draws into the wrong RAM cells and the glass shows it (a strip of
# power-up noise at one edge, a picture on its side).
#
# The board is held as the profile's rotation says: the picture on the glass
# is the panel's portrait turned by `rotation` quarter turns, which is what a
# correct MADCTL undoes. Shown: nothing (black) in reset, asleep (SLPIN),
# with the display off (DISPOFF) or with the backlight off; else the RAM
# through the inversion (an IPS panel like the T-Display's shows true colours
# only with INVON) and the RGB/BGR order. Backlight brightness is recorded,
# not rendered. Gamma, porch, power and frame-rate commands are recorded.
# With strict=True a command the controller would not take (unknown, too
# early after a reset or a sleep change, pixels in a format not emulated, a
# window outside the RAM) raises ChipError, so driver bugs surface in tests.
# What the glass shows is rendered by glass565.py.
from .glass565 import Glass565


class ChipError(ValueError):
    pass


RAM_W = 240  # columns
RAM_H = 320  # rows

# Parameter bytes of the commands taken; RAMWR/RAMWRC take pixels until the next command.
# The MIPI DCS commands both controllers share (sim/ili9341_chip.py adds its own to them):
DCS_ARGS = {
    0x00: 0,  # NOP
    0x01: 0,  # SWRESET
    0x10: 0, 0x11: 0,  # SLPIN, SLPOUT
    0x12: 0, 0x13: 0,  # PTLON, NORON
    0x20: 0, 0x21: 0,  # INVOFF, INVON
    0x26: 1,  # GAMSET
    0x28: 0, 0x29: 0,  # DISPOFF, DISPON
    0x2A: 4, 0x2B: 4,  # CASET, RASET (the ILI9341's PASET)
    0x2C: 0, 0x3C: 0,  # RAMWR, RAMWRC
    0x30: 4,  # PTLAR
    0x34: 0, 0x35: 1,  # TEOFF, TEON
    0x36: 1,  # MADCTL
    0x37: 2,  # VSCSAD
    0x38: 0, 0x39: 0,  # IDMOFF, IDMON
    0x3A: 1,  # COLMOD
    0x51: 1, 0x53: 1, 0x55: 1,  # brightness (needs a CABC backlight; recorded)
}
_ARGS = dict(DCS_ARGS)
_ARGS.update({  # the ST7789's own
    0xB0: 2,  # RAMCTRL
    0xB2: 5,  # PORCTRL
    0xB7: 1,  # GCTRL
    0xBB: 1,  # VCOMS
    0xC0: 1, 0xC2: 2, 0xC3: 1, 0xC4: 1, 0xC6: 1,  # LCMCTRL, VDVVRHEN, VRHS, VDVS, FRCTRL2
    0xD0: 2,  # PWCTRL1
    0xE0: 14, 0xE1: 14,  # PVGAMCTRL, NVGAMCTRL
})
_RAMWR = 0x2C
_RAMWRC = 0x3C


def _noise(n):
    out = bytearray(n)
    seed = 12345
    for i in range(n):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        out[i] = seed >> 16 & 0xFF
    return bytes(out)


_NOISE = _noise(1021)  # repeated over the RAM at power-up (a prime length: no visible pattern)


class ST7789Chip(Glass565):
    colour = True  # the simulator's snap says RGB565
    ARGS = _ARGS  # the commands this controller takes (sim/ili9341_chip.py has its own)
    MIRROR_X = False  # the glass shows RAM column 0 at its portrait's left edge (True: at the right)
    PANEL_BGR = False  # the glass's colour order: true colours with MADCTL's BGR bit clear

    def __init__(self, width=240, height=135, rotation=1, invert_colours=True, strict=True, clock=None):
        self.width = width  # the glass as the viewer holds the board
        self.height = height
        self.rotation = rotation & 3
        if self.rotation & 1:
            self.panel_w, self.panel_h = height, width  # the panel's own portrait size
        else:
            self.panel_w, self.panel_h = width, height
        if self.panel_w > RAM_W or self.panel_h > RAM_H:
            raise ValueError("a %dx%d panel does not fit the controller's RAM" % (self.panel_w, self.panel_h))
        self.col0 = (RAM_W - self.panel_w) // 2  # 52 on the T-Display
        self.row0 = (RAM_H - self.panel_h) // 2  # 40
        self.panel_inverts = invert_colours
        self.strict = strict
        self.clock = clock or (lambda: 0)
        self.ram = bytearray(self.panel_w * self.panel_h * 2)  # the RAM cells behind the glass
        self._pic = None  # picture()'s buffer, made at its first use
        self.writes = 0  # SPI writes that reached the chip (CS low)
        self.cmd_bytes = 0
        self.data_bytes = 0
        self.pixels = 0  # pixels written into RAM
        self.op_counts = {}  # command -> how often
        self.backlight = 0.0  # 0..1, set by the board's wiring
        self.in_reset = False
        self.power_on()

    # ---- state --------------------------------------------------------------------
    def power_on(self):
        """The state after power-up or a reset: asleep, display off, RAM full of noise."""
        ram, n = self.ram, len(_NOISE)
        for i in range(0, len(ram), n):
            ram[i:i + n] = _NOISE[:len(ram) - i]
        self._reset_state()

    def _reset_state(self):
        self.asleep = True
        self.display_on = False
        self.inv_on = False
        self.madctl = 0
        self.colmod = 0x66  # 18 bits a pixel after reset
        self.xs, self.xe = 0, RAM_W - 1
        self.ys, self.ye = 0, RAM_H - 1
        self.col, self.row = 0, 0
        self.settings = {}  # recorded only: gamma, porches, power, frame rate ...
        self._op = None  # the command whose parameters or pixels come next
        self._args = bytearray()
        self._need = 0
        self._odd = -1  # first byte of a pixel split across writes
        now = self.clock()
        self._quiet_until = now + 5  # no command for 5 ms after a reset
        self._slpout_from = now + 120  # and no SLPOUT for 120 ms
        self._stale()

    def _stale(self):
        # The picture may have changed: glass() makes a new one, picture() renders again.
        self._glass = None
        self._pic_ok = False

    def software_reset(self):
        self._reset_state()  # the RAM is kept by SWRESET

    def reset_line(self, level):
        """The RESX pin: low holds the chip in reset; the rising edge starts it (RAM contents undefined)."""
        if not level:
            self.in_reset = True
            self._stale()
        elif self.in_reset:
            self.in_reset = False
            self.power_on()

    def set_backlight(self, level):
        if level != self.backlight:
            self.backlight = level
            self._stale()

    @property
    def lit(self):
        return not self.in_reset and not self.asleep and self.display_on and self.backlight > 0

    # ---- the bus side -------------------------------------------------------------
    def spi_write(self, buf, dc):
        """Bytes clocked in while CS is low; dc is the DC line (0: a command byte, 1: parameters or pixels)."""
        if self.in_reset:
            return
        self.writes += 1
        self._stale()
        if not dc:
            for b in buf:
                self._command(b)
            return
        if self._op is None:
            if self.strict:
                raise ChipError("data without a command")
            return
        if self._op == _RAMWR or self._op == _RAMWRC:
            self.data_bytes += len(buf)
            self._pixels(buf)
            return
        for b in buf:
            self.data_bytes += 1
            if self._need:
                self._args.append(b)
                self._need -= 1
                if not self._need:
                    self._run(self._op, self._args)
            elif self.strict:
                raise ChipError("too many parameters for command 0x%02x" % self._op)

    def _command(self, op):
        self.cmd_bytes += 1
        if self._need and self.strict:
            raise ChipError("command 0x%02x before command 0x%02x had its parameters" % (op, self._op))
        now = self.clock()
        if now < self._quiet_until and self.strict:
            raise ChipError("command 0x%02x within 5 ms of a reset or a sleep change" % op)
        need = self.ARGS.get(op)
        if need is None:
            if self.strict:
                raise ChipError("unknown command 0x%02x" % op)
            self._op = None
            return
        self.op_counts[op] = self.op_counts.get(op, 0) + 1
        self._op = op
        self._args = bytearray()
        self._need = need
        if op == _RAMWR or op == _RAMWRC:
            if self.strict and self.colmod & 7 != 5:
                raise ChipError("only 16-bit pixels (COLMOD 0x55) are emulated, not 0x%02x" % self.colmod)
            self._check_window()
            if op == _RAMWR:
                self.col, self.row = self.xs, self.ys
            self._odd = -1
        elif not need:
            self._run(op, b"")

    def _run(self, op, args):
        if op == 0x01:
            self.software_reset()
        elif op == 0x10 or op == 0x11:
            if op == 0x11 and self.strict and self.clock() < self._slpout_from:
                raise ChipError("SLPOUT within 120 ms of a reset")
            self.asleep = op == 0x10
            self._quiet_until = self.clock() + 5
        elif op == 0x20 or op == 0x21:
            self.inv_on = op == 0x21
        elif op == 0x28 or op == 0x29:
            self.display_on = op == 0x29
        elif op == 0x2A:
            self.xs, self.xe = args[0] << 8 | args[1], args[2] << 8 | args[3]
        elif op == 0x2B:
            self.ys, self.ye = args[0] << 8 | args[1], args[2] << 8 | args[3]
        elif op == 0x36:
            self.madctl = args[0]
        elif op == 0x3A:
            self.colmod = args[0]
        elif args:
            self.settings[op] = bytes(args)
        # NOP, NORON, PTLON, TEOFF, IDMOFF ...: nothing to show for

    # ---- memory writes ------------------------------------------------------------
    def _limits(self):
        # Address ranges: columns x rows, exchanged when MV is set.
        return (RAM_H, RAM_W) if self.madctl & 0x20 else (RAM_W, RAM_H)

    def _check_window(self):
        cols, rows = self._limits()
        if self.strict and not (self.xs <= self.xe < cols and self.ys <= self.ye < rows):
            raise ChipError("address window %d..%d x %d..%d outside the RAM (%d x %d with MADCTL 0x%02x)"
                            % (self.xs, self.xe, self.ys, self.ye, cols, rows, self.madctl))

    def _index(self, a, b):
        """The offset in `ram` of address column a, row b; -1 for a RAM cell not behind the glass."""
        mad = self.madctl
        c, r = (b, a) if mad & 0x20 else (a, b)
        if mad & 0x40:
            c = RAM_W - 1 - c
        if mad & 0x80:
            r = RAM_H - 1 - r
        c -= self.col0
        r -= self.row0
        if not (0 <= c < self.panel_w and 0 <= r < self.panel_h):
            return -1
        if self.MIRROR_X:
            c = self.panel_w - 1 - c
        return (r * self.panel_w + c) * 2

    def _step(self):
        """Bytes in `ram` between a pixel and the next one along an address row."""
        mad = self.madctl
        if mad & 0x20:
            return -2 * self.panel_w if mad & 0x80 else 2 * self.panel_w
        return -2 if bool(mad & 0x40) != self.MIRROR_X else 2

    def _pixels(self, buf):
        n = len(buf)
        i = 0
        if self._odd >= 0 and n:
            self._put(self._odd, buf[0])
            self._odd = -1
            i = 1
        ram, step = self.ram, self._step()
        while n - i >= 2:
            run = min(self.xe - self.col + 1, (n - i) // 2)
            idx = self._index(self.col, self.row)
            end = self._index(self.col + run - 1, self.row)
            if idx < 0 or end < 0:  # partly outside the glass (or the RAM): one by one
                for _ in range(run):
                    self._put(buf[i], buf[i + 1])
                    i += 2
                continue
            if step == 2:
                ram[idx:idx + 2 * run] = buf[i:i + 2 * run]
                i += 2 * run
            elif _strided(ram, idx, step, run, buf, i):  # each pixel's two bytes, a stride apart
                i += 2 * run
            else:
                for _ in range(run):
                    ram[idx] = buf[i]
                    ram[idx + 1] = buf[i + 1]
                    idx += step
                    i += 2
            self.pixels += run
            self._advance(run)
        if i < n:
            self._odd = buf[i]

    def _put(self, hi, lo):
        idx = self._index(self.col, self.row)
        if idx >= 0:
            self.ram[idx] = hi
            self.ram[idx + 1] = lo
        self.pixels += 1
        self._advance(1)

    def _advance(self, run):
        self.col += run
        if self.col > self.xe:
            self.col = self.xs
            self.row = self.row + 1 if self.row < self.ye else self.ys


def _strided(ram, idx, step, run, buf, i):
    # Pixels i.. of buf into ram from idx on, `step` bytes apart, with extended slices where the
    # interpreter has them (CPython; MicroPython assigns slices of step 1 only): False if not.
    stop = idx + step * run
    try:
        ram[idx:stop if stop >= 0 else None:step] = buf[i:i + 2 * run:2]
        ram[idx + 1:stop + 1 if stop + 1 >= 0 else None:step] = buf[i + 1:i + 2 * run:2]
    except NotImplementedError:
        return False
    return True
