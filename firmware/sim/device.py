# The simulated device: the unchanged firmware on emulated parts, stepped in simulated time.
#
# Keys are pressed in the emulated keypad matrix and the encoder is turned
# pin by pin, so the real drivers debounce and decode them; the display is the
# emulated display chip fed by the real driver's bus writes (the SSD1306 on
# I2C or the ST7789 on SPI, as the board profile says). Tests use this
# directly; run.py puts a line protocol in front of it for the launcher.
#
# Deep sleep (power.py): the firmware's SimPower marks the device asleep; from
# then on nothing runs until a key that would wake the real board (power.wakes)
# is pressed, which starts the firmware again on the same flash, as the
# reboot an ESP32 wakes with, and does nothing else.
import sys

import board
from clock import SimClock
from drivers.events import EventQueue
from runner import STEP_MS, Runner
from sim import simmachine, simwdt
from sim.flashdev import FlashDev
from sim.halted import write_glass
from sim.simpower import SimPower
from startup import start
from store.fsys import Disk
from store.mount import mount
from store.store import Store

KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "*", "#",
        "CW", "CCW", "PUSH")
HOLD_MS = 50  # a key press: held long enough for the keypad's debounce, then let go


class Device:
    keys = KEYS  # what run.py passes on

    def __init__(self, profile_path, flash_path=None, epoch=0, flash=None, disk=None, hold=None,
                 serial=None, device_id="sim", vol=None):
        """hold: a key held down while the device starts ("*": the self-test).
        serial: the USB serial's transport (link/transport.py, or a test's
        fake), served by the link as on the device; None: no serial.
        vol: the flash's LittleFS, mounted already (run.py does, to boot an
        application slot from it: update/stage.py); None: mounted here."""
        self.profile = board.load_profile(profile_path)
        self.serial = serial
        self.device_id = device_id
        self.link = None
        if disk is None:  # the emulated flash chip with LittleFS on it
            self.flash = flash if flash is not None else FlashDev(path=flash_path)
        else:  # a Disk given by the caller (bench: the host file system, no flash image in the heap)
            self.flash = None
        self.disk = disk
        self.vol = vol
        self.restart_pending = False  # a soft reboot asked for (Ctrl-D at the REPL): run.py restarts the
        # process; without run.py the next advance() boots the firmware again here
        self.reset_pending = False  # machine.reset() asked for (after an update; run.py, the launcher)
        self.power = SimPower(self.profile)  # its RTC memory lasts as long as this Device
        self._boot(epoch, _log, hold)
        self.seen = self.chip.fingerprint()  # a checksum, not a copy: a colour glass is 65 KB

    def _boot(self, epoch, log, hold=None):
        # Power-up or wake: all but the flash and the power's memory starts afresh.
        self.machine = simmachine.from_profile(self.profile)
        self.board = board.build(self.profile, self.machine)
        disk = self.disk
        if disk is None:
            vol = self.vol
            if vol is None:
                vol, _ = mount(self.flash)
            disk = Disk(vol, "/data")
        self.clock = SimClock(epoch)
        if hold is not None:
            self.machine.matrix.press(hold)
        self.app = start(self.board.display, Store(disk), self.clock, True, log, self.power,
                         self.board.keypad)
        if hold is not None:
            self.machine.matrix.release(hold)
        self.app.wlan = lambda: board.wlan(self.machine)  # the laptop's network (sim/simnet.py)
        self.app.restart = self._restart  # after an update over Wi-Fi
        if self.serial is not None:  # a reboot ends a session, as on the device; the cable stays
            from link.link import Link

            self.link = Link(self.serial, self.app, self.device_id, log)
            self.link.restart = self._restart
        self.runner = Runner(self.app, self.board, EventQueue(), self.link)
        self.chip = self.machine.display

    def _restart(self):
        # machine.reset() after an update's switch: the new version runs from the next boot.
        # run.py ends the process and the launcher starts it again, as the chip starts
        # with empty RAM; elsewhere (tests) the device runs on.
        self.reset_pending = True

    @property
    def asleep(self):
        """In deep sleep: the firmware does not run until a key in power.wakes."""
        return self.power.sleeping

    def _reboot_if_asked(self):
        if self.restart_pending:  # a soft reboot asked for and nobody restarted the process (tests)
            self.restart_pending = False
            self._boot(0, self.app.log)

    def advance(self, ms):
        self._reboot_if_asked()
        clock = self.clock
        end = clock.ticks_ms() + ms
        while clock.ticks_ms() < end:
            if self.restart_pending:  # the rest of this wait belongs to the firmware that starts next
                return
            if self.power.sleeping:  # nothing runs; only the time asleep is counted
                self.power.slept_ms += end - clock.ticks_ms()
                return
            clock.advance(STEP_MS)
            self.runner.step(clock.ticks_ms())
            simwdt.elapse(STEP_MS)  # the chip's watchdog counts the same time (WatchdogReset: run.py)

    def key(self, name):
        self._reboot_if_asked()  # before the key goes to a machine the reboot would replace
        if self.power.sleeping:
            if name in self.power.wakes:
                self.power.wake()
                self._boot(0, self.app.log)  # the wall clock comes back from the record
            return
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
        seen = self.chip.fingerprint()
        if seen == self.seen:
            return 0
        self.seen = seen
        return 1

    def snap(self, out):
        write_glass(out, self.chip, self.app.canvas.screen_text())
        self.seen = self.chip.fingerprint()


def _log(err):
    sys.print_exception(err, sys.stderr)

