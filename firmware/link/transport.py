# The link's byte streams, read without ever blocking the main loop.
#
# On the device main.py hands in sys.stdin.buffer and sys.stdout.buffer (the
# USB serial, also the REPL); the simulator hands in two FIFOs the launcher
# connects to a pseudo-terminal (sim/run.py). Tests use a fake with the same
# four members: readinto(buf), write(data), guard(on), and the figures
# window, chunk and rate.
import select

from micropython import const

_UART_WINDOW = const(6)  # stream frames ahead of the host's ACK on a UART bridge (4 kept 90 % of the line busy)
UART_CHUNK = const(384)  # file bytes per DATA frame: a 530-byte line
_NATIVE_WINDOW = const(8)  # native USB (ESP32-S2/S3): the host drains faster than any UART
_NATIVE_CHUNK = const(1024)
_CTRL_C = const(3)


class StreamTransport:
    """inp, out: binary streams; inp must work with select.poll.

    rate: bytes a second the line carries (baud / 10), which the link paces
    its writes to; 0 = do not pace. kbd: switch the keyboard interrupt off in
    a session (only where inp is the REPL's stdin)."""

    def __init__(self, inp, out, rate=11520, native=False, kbd=True):
        self.inp = inp
        self.out = out
        self.rate = rate
        self.window = _NATIVE_WINDOW if native else _UART_WINDOW
        self.chunk = _NATIVE_CHUNK if native else UART_CHUNK
        self.kbd = kbd
        self._poll = select.poll()
        self._poll.register(inp, select.POLLIN)
        self._one = bytearray(1)

    def readinto(self, buf):
        """Reads what is waiting, up to len(buf) bytes; returns the count (0: nothing)."""
        one = self._one
        n = 0
        while n < len(buf):
            ready = False
            for _, event in self._poll.ipoll(0):
                ready = event & select.POLLIN  # HUP or ERR alone: a writer gone, nothing to read
            if not ready:
                break
            # One byte at a time: a stream read asks for all it was told to, and
            # would wait for it; a byte that poll announced is there already.
            if not self.inp.readinto(one):
                break
            buf[n] = one[0]
            n += 1
        return n

    def write(self, data):
        self.out.write(data)

    def guard(self, on):
        """In a session Ctrl-C is data, not an interrupt; outside it, mpremote can stop the app."""
        if self.kbd:
            import micropython

            micropython.kbd_intr(-1 if on else _CTRL_C)
