# The simulated USB serial as MicroPython has it: the link's transport, with Ctrl-C and a REPL beside it.
#
# On the device the serial is also the REPL: outside a link session a Ctrl-C
# stops the app (main.py ends in KeyboardInterrupt) and MicroPython's REPL
# takes the port; that is how mpremote works. The simulator does the same:
#   - SimUSB wraps the link's transport and watches for Ctrl-C while no
#     session is on (in a session the link has switched the interrupt off);
#   - a Ctrl-C stops the firmware: the device's Runner is swapped for the
#     Repl, so the display freezes and no key is read, as on the device;
#   - the Repl answers like MicroPython's: the friendly one (">>> ", a line
#     is run) and the raw one mpremote drives (Ctrl-A, code, Ctrl-D, answers
#     "OK", output, Ctrl-D, errors, Ctrl-D, ">"; raw-paste is declined, so
#     mpremote falls back to plain raw mode);
#   - code runs in this process with the flash's file system mounted at
#     /flash and as the current folder, so mpremote ls/cat/cp see the files
#     the device holds (the simulator keeps only data/ on its flash);
#   - Ctrl-D at the friendly prompt is the soft reboot that runs boot.py and
#     the firmware again (run.py: the slot /app/current names, if any); in raw
#     mode it only resets the REPL (MicroPython does not run main.py after a
#     soft reboot in the raw REPL).
#   - whatever bytes come outside a session, the REPL answers as the device's C
#     REPL does: code that is no text (bytes that are not UTF-8), raises, or
#     calls sys.exit() gets its error message (sys.exit: a soft reboot), never
#     an end of the simulator;
#   - usb_host: the launcher's pseudo-terminal stands for a laptop's USB port,
#     open while the simulator runs; the link then keeps the app from deep
#     sleep (nothing on the serial could wake it), as a board that can tell
#     a USB host would (ui/app.py).


class SimUSB:
    """Any link transport (readinto, write, guard, window, chunk, rate) plus the REPL."""

    def __init__(self, port, device=None, session_file=None, usb_host=False):
        self.port = port
        self.usb_host = usb_host
        # "1"/"0" for the launcher: only the app's reading may overflow the ring. Opened once: the
        # flash may be mounted at / later (sim/flashboot.py), where this path would not be the host's.
        self.session_file = open(session_file, "wb") if type(session_file) is str else session_file
        self.device = device  # sim.device.Device, set once it exists
        self.window = port.window
        self.chunk = port.chunk
        self.rate = port.rate
        self.session = False
        self.repl = None
        self.guard(False)  # a device that starts (again) has no session

    def guard(self, on):
        self.session = on
        self.port.guard(on)
        f = self.session_file
        if f is not None:
            f.seek(0)
            f.write(b"1" if on else b"0")
            f.flush()

    def write(self, data):
        self.port.write(data)

    def readinto(self, buf):
        if self.repl is not None:
            return 0
        n = self.port.readinto(buf)
        if self.session or self.device is None:
            return n
        for i in range(n):
            if buf[i] == 3:  # KeyboardInterrupt: the app stops, the REPL takes the port
                from sim.simrepl import Repl  # imported only now: a chip's REPL is C, in no heap

                _relax()  # as assemble.run() does on the chip

                self.repl = Repl(self, self.device, bytes(buf[i + 1:n]))
                return i
        return n


def _relax():
    # update/health.py relax(), where the application imported it (a flat development run may not).
    import sys

    health = sys.modules.get("update.health")
    if health is not None:
        health.relax()


class RawPort:
    """The serial's bytes as they come, for the REPL alone (when no application transport could be had)."""

    window = chunk = rate = 0

    def __init__(self, inp, out):
        import select

        self.inp = inp
        self.out = out
        self.poll = select.poll()
        self.poll.register(inp, select.POLLIN)

    def readinto(self, buf):
        n = 0
        one = memoryview(buf)
        while n < len(buf) and self.poll.poll(0):  # a byte poll announced is there already
            if not self.inp.readinto(one[n:n + 1]):
                break
            n += 1
        return n

    def write(self, data):
        self.out.write(data)

    def guard(self, on):
        pass
