# The launcher's end of the simulator: the board in this process, the chip (firmware/sim/run.py) in a MicroPython one.
#
#   device = SimDevice([micropython, "-X", "heapsize=56K", "-m", "sim.run", "--flash", img, "--board", json])
#   device.start()                  # the board powers up, the chip boots; waits for its "ready"
#   device.key("5"); device.wait(1500)   # True if the glass changed
#   glass = device.snap()           # pixels and text rows (Glass, or ColourGlass on a colour display)
#   device.power_cut()              # SIGKILL, then the same command again (the flash file stays)
#   device.close()
#
# The board around the chip (its display and glass, keypad and encoder:
# simboard/bench.py) lives here, outside the chip's heap; the chip's process
# holds the firmware and the chip's own pins and buses. Two pipes join them
# (simboard/wire.py, firmware/sim/wire.py): this end says the board's wiring
# and the parts' nets and lets the chip's time pass; the chip's end sends
# what its buses and pins put out, which the parts take in order, and its
# lines (ready, ok, wdt, fed, reset). A key is the parts' nets with the key
# held, 50 ms of the chip's time, the nets without it, 50 ms more.
#
# Anything on the chip's stdout and stderr goes to the log, so a stray print()
# in the firmware cannot derail us. A reply that does not come in time, or a
# chip that exits, raises SimError with the last lines of its log.
#
# The watchdog (firmware/sim/simwdt.py) resets the device as the chip's
# resets the ESP32: the process starts again from boot with the same flash
# and serial (`resets` counts them). The device resets itself when its
# simulated time runs past an unfed watchdog ("reset watchdog"); a device
# hung in a Python loop cannot, so it says when a watchdog starts ("wdt <ms>")
# and each time it is fed ("fed"), and here the chip process's CPU time is
# counted while we wait for it (hang.py: a busy laptop does not make a start
# late): past the timeout without a feed, the process is killed and started
# again. Only time waiting for an answer counts (while nobody asks, the
# device's time stands still).
import collections
import os
import queue
import subprocess
import sys
import threading
import time

from ..lang import say
from ..simboard import wire
from ..simboard.bench import Bench
from .cmdline import short_names
from .glass import ColourGlass, Glass, SimError, parse_snap, rgb888  # noqa: F401 (where they were)
from .hang import Unfed

KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "*", "#", "CW", "CCW", "PUSH")
READY_TIMEOUT = 60.0  # seconds from starting the process to "ready"
REPLY_TIMEOUT = 30.0  # seconds for a reply, plus the simulated time of a wait (the sim runs far faster)
_REPLIES = ("ready", "ok", "error ")
_NOTHING = object()  # no line came in time


class _Reset(Exception):
    """The chip resets: its watchdog fired ("wdt": its own word, or a hang noticed here), the
    firmware asked for it ("hard": machine.reset() after an update's switch, HARD_RESET on the
    ESP32) or a soft reboot at the REPL ("soft"). `cause`: what machine.reset_cause() says next."""

    def __init__(self, cause="wdt"):
        Exception.__init__(self)
        self.cause = cause
        self.soft = cause != "wdt"


class _Aborted(Exception):
    """A key's press was cut short: the chip started again under it."""


