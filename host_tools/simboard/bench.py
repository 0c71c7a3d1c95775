# The simulated board around the chip: its display, keypad and encoder, wired to the chip's GPIOs as a profile says.
#
#   bench = Bench(profile)                 # the parts, wired as hardware/boards/<board>.json says
#   bench.attach(send_nets)                # send_nets(payload): the parts' nets go to the chip
#   bench.board_frame(), bench.nets_frame()   # what the chip is told at power-up (wire.py's format)
#   bench.i2c_write(bus, addr, bufs) ...   # what the chip's buses and pins put out, in the order it did
#   bench.press("5", run)                  # a key held for HOLD_MS of the chip's time, then let go
#   bench.display.picture(), bench.lines   # the glass, and the text rows the firmware drew
#
# The chip (firmware/sim/simmachine.py, the firmware's `machine`) holds only
# its own pins and buses; everything outside it is here, outside the chip's
# heap: the launcher (host_tools/sim/device.py) keeps a Bench in its own
# process and speaks to the chip's process over a pipe (wire.py), and the
# firmware tests keep one in their process (firmware/sim/simmachine.py
# from_profile) and call it directly. The same parts, the same wiring, the
# same bytes either way. Runs on CPython and on MicroPython.
from .parts import Knob, Matrix, Nets

HOLD_MS = 50  # a key press: held long enough for the keypad's debounce, then let go
KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "*", "#", "CW", "CCW", "PUSH")

# Flags a GPIO gets in a nets frame (wire.py): a part's contact to ground, its pull-up, its pull-down.
GROUND, UP, DOWN = 1, 2, 4


class Bench:
    def __init__(self, profile, strict=True):
        """profile: a board profile's dict. strict: a chip refuses what a real one would misread
        (ChipError), so driver bugs surface."""
        self.profile = profile
        self.strict = strict
        self.i2c = []  # [((scl, sda), {address: chip})], a bus's index is its place here
        self.spi = []  # [((sck, mosi), [(chip, cs, dc)])]
        self.listeners = {}  # GPIO -> [callback(level)]: parts following one of the chip's outputs
        self.levels = {}  # the levels of those GPIOs as the chip last said them (None: floating)
        self.duty = {}  # GPIO -> PWM duty_u16 while a PWM drives it
        self.elapsed_ms = 0  # the chip's sleep_ms() calls, the clock a chip's timing rules go by
        self.lines = []  # the text rows the firmware drew (its canvas's capture, wire.py's T frames)
        self.cols = 0
        self.faults = []  # what a chip refused over the pipe (the launcher reports it)
        self._send = None
        self.display = self.matrix = self.knob = None
        _display(self, profile["display"], strict)
        k = profile["keypad"]
        self.matrix = Matrix(k["rows"], k["cols"], k["keys"], self._changed)
        e = profile.get("encoder")
        if e:
            # pull_up false in a profile says the module pulls A and B up itself.
            self.knob = Knob(e["a"], e["b"], e.get("button"), self._changed, e.get("steps_per_detent", 4),
                             pull_ups=not e.get("pull_up", False))

    # ---- wiring ---------------------------------------------------------------------
    def attach(self, send_nets):
        """send_nets(payload): how the parts' nets reach the chip (a nets frame's payload)."""
        self._send = send_nets

    def _changed(self):
        if self._send is not None:
            self._send(self.nets_frame())

    def listen(self, gpio, callback):
        self.listeners.setdefault(gpio, []).append(callback)

    def board_frame(self):
        """The chip's view of the board (wire.py B): which addresses answer on which I2C bus, the
        SPI buses, and the outputs whose level the parts follow (the chip says them as they change)."""
        out = bytearray([len(self.i2c)])
        for (scl, sda), chips in self.i2c:
            out += bytes([scl, sda, len(chips)] + sorted(chips))
        out.append(len(self.spi))
        for (sck, mosi), _ in self.spi:
            out += bytes([sck, mosi])
        heard = sorted(self.listeners)
        out.append(len(heard))
        out += bytes(heard)
        return bytes(out)

    def nets(self):
        nets = Nets()
        for part in (self.matrix, self.knob):
            if part is not None:
                part.net(nets)
        return nets

    def nets_frame(self):
        """The parts' nets as the chip takes them (wire.py N): joined pairs, then a flag byte per GPIO."""
        nets = self.nets()
        flags = {}
        for n in nets.ground:
            flags[n] = flags.get(n, 0) | GROUND
        for n in nets.up:
            flags[n] = flags.get(n, 0) | UP
        for n in nets.down:
            flags[n] = flags.get(n, 0) | DOWN
        out = bytearray([len(nets.pairs)])
        for a, b in nets.pairs:
            out += bytes([a, b])
        out.append(len(flags))
        for n in sorted(flags):
            out += bytes([n, flags[n]])
        return bytes(out)

    # ---- what the chip puts out ---------------------------------------------------------
    def i2c_write(self, bus, addr, bufs):
        """One I2C write transaction (the buffers after the address byte)."""
        chip = self.i2c[bus][1].get(addr)
        if chip is not None:
            chip.write(bufs)

    def spi_write(self, bus, buf):
        """Bytes clocked out on SPI bus `bus`: to each chip whose CS is low, with its DC line's level."""
        for chip, cs, dc in self.spi[bus][1]:
            if cs is None or self.levels.get(cs) == 0:
                chip.spi_write(buf, self.levels.get(dc))

    def pin(self, gpio, level):
        """A GPIO the parts follow changed level (0, 1, or None when floating)."""
        self.levels[gpio] = level
        for callback in self.listeners.get(gpio, ()):
            callback(level)

    def pwm(self, gpio, duty):
        """A PWM drives the GPIO at duty_u16 (0-65535), or stopped (None)."""
        if duty is None:
            self.duty.pop(gpio, None)
        else:
            self.duty[gpio] = duty
        for callback in self.listeners.get(gpio, ()):
            callback(self.levels.get(gpio))

    def brightness(self, gpio):
        """0.0-1.0: a PWM's duty, else the pin's level (0 when floating)."""
        duty = self.duty.get(gpio)
        if duty is not None:
            return duty / 65535
        return self.levels.get(gpio) or 0

    def sleep(self, ms):
        self.elapsed_ms += ms

    def text(self, row, col, s):
        """The firmware drew `s` at text column `col` of `row` (its canvas's capture, ui/canvas.py)."""
        lines = self.lines
        if not 0 <= row < len(lines):
            return
        line = lines[row]
        if len(line) < col:
            line += " " * (col - len(line))
        lines[row] = (line[:col] + s + line[col + len(s):])[:self.cols]

    def clear(self, row):
        if 0 <= row < len(self.lines):
            self.lines[row] = ""

    def forget_text(self, rows=0, cols=0):
        """A new canvas of `rows` x `cols` text cells (the firmware started again), or none (0: halted)."""
        self.lines = [""] * rows
        self.cols = cols

    def screen(self):
        """The text on screen, one line per text row, trailing blanks removed."""
        return [line.rstrip() for line in self.lines]

    # ---- the user -------------------------------------------------------------------
    def press(self, name, run):
        """Press and let go a key (0-9 A-D * #) or the knob (CW, CCW: one detent; PUSH); run(ms)
        lets the chip's time pass while it is held and after."""
        if name == "CW" or name == "CCW":
            self.knob.turn(1 if name == "CW" else -1)
            run(HOLD_MS)
        elif name == "PUSH":
            self.knob.push()
            run(HOLD_MS)
            self.knob.release()
            run(HOLD_MS)
        else:
            self.matrix.press(name)
            run(HOLD_MS)
            self.matrix.release(name)
            run(HOLD_MS)


