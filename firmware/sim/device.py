# The simulated device: the unchanged firmware on emulated parts, stepped in simulated time.
#
# Keys are pressed in the emulated keypad matrix and the encoder is turned
# pin by pin, so the real drivers debounce and decode them; the display is the
# emulated display chip fed by the real driver's bus writes (the SSD1306 on
# I2C or the ST7789 on SPI, as the board profile says). Tests use this
# directly; run.py puts a line protocol in front of it for the launcher.
import sys

import board
from clock import SimClock
from drivers.events import EventQueue
from runner import STEP_MS, Runner
from sim import simmachine
from sim.flashdev import FlashDev
from startup import start
from store.fsys import Disk
from store.mount import mount
from store.store import Store

HOLD_MS = 50  # a key press: held long enough for the keypad's debounce, then let go


class Device:
    def __init__(self, profile_path, flash_path=None, epoch=0, flash=None, disk=None,
                 serial=None, device_id="sim"):
        """serial: the USB serial's transport (link/transport.py, or a test's
        fake), served by the link as on the device; None: no serial."""
        profile = board.load_profile(profile_path)
        self.serial = serial
        self.device_id = device_id
        self.link = None
        self.machine = simmachine.from_profile(profile)
        self.board = board.build(profile, self.machine)
        if disk is None:  # the emulated flash chip with LittleFS on it
            self.flash = flash if flash is not None else FlashDev(path=flash_path)
            vol, _ = mount(self.flash)
            disk = Disk(vol, "/data")
        else:  # a Disk given by the caller (bench: the host file system, no flash image in the heap)
            self.flash = None
        self.clock = SimClock(epoch)
        self.app = start(self.board.display, Store(disk), self.clock, True, _log)
        if serial is not None:
            from link.link import Link

            self.link = Link(serial, self.app, device_id, _log)
        self.runner = Runner(self.app, self.board, EventQueue(), self.link)
        self.chip = self.machine.display
        self.seen = self.chip.glass()

    def advance(self, ms):
        clock = self.clock
        end = clock.ticks_ms() + ms
        while clock.ticks_ms() < end:
            clock.advance(STEP_MS)
            self.runner.step(clock.ticks_ms())

    def key(self, name):
        m = self.machine
        if name == "CW" or name == "CCW":
            m.knob.turn(1 if name == "CW" else -1)
            self.advance(HOLD_MS)
        elif name == "PUSH":
            m.knob.push()
            self.advance(HOLD_MS)
            m.knob.release()
            self.advance(HOLD_MS)
        else:
            m.matrix.press(name)
            self.advance(HOLD_MS)
            m.matrix.release(name)
            self.advance(HOLD_MS)

    def play(self, script):
        """Run whitespace-separated key tokens and wait:<ms> (what tests and docs use)."""
        for token in script.split():
            if token.startswith("wait:"):
                self.advance(int(token[5:]))
            elif token in KEYS:
                self.key(token)
            else:
                raise ValueError("unknown token %r" % token)

    def screen(self):
        """The text on the display now, one line per text row."""
        return self.app.canvas.screen_text()

    def changed(self):
        glass = self.chip.glass()
        if glass == self.seen:
            return 0
        self.seen = glass
        return 1

    def snap(self, out):
        glass = self.chip.glass()
        self.seen = glass
        # Mono glass (SSD1306): MONO_VLSB pages; colour glass (ST7789): RGB565 big-endian, row by row.
        kind = "snap565" if getattr(self.chip, "colour", False) else "snap"
        out.write("%s %d %d " % (kind, self.chip.width, self.chip.height))
        # In pieces: a colour glass in one piece would be 130 KB of hex at once.
        for i in range(0, len(glass), 2048):
            out.write(_hex(glass[i:i + 2048]))
        out.write("\n")
        for line in self.app.canvas.screen_text():
            out.write("text %s\n" % line)
        out.write("end\n")


def _hex(data):
    import binascii

    return binascii.hexlify(data).decode()


def _log(err):
    sys.print_exception(err, sys.stderr)


KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "*", "#",
        "CW", "CCW", "PUSH")
