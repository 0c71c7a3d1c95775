# The simulated device once its firmware ended in an exception at start (never deployed): MicroPython's REPL.
#
# On the device an exception escaping main.py (a module that raises on
# import, say) prints its traceback on the USB serial and leaves MicroPython's
# REPL there: nothing of the application runs, no key is read, the display
# keeps what it had (nothing, this early in a boot), and nothing feeds the
# watchdog a trial boot started, so the chip resets once its timeout has
# passed (sim/simwdt.py) and bootsel.py counts the next try. Halted stands in
# for sim/device.py's Device in run.py's loop: simulated time still passes
# for the watchdog. It imports nothing of the application, which is what
# failed: the parts come from this checkout's sim/.
import json
import sys

from sim import simmachine, simwdt

BANNER = b"MicroPython on the Tafel simulator\r\nType \"help()\" for more information.\r\n>>> "


class Halted:
    keys = None  # any key name: nothing reads them
    restart_pending = False
    reset_pending = False
    asleep = False

    def __init__(self, profile_path, serial, err, device_id="sim"):
        with open(profile_path) as f:
            self.profile = json.load(f)
        self.profile_path = profile_path
        self.serial = serial
        self.device_id = device_id
        self.chip = simmachine.from_profile(self.profile).display  # a display nobody set up: dark
        self.board = _Board(self.profile.get("name", ""))
        self.error = err
        sys.print_exception(err, sys.stderr)
        if serial is not None:  # what the REPL shows a host that opens the port
            import io

            text = io.StringIO()
            sys.print_exception(err, text)
            serial.write(text.getvalue().replace("\n", "\r\n").encode() + BANNER)

    def key(self, name):
        pass

    def advance(self, ms):
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
