# The launcher's end of the simulator: runs firmware/sim/run.py on the MicroPython unix port and speaks its line protocol.
#
#   device = SimDevice([micropython, "-X", "heapsize=4M", run_py, "--flash", img, "--board", json])
#   device.start()                  # waits for "ready <w> <h> <board>"
#   device.key("5"); device.wait(1500)   # True if the glass changed
#   glass = device.snap()           # pixels and text rows (Glass, or ColourGlass on a colour display)
#   device.power_cut()              # SIGKILL, then the same command again (the flash file stays)
#   device.close()
#
# Anything on the device's stdout that is not a protocol line is passed to the
# log with its stderr, so a stray print() in the firmware cannot derail us.
# A reply that does not come in time, or a device that exits, raises SimError
# with the last lines of its log.
import collections
import queue
import subprocess
import sys
import threading
import time

from . import png

KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "*", "#", "CW", "CCW", "PUSH")
READY_TIMEOUT = 60.0  # seconds from starting the process to "ready"
REPLY_TIMEOUT = 30.0  # seconds for a reply, plus the simulated time of a wait (the sim runs far faster)
_REPLIES = ("ready ", "ok ", "error ", "snap ", "snap565 ", "text ", "end")

# Greyscale levels of a snapshot: a lit pixel's face, the thin seam between lit pixels, and the dark glass.
LIT, SEAM, DARK = 240, 185, 0


class SimError(Exception):
    """The simulated device failed: it exited, answered with an error, or did not answer."""


class Glass:
    """What the emulated display shows: width x height pixels (MONO_VLSB bytes) and the text of each row."""

    colour = False

    def __init__(self, width, height, data, text):
        self.width = width
        self.height = height
        self.data = bytes(data)
        self.text = list(text)

    def pixel(self, x, y):
        return (self.data[(y >> 3) * self.width + x] >> (y & 7)) & 1

    def rows(self):
        """The pixels as rows of 0 and 1, top to bottom."""
        return [[self.pixel(x, y) for x in range(self.width)] for y in range(self.height)]

    def png(self, scale=4):
        """PNG bytes at scale x: lit pixels light on black, with a faint seam between them as on an OLED."""
        if scale < 3:  # too small for seams: plain blocks
            rows = [[LIT if on else DARK for on in row] for row in self.rows()]
            return png.encode(self.width, self.height, rows, scale=scale)
        rows = []
        for row in self.rows():
            face, seam = [], []
            for on in row:
                face += ([LIT] * (scale - 1) + [SEAM]) if on else [DARK] * scale
                seam += [SEAM if on else DARK] * scale
            rows += [face] * (scale - 1) + [seam]
        return png.encode(self.width * scale, self.height * scale, rows)

    def __eq__(self, other):
        return isinstance(other, Glass) and (self.width, self.height, self.data, self.text) == (
            other.width, other.height, other.data, other.text)


def rgb888(colour):
    """(r, g, b) 0-255 of an RGB565 value, the low bits filled from the high ones (0x1F -> 255)."""
    r, g, b = colour >> 11 & 0x1F, colour >> 5 & 0x3F, colour & 0x1F
    return (r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2)


class ColourGlass:
    """A colour display's glass: width x height RGB565 pixels (big-endian bytes, row by row) and the text rows."""

    colour = True

    def __init__(self, width, height, data, text):
        self.width = width
        self.height = height
        self.data = bytes(data)
        self.text = list(text)

    def pixel(self, x, y):
        """The RGB565 value at x, y."""
        i = (y * self.width + x) * 2
        return self.data[i] << 8 | self.data[i + 1]

    def rows(self):
        """The pixels as rows of RGB565 values, top to bottom."""
        d, w = self.data, self.width
        return [[d[i] << 8 | d[i + 1] for i in range(y * w * 2, (y + 1) * w * 2, 2)] for y in range(self.height)]

    def png(self, scale=2):
        """PNG bytes (RGB, 8 bits a channel) at scale x, plain blocks: an LCD has no visible seams."""
        cache = {}
        rows = []
        for row in self.rows():
            out = []
            for colour in row:
                rgb = cache.get(colour)
                if rgb is None:
                    rgb = cache[colour] = rgb888(colour)
                out.append(rgb)
            rows.append(out)
        return png.encode_rgb(self.width, self.height, rows, scale=scale)

    def __eq__(self, other):
        return isinstance(other, ColourGlass) and (self.width, self.height, self.data, self.text) == (
            other.width, other.height, other.data, other.text)