def _display(bench, d, strict):
    clock = lambda: bench.elapsed_ms  # noqa: E731
    if d["driver"] == "ssd1306" and d["bus"] == "i2c":
        from .ssd1306 import SSD1306Chip

        bench.display = SSD1306Chip(d["width"], d["height"], d.get("external_vcc", False), strict)
        bench.i2c.append(((d["i2c"]["scl"], d["i2c"]["sda"]), {d.get("address", 0x3C): bench.display}))
        return
    if d["driver"] == "st7789" and d["bus"] == "spi":
        from .st7789 import ST7789Chip as chip_class
    elif d["driver"] == "ili9341" and d["bus"] == "spi":
        from .ili9341 import ILI9341Chip as chip_class
    else:
        raise ValueError("the simulator has no %r on %r" % (d["driver"], d["bus"]))
    # An SPI colour LCD: the ST7789, or a controller modelled on it (ili9341.py).
    invert = d.get("invert_colours", chip_class.__name__ == "ST7789Chip")
    chip = bench.display = chip_class(d["width"], d["height"], d.get("rotation", 0), invert, strict, clock=clock)
    cs, dc = d.get("cs"), d["dc"]
    bench.spi.append(((d["spi"]["sck"], d["spi"]["mosi"]), [(chip, cs, dc)]))
    bench.listen(dc, _ignore)
    if cs is not None:
        bench.listen(cs, _ignore)
    if d.get("rst") is not None:
        bench.listen(d["rst"], lambda level: chip.reset_line(level != 0))
    bl = d.get("backlight")
    if bl is not None:
        bench.listen(bl, lambda level: chip.set_backlight(bench.brightness(bl)))
    else:
        chip.set_backlight(1.0)  # a backlight wired to the supply


def _ignore(level):
    pass  # followed for the bus (CS, DC): spi_write reads bench.levels