class SimDevice:
    def __init__(self, command, log=None, profile=None, env=None, wall_clock=None):
        """command: the chip's process (it gets --wire-in and --wire-out added); its --board names
        the board profile unless `profile` (a dict) is given; env: variables added to its
        environment (TAFEL_CHIP_SEED: firmware/port/unix/tafel/simtime.c). wall_clock: None, the
        chip's clock starts unset (as an ESP32's does); else a function giving Unix seconds
        (time.time), and every start of the chip (power-on, power cut, reset) begins at its
        reading (run.py --epoch), so the clock follows the laptop's."""
        self.command = [str(part) for part in command]
        self.wall_clock = wall_clock
        self._env = dict(os.environ, **env) if env else None
        self.log = log if log is not None else sys.stderr  # where the device's stderr (and stray stdout) goes
        if profile is None:
            import json

            with open(self.command[self.command.index("--board") + 1], encoding="utf-8") as f:
                profile = json.load(f)
        self.profile = profile
        self.bench = None  # the board: made anew at every power-up (simboard/bench.py)
        self.width = self.height = 0
        self.board = ""
        self.starts = 0
        self.resets = 0  # watchdog resets so far
        self.restarts = 0  # resets the firmware asked for (machine.reset(), after an update)
        self.watchdog = 0.0  # seconds: the running watchdog's timeout, 0 for none
        self._unfed = Unfed()  # how long the running watchdog has gone unfed (hang.py)
        self.asleep = False  # the device said it went into deep sleep
        self._proc = None
        self._to_chip = None
        self._frames = None
        self._err_threads = []
        self._seen = None  # the glass's fingerprint when changed() last looked
        self._tail = collections.deque(maxlen=30)
        self._tail_lock = threading.Lock()
        self._cause = "power"  # what the next start follows (run.py --reset-cause): machine.reset_cause()
        self._hold = None  # a key held through the next power-on
        self._dir = None  # the folder the chip runs in: its files by short names (cmdline.py)

    # -- process --

    def start(self):
        """Power on: start the process and wait for its "ready" line (again after a watchdog reset)."""
        while True:
            hold = self._hold
            self._spawn()
            try:
                words = self._reply(READY_TIMEOUT, "start").split()
            except _Reset as reset:
                self._reset(reset.cause)
                continue
            if words[0] != "ready":
                raise SimError(say("sim_not_ready", " ".join(words)))
            if hold:  # let go of the key held through the power-on
                self.bench.matrix.release(hold)
            display = self.bench.display
            self.width, self.height, self.board = display.width, display.height, self.profile.get("name", "")
            self._seen = display.fingerprint()
            return self

    def _spawn(self):
        self._tail.clear()
        self.asleep = False
        self.watchdog = 0.0  # a chip starts without one
        extra = ["--reset-cause", self._cause]
        if self.wall_clock is not None:
            extra += ["--epoch", str(int(self.wall_clock()))]
        hold, self._cause, self._hold = self._hold, "power", None
        chip_in, to_chip = os.pipe()
        from_chip, chip_out = os.pipe()
        extra += ["--wire-in", "/dev/fd/%d" % chip_in, "--wire-out", "/dev/fd/%d" % chip_out]
        try:
            self._proc = subprocess.Popen(
                short_names(self.command + extra, self._folder()), cwd=self._dir, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(chip_in, chip_out), env=self._env)
        finally:
            os.close(chip_in)
            os.close(chip_out)
        self._unfed.start(self._proc.pid)
        self._to_chip = os.fdopen(to_chip, "wb", buffering=0)
        self._frames = queue.Queue()
        threading.Thread(target=self._read_frames, args=(os.fdopen(from_chip, "rb"), self._frames),
                         daemon=True).start()
        self._err_threads = [threading.Thread(target=self._read_log, args=(stream,), daemon=True)
                             for stream in (self._proc.stdout, self._proc.stderr)]
        for thread in self._err_threads:
            thread.start()
        self.starts += 1
        # The board powers up with the chip: its wiring and the parts' nets go first (a key held
        # through the power-on is pressed already), so the chip's boot reads them.
        self.bench = Bench(self.profile)
        if hold:
            self.bench.matrix.press(hold)
        self.bench.attach(self._send_nets)
        self._send(wire.command(wire.BOARD, self.bench.board_frame()), "start")
        self._send_nets(self.bench.nets_frame())

    def _reset(self, cause="wdt"):
        # The watchdog's reset: the process goes (it may be hung), the chip starts again. One the
        # firmware asked for (machine.reset(), Ctrl-D) the same, but it is no watchdog reset.
        if cause != "wdt":
            self.restarts += 1
            self._note("tafel sim: restart %d (%s)" % (self.restarts, "machine.reset" if cause == "hard" else "Ctrl-D"))
        else:
            self.resets += 1
            self._note("tafel sim: watchdog reset %d" % self.resets)
        self._kill()
        self._cause = cause

    def power_cut(self, hold=None):
        """Pull the plug at this instant (SIGKILL, no goodbye), then power on again with the same flash file.

        hold: a key held down while it powers on (0: bootsel.py's recovery key; *: the self-test)."""
        self._kill()
        self._hold = hold
        return self.start()

    def close(self):
        """Ask the device to quit; kill it if it does not within two seconds."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            try:
                self._to_chip.write(wire.command(wire.QUIT))
                proc.wait(2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self._kill()
        if self._dir is not None:
            import shutil

            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def _folder(self):
        if self._dir is None:
            import tempfile

            self._dir = tempfile.mkdtemp(prefix="tafel-chip-")
        return self._dir

    def alive(self):
        return self._proc is not None and self._proc.poll() is None

    def _kill(self):
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for thread in self._err_threads:  # the chip's last words reach the log before the pipes close
            thread.join(2)
        for stream in (self._to_chip, proc.stdout, proc.stderr):
            try:
                stream.close()
            except (OSError, AttributeError):
                pass

    # -- commands --

    def key(self, name):
        """Press a key (0-9 A-D * #) or work the knob (CW CCW PUSH); True if the glass changed."""
        if name not in KEYS:
            raise ValueError("no such key: %r" % (name,))
        try:
            self.bench.press(name, self._run)
        except _Aborted:  # the chip started again (its watchdog): the rest of the press is gone with it
            return True
        return self.changed()

    def wait(self, ms):
        """Let ms of simulated time pass; True if the glass changed."""
        ms = int(ms)
        if ms < 0:
            raise ValueError("cannot wait %d ms" % ms)
        try:
            self._run(ms)
        except _Aborted:
            return True
        return self.changed()

    def changed(self):
        """Whether the glass changed since this was last asked (or since a snap)."""
        seen = self.bench.display.fingerprint()
        if seen == self._seen:
            return False
        self._seen = seen
        return True

    def snap(self):
        """The glass and the text rows as they are now."""
        if self._proc is None:
            raise SimError(say("sim_not_running"))
        display = self.bench.display
        picture = bytes(display.picture())
        self._seen = display.fingerprint()
        kind = ColourGlass if getattr(display, "colour", False) else Glass
        return kind(display.width, display.height, picture, self.bench.screen())

    def _run(self, ms):
        what = "wait %d" % ms
        self._send(wire.go(ms), what)
        try:
            reply = self._reply(REPLY_TIMEOUT + ms / 1000.0, what)
        except _Reset as reset:  # the chip starts again: the command's effect is gone with it
            self._reset(reset.cause)
            self.start()
            raise _Aborted() from None
        if reply.startswith("error "):
            raise SimError("%s: %s" % (what, reply[6:]))
        words = reply.split()
        if words[0] != "ok" or words[1:] not in ([], ["asleep"]):
            raise SimError(say("sim_unexpected", what, reply[:80]))
        self.asleep = len(words) == 2  # in deep sleep: a key wakes it (a turn of the knob does not)

    def _send_nets(self, payload):
        self._send(wire.command(wire.NETS, payload), "a key")

    def _send(self, frame, what):
        if self._proc is None:
            raise SimError(say("sim_not_running"))
        try:
            self._to_chip.write(frame)
        except (OSError, ValueError):
            raise self._stopped(what) from None

    def _reply(self, timeout, what):
        deadline = time.monotonic() + timeout
        bench = self.bench
        while True:
            now = time.monotonic()
            left = deadline - now
            if self.watchdog:
                left = min(left, self.watchdog - self._unfed.seconds())
            try:
                item = self._frames.get(timeout=max(left, 0.001))
            except queue.Empty:
                item = _NOTHING
            later = time.monotonic()
            self._unfed.waiting(later - now)
            if self.watchdog and self._unfed.hung(self.watchdog):
                raise _Reset()  # hung: no feed for longer than the timeout
            if item is _NOTHING:
                if later < deadline:
                    continue
                raise SimError(say("sim_no_answer", what, timeout, self._tail_text()))
            if item is None:
                raise self._stopped(what)
            kind, payload = item
            if kind != wire.LINE:
                try:
                    wire.deliver(bench, kind, payload)
                except Exception as err:  # a chip on the board refused what the driver sent
                    raise SimError(say("sim_bus_refused", what, type(bench.display).__name__, err,
                                       self._tail_text())) from None
                continue
            line = payload.decode("ascii", "replace")
            if line == "fed":
                self._unfed.fed()
            elif line.startswith("wdt "):
                self.watchdog = int(line[4:]) / 1000.0
                self._unfed.fed()
            elif line == "reset watchdog":
                raise _Reset()
            elif line == "reset hard":
                raise _Reset("hard")
            elif line == "reset soft":
                raise _Reset("soft")
            elif line.startswith(_REPLIES):
                return line
            else:
                self._note("chip: " + line)

    def _stopped(self, what):
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
            for thread in self._err_threads:
                thread.join(2)  # its last words, before they are quoted
        return SimError(say("sim_stopped", code, what, self._tail_text()))

    # -- output of the process --

    def _read_frames(self, stream, frames):
        try:
            for item in wire.frames(stream):
                frames.put(item)
        except Exception as err:  # noqa: BLE001  (a broken frame ends the chip's end as a closed pipe does)
            self._note("tafel sim: the chip's frames broke off: %r" % (err,))
        finally:
            stream.close()
        frames.put(None)

    def _read_log(self, stream):
        try:
            for line in stream:
                self._note(line.decode("utf-8", "replace").rstrip("\r\n"))
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