def parse_snap(header, text_lines):
    """A Glass from the "snap <w> <h> <hex>" line, or a ColourGlass from "snap565 <w> <h> <hex>", and the text rows."""
    words = header.split()
    if len(words) != 4 or words[0] not in ("snap", "snap565"):
        raise SimError("bad snap line from the simulator: %r" % header[:80])
    try:
        width, height, data = int(words[1]), int(words[2]), bytes.fromhex(words[3])
    except ValueError:
        raise SimError("bad snap line from the simulator: %r" % header[:80]) from None
    if words[0] == "snap565":
        if width < 1 or height < 1 or len(data) != width * height * 2:
            raise SimError("snap565 of %d x %d came with %d bytes, expected %d" % (width, height, len(data), width * height * 2))
        return ColourGlass(width, height, data, text_lines)
    if width < 1 or height < 1 or height % 8 or len(data) != width * height // 8:
        raise SimError("snap of %d x %d came with %d bytes, expected %d" % (width, height, len(data), width * height // 8))
    return Glass(width, height, data, text_lines)


class SimDevice:
    def __init__(self, command, log=None):
        self.command = [str(part) for part in command]
        self.log = log if log is not None else sys.stderr  # where the device's stderr (and stray stdout) goes
        self.width = self.height = 0
        self.board = ""
        self.starts = 0
        self.asleep = False  # the device said it went into deep sleep
        self._proc = None
        self._lines = None
        self._err_thread = None
        self._tail = collections.deque(maxlen=30)
        self._tail_lock = threading.Lock()

    # -- process --

    def start(self):
        """Power on: start the process and wait for its "ready" line."""
        self._tail.clear()
        self.asleep = False
        self._proc = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            encoding="utf-8", errors="replace", bufsize=1,
        )
        self._lines = queue.Queue()
        threading.Thread(target=self._read_stdout, args=(self._proc.stdout, self._lines), daemon=True).start()
        self._err_thread = threading.Thread(target=self._read_stderr, args=(self._proc.stderr,), daemon=True)
        self._err_thread.start()
        self.starts += 1
        words = self._reply(READY_TIMEOUT, "start").split()
        if words[0] != "ready" or len(words) < 4:
            raise SimError("the simulator started with %r instead of 'ready <width> <height> <board>'" % " ".join(words))
        self.width, self.height, self.board = int(words[1]), int(words[2]), " ".join(words[3:])
        return self

    def power_cut(self):
        """Pull the plug at this instant (SIGKILL, no goodbye), then power on again with the same flash file."""
        self._kill()
        return self.start()

    def close(self):
        """Ask the device to quit; kill it if it does not within two seconds."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
                proc.wait(2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self._kill()

    def alive(self):
        return self._proc is not None and self._proc.poll() is None

    def _kill(self):
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    # -- commands --

    def key(self, name):
        """Press a key (0-9 A-D * #) or work the knob (CW CCW PUSH); True if the glass changed."""
        if name not in KEYS:
            raise ValueError("no such key: %r" % (name,))
        return self._command("key " + name, REPLY_TIMEOUT)

    def wait(self, ms):
        """Let ms of simulated time pass; True if the glass changed."""
        ms = int(ms)
        if ms < 0:
            raise ValueError("cannot wait %d ms" % ms)
        return self._command("wait %d" % ms, REPLY_TIMEOUT + ms / 1000.0)

    def snap(self):
        """The glass and the text rows as they are now."""
        self._send("snap")
        header = self._reply(REPLY_TIMEOUT, "snap")
        if header.startswith("error "):
            raise SimError("snap: " + header[6:])
        text = []
        while True:
            line = self._reply(REPLY_TIMEOUT, "snap")
            if line == "end":
                return parse_snap(header, text)
            if not line.startswith("text"):
                raise SimError("unexpected line inside a snap: %r" % line[:80])
            text.append(line[5:])

    def _command(self, line, timeout):
        self._send(line)
        reply = self._reply(timeout, line)
        if reply.startswith("error "):
            raise SimError("%s: %s" % (line, reply[6:]))
        words = reply.split()
        if (len(words) not in (2, 3) or words[0] != "ok" or words[1] not in ("0", "1")
                or words[2:] not in ([], ["asleep"])):
            raise SimError("%s: unexpected reply %r" % (line, reply[:80]))
        self.asleep = len(words) == 3  # in deep sleep: a key wakes it (a turn of the knob does not)
        return words[1] == "1"

    def _send(self, line):
        if self._proc is None:
            raise SimError("the simulator is not running")
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except (OSError, ValueError):
            raise self._stopped(line) from None

    def _reply(self, timeout, what):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise SimError("no answer from the simulator to %r within %.0f s%s" % (what, timeout, self._tail_text())) from None
            if line is None:
                raise self._stopped(what)
            if line.startswith(_REPLIES):
                return line
            self._note("stdout: " + line)

    def _stopped(self, what):
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
            self._err_thread.join(2)  # its last words, before they are quoted
        return SimError("the simulator stopped (exit code %s) during %r%s" % (code, what, self._tail_text()))

    # -- output of the process --

    def _read_stdout(self, stream, lines):
        try:
            for line in stream:
                lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        lines.put(None)

    def _read_stderr(self, stream):
        try:
            for line in stream:
                self._note(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass

    def _note(self, line):
        with self._tail_lock:
            self._tail.append(line)
            try:
                self.log.write(line + "\n")
                self.log.flush()
            except (OSError, ValueError):
                pass

    def tail(self):
        """The last lines the device logged."""
        with self._tail_lock:
            return list(self._tail)

    def _tail_text(self):
        lines = self.tail()
        if not lines:
            return ""
        return "; its last words:\n  " + "\n  ".join(lines[-12:])
