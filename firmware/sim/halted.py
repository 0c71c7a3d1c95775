# The simulated device once its firmware ended in an exception at start, or never started (never deployed):
# MicroPython's REPL.
#
# On the device an exception escaping main.py (a module that raises on
# import, say) prints its traceback on the USB serial and leaves MicroPython's
# REPL there: nothing of the application runs, no key is read, the display
# keeps what it had (nothing, this early in a boot), and nothing feeds the
# watchdog a trial or probation boot started, so the chip resets once its
# timeout has passed (sim/simwdt.py) and bootsel.py counts the next try. The
# same REPL waits when no application starts at all (the recovery key with
# nothing to go back to, a slot without main.py). Halted stands in for
# sim/device.py's Device in run.py's loop: simulated time still passes for
# the watchdog, and the REPL answers on the serial (sim/simrepl.py's Repl),
# so mpremote and `tafel flash --force` reach it as they reach the board. It
# imports nothing of the application, which is what failed. The board's
# display keeps what the firmware drew, if anything (chip: the display in
# this process, for tests; the launcher keeps its own).
import json
import sys

from sim import simwdt

BANNER = b"MicroPython on the Tafel simulator\r\nType \"help()\" for more information.\r\n>>> "


class Halted:
    keys = None  # any key name: nothing reads them
    restart_pending = False  # Ctrl-D at the REPL: run.py starts the process again
    reset_pending = False
    asleep = False
    app = None  # no application runs
    runner = None

    def __init__(self, profile, serial, err, device_id="sim", chip=None, elapse=None):
        """profile: the board profile's dict (or its path); serial: the USB serial (sim/simusb.py's
        SimUSB, or any transport) or None; err: the exception that ended the start, or None."""
        if type(profile) is str:
            with open(profile) as f:
                profile = json.load(f)
        self.profile = profile
        self.serial = serial
        self.device_id = device_id
        self.chip = chip  # the display as the firmware left it (None: in the launcher, or none set up)
        self.elapse = elapse or simwdt.elapse
        self.board = _Board(self.profile.get("name", ""))
        self.error = err
        self.now = 0
        text = b""
        if err is not None:
            import io

            out = io.StringIO()
            sys.print_exception(err, out)
            sys.stderr.write(out.getvalue())
            text = out.getvalue().replace("\n", "\r\n").encode()
        self.repl = None
        if serial is not None:  # what the REPL shows a host that opens the port
            from sim.simrepl import Repl

            if hasattr(serial, "port"):  # the REPL reads the serial itself
                self.repl = Repl(serial, self, greeting=text + BANNER)
            else:
                serial.write(text + BANNER)

    def key(self, name):
        pass

    def advance(self, ms):
        self.now += ms
        if self.repl is not None:
            self.repl.step(self.now)
        self.elapse(ms)

    def screen(self):
        return []


class _Board:
    def __init__(self, name):
        self.name = name
