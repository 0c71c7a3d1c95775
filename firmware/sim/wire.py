# The chip's end of the wire to the simulated board (never deployed): its pins' and buses' output out, the parts' nets in.
#
# The simulator keeps the chip and the board apart, as they are on the table:
# the chip's process (sim/run.py on MicroPython) holds the firmware and only
# the chip's own pins and buses (sim/simmachine.py); the board around it (the
# display with its glass, the keypad, the encoder: host_tools/simboard) is in
# the launcher's process, outside the chip's heap. Between them, a pipe each
# way, carrying frames: a kind byte, a length (little-endian), the payload.
#
# chip -> board (4-byte length)
#   I  bus, address, bytes      an I2C write transaction (the bytes after the address)
#   S  bus, bytes               bytes clocked out on an SPI bus
#   P  gpio, level              an output the board follows changed (0, 1, 2: floating)
#   W  gpio, duty u16, on       a PWM on the pin (on 0: stopped)
#   Z  ms u32                   sleep_ms(): the chip's set-up delays (an LCD's timing rules)
#   K  rows, cols               the firmware's canvas: a new screen of text rows
#   T  row, col (signed)        then the text's UTF-8 bytes and a 0 byte: text drawn there
#   C  row                      a text row cleared
#   R  text                     a line for the launcher: ready, ok, wdt <ms>, fed, reset ...
# board -> chip (2-byte length)
#   B  the board's wiring       I2C buses with the addresses that answer, SPI buses, outputs followed
#   N  the parts' nets          pairs of GPIOs joined, then a flag byte a GPIO (ground, pull-up, pull-down)
#   G  ms u32                   let ms of the chip's time pass (run the firmware), then R ok
#   Q                           quit
# Text is the firmware's capture of what it drew (ui/canvas.py), for tests and
# headless runs; a chip has none. Nothing here allocates per frame: headers go
# through one buffer, payloads are the firmware's own buffers.
import struct

HEAD = 5  # kind, length u32


class PipeWire:
    """The chip's end: frames to the board on `out`, commands from it on `inp` (binary files)."""

    def __init__(self, inp, out):
        self.inp = inp
        self.out = out
        head = self._head = bytearray(HEAD + 4)
        view = memoryview(head)
        self._h5, self._h6, self._h7 = view[:5], view[:6], view[:7]  # made once: a memoryview is a new object
        self.cmd = bytearray(260)  # the last command's payload
        self.kind = self.size = 0

    def _frame(self, kind, n):
        struct.pack_into("<BI", self._head, 0, kind, n)
        return self._head

    def i2c(self, bus, addr, bufs):
        n = 2
        for buf in bufs:
            n += len(buf)
        head = self._frame(73, n)  # I
        head[5] = bus
        head[6] = addr
        self.out.write(self._h7)
        for buf in bufs:
            self.out.write(buf)

    def spi(self, bus, buf):
        head = self._frame(83, 1 + len(buf))  # S
        head[5] = bus
        self.out.write(self._h6)
        self.out.write(buf)

    def pin(self, gpio, level):
        head = self._frame(80, 2)  # P
        head[5] = gpio
        head[6] = 2 if level is None else level
        self.out.write(self._h7)

    def pwm(self, gpio, duty):
        head = self._frame(87, 4)  # W
        struct.pack_into("<BHB", head, 5, gpio, duty or 0, duty is not None)
        self.out.write(head)

    def sleep(self, ms):
        head = self._frame(90, 4)  # Z
        struct.pack_into("<I", head, 5, ms)
        self.out.write(head)

    def canvas(self, rows, cols):
        head = self._frame(75, 2)  # K
        head[5] = rows
        head[6] = cols
        self.out.write(self._h7)

    def text(self, row, col, s):
        head = self._frame(84, 2)  # T
        head[5] = row
        head[6] = col & 0xFF
        self.out.write(self._h7)
        self.out.write(s)  # a str's UTF-8 bytes, written as they are (nothing new is made)
        self.out.write(b"\x00")

    def clear(self, row):
        head = self._frame(67, 1)  # C
        head[5] = row
        self.out.write(self._h6)

    def say(self, line):
        """A line for the launcher (bytes or str, no newline)."""
        if type(line) is str:
            line = line.encode()  # its length in bytes (a rare line: an error's, a watchdog's)
        self._frame(82, len(line))  # R
        self.out.write(self._h5)
        self.out.write(line)

    def command(self):
        """Waits for the board's next command: its kind (an int; 0 when the pipe closed), its
        payload in self.cmd[:self.size]. The launcher writes each command in one piece."""
        head = self._head
        if not self._read(head, 3):
            return 0
        self.kind = head[0]
        self.size = head[1] | head[2] << 8
        if self.size > len(self.cmd):
            raise ValueError("a command of %d bytes" % self.size)
        if self.size and not self._read(self.cmd, self.size):
            return 0
        return self.kind

    def _read(self, buf, n):
        got = self.inp.readinto(buf, n)  # a whole command is in the pipe: one read, nothing made
        if not got:
            return False
        view = None
        while got < n:  # a piece only (not how the launcher writes): the rest into a view
            if view is None:
                view = memoryview(buf)
            k = self.inp.readinto(view[got:n])
            if not k:
                return False
            got += k
        return True

    def number(self):
        """A command's u32 payload (G): the ms to run."""
        c = self.cmd
        return c[0] | c[1] << 8 | c[2] << 16 | c[3] << 24


class LocalWire:
    """The same wire in one process (the firmware tests): each frame is a call on the bench."""

    def __init__(self, bench):
        self.bench = bench

    def i2c(self, bus, addr, bufs):
        self.bench.i2c_write(bus, addr, bufs)

    def spi(self, bus, buf):
        self.bench.spi_write(bus, buf)

    def pin(self, gpio, level):
        self.bench.pin(gpio, level)

    def pwm(self, gpio, duty):
        self.bench.pwm(gpio, duty)

    def sleep(self, ms):
        self.bench.sleep(ms)

    def canvas(self, rows, cols):
        self.bench.forget_text(rows, cols)

    def text(self, row, col, s):
        self.bench.text(row, col, s)

    def clear(self, row):
        self.bench.clear(row)

    def say(self, line):
        pass


class NoWire(LocalWire):
    """A chip with nothing wired to it (tests of the chip's own pins): what it puts out goes nowhere."""

    def __init__(self):
        LocalWire.__init__(self, self)

    def __getattr__(self, name):
        return _nothing


def _nothing(*args):
    pass
