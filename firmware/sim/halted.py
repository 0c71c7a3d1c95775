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
# the watchdog, and the REPL answers on the serial (sim/simusb.py's Repl),
# so mpremote and `tafel flash --force` reach it as they reach the board. It
# imports nothing of the application, which is what failed: the parts come
# from this checkout's sim/.
import json
import sys

from sim import simmachine, simwdt

BANNER = b"MicroPython on the Tafel simulator\r\nType \"help()\" for more information.\r\n>>> "


class Halted:
    keys = None  # any key name: nothing reads them
    restart_pending = False  # Ctrl-D at the REPL: run.py starts the process again
    reset_pending = False
    asleep = False
    app = None  # no application runs
    runner = None

    def __init__(self, profile, serial, err, device_id="sim", chip=None):
        """profile: the board profile's dict (or its path); serial: the USB serial (sim/simusb.py's
        SimUSB, or any transport) or None; err: the exception that ended the start, or None."""
        if type(profile) is str:
            with open(profile) as f:
                profile = json.load(f)
        self.profile = profile
        self.serial = serial
        self.device_id = device_id
        # the display as the firmware left it, or one nobody set up: dark
        self.chip = chip if chip is not None else simmachine.from_profile(self.profile).display
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
            from sim.simusb import Repl

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
        simwdt.elapse(ms)

    def changed(self):
        return 0

    def screen(self):
        return []

    def snap(self, out):
        write_glass(out, self.chip, self.screen())


class _Board:
    def __init__(self, name):
        self.name = name


class Glass:
    """changed() and snap() for run.py, over a device's `chip`, its `seen` fingerprint and its screen()."""

    def changed(self):
        seen = self.chip.fingerprint()
        if seen == self.seen:
            return 0
        self.seen = seen
        return 1

    def snap(self, out):
        write_glass(out, self.chip, self.screen())
        self.seen = self.chip.fingerprint()


def write_glass(out, chip, rows):
    """run.py's snap answer: the glass (mono MONO_VLSB pages, or RGB565 big-endian) and the text rows.

    Returns the glass's bytes (the chip's picture buffer: look, do not keep)."""
    import binascii

    glass = chip.picture()  # the chip's own buffer: no new block in the device's heap
    kind = "snap565" if getattr(chip, "colour", False) else "snap"
    out.write("%s %d %d " % (kind, chip.width, chip.height))
    # In small pieces: the simulator runs in the device's heap, so no large block is asked for
    # (a colour glass in one piece would be 130 KB of hex at once).
    view = memoryview(glass)
    for i in range(0, len(glass), 128):
        out.write(binascii.hexlify(view[i:i + 128]).decode())
    out.write("\n")
    for line in rows:
        out.write("text %s\n" % line)
    out.write("end\n")
    return glass
