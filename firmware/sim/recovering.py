# The simulated device in recovery mode (never deployed): the firmware's recovery app on the emulated parts.
#
# What port/_boot.py runs on the chip when store/mount.py says the flash holds
# games its file system does not show (recovery/boot.py run()), stepped here in
# simulated time as sim/device.py steps the application: the same recovery
# code (frozen in the device build, this checkout's otherwise), the board's
# display and keypad from its profile, the USB link on the simulator's serial.
# It stands in for Device in run.py's loop: advance (and key, with the board in
# this process). After the user's format the machine's reset() is asked for and
# run.py starts the process again, which boots the freshly formatted flash.
import board
from recovery.app import STEP_MS, Recovery
from recovery.boot import restore
from recovery.commands import RecoveryLink

KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "*", "#", "CW", "CCW", "PUSH")


class RecoveringDevice:
    keys = KEYS
    app = None  # no application runs (the REPL a Ctrl-C opens has no file system to show)
    asleep = False
    restart_pending = False  # a soft reboot at the REPL (sim/simusb.py): run.py starts the process again

    def __init__(self, profile, dev, why, games, serial=None, device_id="sim", machine=None, capture=True):
        """profile: the board profile's dict; dev: the flash's block device; why, games: store/mount.py's
        recovery decision; serial: the USB serial's transport (sim/simusb.py SimUSB) or None;
        machine: the chip's (run.py: on the wire to the launcher's board), None: a board in this
        process; capture: the canvas's (sim/device.py)."""
        if machine is None:  # the board in this process too (the firmware tests)
            from sim import simmachine

            machine = simmachine.from_profile(profile)
        self.machine = machine
        self.board = board.build(profile, self.machine)
        self.chip = getattr(self.machine, "display", None)
        self.serial = serial
        self.recovery = Recovery(self.board, dev, why, games, self.machine.reset, capture=capture)
        self.recovery.restore = restore  # as on the chip: /main.py (and the profile NVS kept) after a format
        if serial is not None:
            self.recovery.link = RecoveryLink(serial, self.recovery, device_id)
            serial.device = self  # a Ctrl-C outside a session opens the REPL (sim/simusb.py)
        self.runner = self.recovery  # what each step runs; the REPL takes its place after a Ctrl-C
        self.now = self.due = 0
        self.recovery.render()

    @property
    def reset_pending(self):
        return self.machine.reset_asked()

    def advance(self, ms):
        self.due += ms  # what the waits asked for: the steps' overshoot is carried (sim/device.py)
        end = self.due
        while self.now < end and not self.reset_pending and not self.restart_pending:
            self.now += STEP_MS
            self.runner.step(self.now)
            self.machine.wdt_elapse(STEP_MS)

    def key(self, name):
        self.machine.bench.press(name, self.advance)

    def screen(self):
        return self.recovery.canvas.screen_text()
