# A USB serial whose host runs in step with the simulated device's time: the same bytes at the same steps in every run.
#
#   with Lockstep(dev_command) as ls:        # the FIFOs; ls.device_args() go on the chip's command line
#       ls.attach(device)                    # the started SimDevice (tafel_host.sim.device)
#       code = ls.run(["export", "-o", out])  # a tafel command, in this process, on the port "tafelsim://N"
#
# The heap scenarios (heap_scenarios.py) measure the chip's memory, and where
# its heap is tight, what a run needs depends on exactly when each byte
# arrives. Over a pseudo-terminal the laptop's timing decides that (the
# simulator follows real time while `tafel export` runs in its own process),
# so two runs of the same tree differed by a few KB. Here the host is the
# same laptop code (tafel_host's link client and commands, run in this
# process), and its port is this object: what it writes goes into the FIFO the
# chip reads at its next step; when it reads and nothing has come, the
# device's time moves on a step at a time until bytes come or the read's own
# timeout has passed in the device's time. The host's clock is the device's
# time too (time.monotonic and time.sleep of the link's modules, while a
# command runs): its timeouts mean what they mean against a real device, and
# nothing waits for the laptop's clock. The line rate is the device's own pacing (link/transport.py, at
# --baud in simulated time); the UART's receive ring is not modelled (the
# host's flow control keeps within it), that is what the pseudo-terminal
# tests are for (tests/host/test_sim_serial.py).
import contextlib
import io
import itertools
import os
import shutil
import tempfile
import threading

import serial

from tafel_host.cli import main as tafel
from tafel_host.link import client as link_client
from tafel_host.link import stream as link_stream
from tafel_host.update import client as update_client
from tafel_host.update import trial as update_trial

_CLOCKED = (link_client, link_stream, update_client, update_trial)  # the laptop's modules that time the link

STEP_MS = 10  # the firmware's step (runner.py STEP_MS)
_ports = {}
_count = itertools.count(1)
_patch = threading.Lock()
_one_at_a_time = threading.Lock()  # a command takes this process's stdout and data folder while it runs


class Lockstep:
    def __init__(self, baud=115200):
        self.baud = baud
        self.dir = tempfile.mkdtemp(prefix="tafel-lockstep-")
        self.to_device = os.path.join(self.dir, "to-device")
        self.from_device = os.path.join(self.dir, "from-device")
        os.mkfifo(self.to_device)
        os.mkfifo(self.from_device)
        self._to = os.open(self.to_device, os.O_RDWR | os.O_NONBLOCK)
        self._from = os.open(self.from_device, os.O_RDWR | os.O_NONBLOCK)
        self.device = None
        self.ms = 0  # the device's time this line has let pass: the host's clock while a command runs
        self.url = "tafelsim://%d" % next(_count)
        _ports[self.url] = self
        _install()

    def device_args(self):
        return ["--serial-in", self.to_device, "--serial-out", self.from_device, "--baud", str(self.baud)]

    def attach(self, device):
        self.device = device

    def step(self, ms=STEP_MS):
        """Let the device's time move on (and the host's clock with it)."""
        self.device.wait(ms)
        self.ms += ms

    # the host's `time` while a command runs
    def monotonic(self):
        return self.ms / 1000.0

    def sleep(self, seconds):
        self.step(max(STEP_MS, int(seconds * 1000)))

    def time(self):
        import time

        return time.time()

    def run(self, argv, at=1):
        """A tafel command on this port, here: (exit status, what it printed); `--port` goes in after
        its first `at` words (2 for `club pair`). Its data (export cursors) goes to a folder of this
        line's, not the user's."""
        out = io.StringIO()
        with _one_at_a_time:
            home = os.environ.get("XDG_DATA_HOME")
            os.environ["XDG_DATA_HOME"] = os.path.join(self.dir, "laptop")
            clocks = [module.time for module in _CLOCKED]
            for module in _CLOCKED:
                module.time = self
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                    code = tafel(argv[:at] + ["--port", self.url] + argv[at:])
            except SystemExit as exit:
                code = exit.code
            finally:
                for module, clock in zip(_CLOCKED, clocks):
                    module.time = clock
                if home is None:
                    os.environ.pop("XDG_DATA_HOME", None)
                else:
                    os.environ["XDG_DATA_HOME"] = home
        return code, out.getvalue()

    def port(self, timeout):
        return _Port(self, timeout)

    def close(self):
        _ports.pop(self.url, None)
        for fd in (self._to, self._from):
            os.close(fd)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Port:
    """What the link client uses of a pyserial port: read, write, flush, in_waiting, close."""

    def __init__(self, line, timeout):
        self.line = line
        self.timeout = timeout
        self._buf = bytearray()
        self.is_open = True

    def _drain(self):
        while True:
            try:
                data = os.read(self.line._from, 65536)
            except BlockingIOError:
                return
            if not data:
                return
            self._buf += data

    @property
    def in_waiting(self):
        self._drain()
        return len(self._buf)

    def read(self, n=1):
        self._drain()
        waited = 0
        while not self._buf and waited < (self.timeout or 0) * 1000:
            self.line.step()  # the device's time moves on: it may answer now
            waited += STEP_MS
            self._drain()
        data = bytes(self._buf[:n])
        del self._buf[:n]
        return data

    def write(self, data):
        view = memoryview(bytes(data))
        while view:
            try:
                n = os.write(self.line._to, view)
            except BlockingIOError:  # the FIFO is full: the device reads it as its time passes
                self.line.step()
                continue
            view = view[n:]
        return len(data)

    def flush(self):
        pass

    def close(self):
        self.is_open = False


def _install():
    # serial.serial_for_url knows "tafelsim://N" from now on, in this process.
    with _patch:
        if getattr(serial.serial_for_url, "lockstep", False):
            return
        original = serial.serial_for_url

        def serial_for_url(url, *args, **kwargs):
            line = _ports.get(url)
            if line is None:
                return original(url, *args, **kwargs)
            return line.port(kwargs.get("timeout", 0.05))

        serial_for_url.lockstep = True
        serial.serial_for_url = serial_for_url
