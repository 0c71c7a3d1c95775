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
#
# The watchdog (firmware/sim/simwdt.py) resets the device as the chip's
# resets the ESP32: the process starts again from boot with the same flash
# and serial (`resets` counts them). The device resets itself when its
# simulated time runs past an unfed watchdog ("reset watchdog"); a device
# hung in a Python loop cannot, so it says when a watchdog starts ("wdt <ms>")
# and each time it is fed ("fed"), and here the real time spent waiting for
# it is counted: past the timeout without a feed, the process is killed and
# started again. Only time waiting for an answer counts (while nobody asks,
# the device's time stands still).
import collections
import queue
import subprocess
import sys
import threading
import time

from .sim_glass import ColourGlass, Glass, SimError, parse_snap, rgb888  # noqa: F401 (where they were)

KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "*", "#", "CW", "CCW", "PUSH")
READY_TIMEOUT = 60.0  # seconds from starting the process to "ready"
REPLY_TIMEOUT = 30.0  # seconds for a reply, plus the simulated time of a wait (the sim runs far faster)
_REPLIES = ("ready ", "ok ", "error ", "snap ", "snap565 ", "text ", "end")
_NOTHING = object()  # no line came in time


class _Reset(Exception):
    """The chip resets: its watchdog fired (its own word, or a hang noticed here), or, soft,
    the firmware asked for it (machine.reset() after an update's switch)."""

    def __init__(self, soft=False):
        Exception.__init__(self)
        self.soft = soft


class SimDevice:
    def __init__(self, command, log=None):
        self.command = [str(part) for part in command]
        self.log = log if log is not None else sys.stderr  # where the device's stderr (and stray stdout) goes
        self.width = self.height = 0
        self.board = ""
        self.starts = 0
        self.resets = 0  # watchdog resets so far
        self.restarts = 0  # resets the firmware asked for (machine.reset(), after an update)
        self.watchdog = 0.0  # seconds: the running watchdog's timeout, 0 for none
        self._unfed = 0.0  # seconds spent waiting for the device since its watchdog was last fed
        self.asleep = False  # the device said it went into deep sleep
        self._proc = None
        self._lines = None
        self._err_thread = None
        self._tail = collections.deque(maxlen=30)
        self._tail_lock = threading.Lock()
        self._cause = "power"  # what the next start follows (run.py --reset-cause): machine.reset_cause()
        self._hold = None  # a key held through the next power-on (run.py --hold)

    # -- process --

    def start(self):
        """Power on: start the process and wait for its "ready" line (again after a watchdog reset)."""
        while True:
            self._spawn()
            try:
                words = self._reply(READY_TIMEOUT, "start").split()
            except _Reset as reset:
                self._reset(reset.soft)
                continue
            if words[0] != "ready" or len(words) < 4:
                raise SimError("the simulator started with %r instead of 'ready <width> <height> <board>'"
                               % " ".join(words))
            self.width, self.height, self.board = int(words[1]), int(words[2]), " ".join(words[3:])
            return self

    def _spawn(self):
        self._tail.clear()
        self.asleep = False
        self.watchdog = self._unfed = 0.0  # a chip starts without one
        extra = ["--reset-cause", self._cause] + (["--hold", self._hold] if self._hold else [])
        self._cause, self._hold = "power", None
        self._proc = subprocess.Popen(
            self.command + extra, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            encoding="utf-8", errors="replace", bufsize=1,
        )
        self._lines = queue.Queue()
        threading.Thread(target=self._read_stdout, args=(self._proc.stdout, self._lines), daemon=True).start()
        self._err_thread = threading.Thread(target=self._read_stderr, args=(self._proc.stderr,), daemon=True)
        self._err_thread.start()
        self.starts += 1

    def _reset(self, soft=False):
        # The watchdog's reset: the process goes (it may be hung), the chip starts again. A soft
        # one (machine.reset()) the same, but it is no watchdog reset.
        if soft:
            self.restarts += 1
            self._note("tafel sim: restart %d (machine.reset)" % self.restarts)
        else:
            self.resets += 1
            self._note("tafel sim: watchdog reset %d" % self.resets)
        self._kill()
        self._cause = "soft" if soft else "wdt"

    def power_cut(self, hold=None):
        """Pull the plug at this instant (SIGKILL, no goodbye), then power on again with the same flash file.

        hold: a key held down while it powers on (0: bootsel.py's recovery key; *: the self-test)."""
        self._kill()
        self._hold = hold
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
        try:
            header = self._reply(REPLY_TIMEOUT, "snap")
        except _Reset as reset:  # it hung or restarted: the picture is the new boot's
            self._reset(reset.soft)
            self.start()
            return self.snap()
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
        try:
            reply = self._reply(timeout, line)
        except _Reset as reset:  # the chip starts again: the command's effect is gone with it
            self._reset(reset.soft)
            self.start()
            return True
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
            now = time.monotonic()
            left = deadline - now
            if self.watchdog:
                left = min(left, self.watchdog - self._unfed)
            try:
                line = self._lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                line = _NOTHING
            later = time.monotonic()
            self._unfed += later - now
            if self.watchdog and self._unfed > self.watchdog:
                raise _Reset()  # hung: no feed for longer than the timeout
            if line is _NOTHING:
                if later < deadline:
                    continue
                raise SimError("no answer from the simulator to %r within %.0f s%s" % (what, timeout, self._tail_text()))
            if line is None:
                raise self._stopped(what)
            if line == "fed":
                self._unfed = 0.0
            elif line.startswith("wdt "):
                self.watchdog, self._unfed = int(line[4:]) / 1000.0, 0.0
            elif line == "reset watchdog":
                raise _Reset()
            elif line == "reset soft":
                raise _Reset(True)
            elif line.startswith(_REPLIES):
                return line
            else:
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
