# The simulated device: the unchanged firmware on emulated parts, stepped in simulated time.
#
# The chip's pins and buses are sim/simmachine.py's; the board around them
# (display, keypad, encoder: host_tools/simboard) is in this process for the
# firmware tests (simmachine.from_profile: keys are pressed in the emulated
# matrix and the encoder is turned contact by contact, so the real drivers
# debounce and decode them, and the display chip is fed the real driver's bus
# writes), and in the launcher's process for the simulator (run.py: the
# machine's wire is a pipe, and the launcher presses the keys).
#
# Deep sleep (power.py): the firmware's SimPower marks the device asleep; from
# then on nothing runs until the board's parts pull a wake pin (a key, or the
# knob's button where it is the wake pin: SimPower.woken), which starts the
# firmware again on the same flash, as the reboot an ESP32 wakes with; the
# rest of that wait is the chip's boot, so the key does nothing else.
import sys

import board
from clock import SimClock
from runner import STEP_MS
from sim.simpower import SimPower

KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "*", "#",
        "CW", "CCW", "PUSH")


class Device:
    keys = KEYS
    on_step = None  # called after every step of the firmware (run.py: the heap's peak, sim/chipstats.py)

    def __init__(self, profile_path, flash_path=None, epoch=0, flash=None, disk=None, hold=None,
                 serial=None, device_id="sim", vol=None, main=None, profile=None, machine=None, capture=True):
        """hold: a key held down while the device starts ("*": the self-test).
        serial: the USB serial's transport (link/transport.py, or a test's
        fake), served by the link as on the device; None: no serial.
        vol: the flash's LittleFS, mounted already; "/" when it is the root
        file system (run.py boots the flash's own application so: sim/flashboot.py);
        None: mounted here. main: the firmware's main module, whose assemble()
        builds the device (run.py hands in the slot's main.py); None: `import main`.
        profile: the profile's dict, when it was read already (profile_path is then only its name).
        machine: the chip's Machine, or a function making one at each boot (run.py: on the wire
        to the launcher's board); None: simmachine.from_profile, the board in this process.
        capture: the canvas's capture (ui/canvas.py): True keeps the text here (screen()), the
        wire sends it to the launcher."""
        self.profile = profile if profile is not None else board.load_profile(profile_path)
        self.serial = serial
        self.device_id = device_id
        self.link = None
        if disk is None and vol is None:  # the emulated flash chip with LittleFS on it
            from sim.flashdev import FlashDev

            self.flash = flash if flash is not None else FlashDev(path=flash_path)
        else:  # mounted by the caller, or a Disk given (bench: the host file system, no flash image in the heap)
            self.flash = flash
        self.disk = disk
        self.vol = vol
        if main is None:
            import main
        self.main = main
        self.restart_pending = False  # a soft reboot asked for (Ctrl-D at the REPL): run.py restarts the
        # process; without run.py the next advance() boots the firmware again here
        self.power = SimPower(self.profile)  # its RTC memory lasts as long as this Device
        self.capture = capture
        self._machine = machine
        self._boot(epoch, _log, hold)

    def _boot(self, epoch, log, hold=None):
        # Power-up or wake: all but the flash and the power's memory starts afresh. The firmware's
        # main.assemble() builds it all on the emulated machine, as assemble.run() does on the chip.
        # The machine's reset() (after an update) only marks reset_pending: run.py ends the
        # process and the launcher starts it again, as the chip starts with empty RAM;
        # elsewhere (tests) the device runs on.
        make = self._machine
        if make is None:  # the board in this process too (the firmware tests)
            from sim import simmachine

            self.machine = simmachine.from_profile(self.profile)
        elif callable(make):
            self.machine = make()
        else:  # the machine the flash's boot.py ran on: this boot's; the next one makes its own
            self.machine = make
            self._machine = None
        vol = self.vol
        if self.disk is None and vol is None:
            from store.mount import mount

            vol, _ = mount(self.flash)
            self.vol = vol
        self.clock = SimClock(epoch)
        self.due = 0  # the simulated ms the waits so far asked for (advance() steps just past it)
        if hold is not None:
            self.machine.matrix.press(hold)
        self.runner = self.main.assemble(self.machine, self.profile, self.clock, self._power, self.serial,
                                         self.device_id, None if vol == "/" else vol, self.capture, log, self.disk)
        if hold is not None:
            self.machine.matrix.release(hold)
        self.app = self.runner.app
        self.link = self.runner.link  # a reboot ends a session, as on the device; the cable stays
        self.board = self.runner.board
        self.chip = getattr(self.machine, "display", None)  # the board's display, when it is in this process

    def _power(self, hw):
        return self.power  # its RTC memory lasts through the deep sleeps

    @property
    def reset_pending(self):
        """machine.reset() was asked for (after an update; run.py, the launcher, restart the process)."""
        return self.machine.reset_asked()

    @property
    def asleep(self):
        """In deep sleep: the firmware does not run until a key in power.wakes."""
        return self.power.sleeping

    def _reboot_if_asked(self):
        if self.restart_pending:  # a soft reboot asked for and nobody restarted the process (tests)
            self.restart_pending = False
            self._boot(0, self.app.log)

    def advance(self, ms):
        # The firmware runs in whole STEP_MS steps: a wait ends on the first step at or past
        # what all the waits so far asked for, and the next one starts from that sum, not from
        # the step, so the overshoot is carried and simulated time keeps to the waits' total
        # (the launcher's --stay follows real time with waits of 10 to 20 ms: rounding each one
        # up, the clock ran 1.5 times too fast; issue 15).
        self._reboot_if_asked()
        clock = self.clock
        self.due += ms
        end = self.due
        while clock.ticks_ms() < end:
            if self.restart_pending:  # the rest of this wait belongs to the firmware that starts next
                return
            if self.power.sleeping:  # nothing runs; only the time asleep is counted
                self.power.slept_ms += end - clock.ticks_ms()
                self.due = clock.ticks_ms()
                if self.power.woken(self.machine):  # a wake pin pulled: the chip boots again,
                    self.power.wake()  # which takes the rest of this wait
                    self._boot(0, self.app.log)  # the wall clock comes back from the record
                return
            clock.advance(STEP_MS)
            self.runner.step(clock.ticks_ms())
            self.machine.wdt_elapse(STEP_MS)  # the chip's watchdog counts the same time (WatchdogReset: run.py)
            if self.on_step is not None:
                self.on_step()

    def key(self, name):
        """Press a key or work the knob of the board in this process (simmachine.from_profile)."""
        self._reboot_if_asked()  # before the key goes to a machine the reboot would replace
        self.machine.bench.press(name, self.advance)

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


def _log(err):
    sys.print_exception(err, sys.stderr)
