# The simulated device's USB serial: a pseudo-terminal for the host, two FIFOs for the device, at a real line rate.
#
#   serial = SimSerial(baud=115200)      # makes the FIFOs and the pty pair, starts the shuttles
#   command += serial.device_args()      # --serial-in FIFO --serial-out FIFO --baud N for run.py
#   print("serial:", serial.path)        # /dev/pts/N: any pyserial program opens it like a port
#   serial.close()
#
# Two threads carry the bytes: pty master -> FIFO the device reads, FIFO
# the device writes -> pty master, each paced to baud / 10 bytes a second
# (8N1: ten bits a byte), so a transfer takes as long as on the real line.
# The FIFOs are opened read-write here, so neither side's open() ever waits
# and the device's end survives a power cut (the launcher starts the same
# command again on the same FIFOs, as the cable stays plugged in).
# Bytes that find no room (no host has the port open and its buffer is
# full, or the device is gone) are dropped, as a UART drops them: nothing
# here ever blocks the simulator.
#
# The device's receive ring: on a UART-bridge ESP32 MicroPython keeps what
# the UART brought and the app has not read yet in a 260-byte ring; bytes
# beyond it are lost (docs/design.md section 5). The host -> device shuttle asks
# the FIFO how much is still unread (FIONREAD) and drops what exceeds
# RING, so a host that sends faster than the device reads loses bytes here
# as it would on the real line (ring=None: no limit). That holds while the
# app reads the port, in a link session: the device says when one starts
# and ends in a one-byte file (--serial-session, "1" or "0"). Outside a
# session the REPL reads it, C code that on the device empties the ring
# faster than the line fills it; the simulated REPL is Python in a process
# a loaded laptop may hold back, so there nothing is dropped (mpremote's
# raw REPL has no way to recover a lost byte: it would wait for ever).
import errno
import fcntl
import os
import select
import shutil
import struct
import tempfile
import termios
import threading
import time

DEFAULT_BAUD = 115200
CHUNK = 64  # bytes moved at a time: fine enough for the pacing
RING = 260  # MicroPython's stdin ring on a UART-bridge ESP32


class Pacer:
    """Lets `rate` bytes a second through: take(n) sleeps until n more may go."""

    def __init__(self, rate, clock=time.monotonic, sleep=time.sleep):
        self.rate = float(rate)
        self.clock = clock
        self.sleep = sleep
        self.free_at = 0.0  # when the line is done with what went before

    def take(self, n):
        now = self.clock()
        start = max(now, self.free_at)
        self.free_at = start + n / self.rate
        if start > now:
            self.sleep(start - now)


class SimSerial:
    def __init__(self, baud=DEFAULT_BAUD, ring=RING):
        if baud <= 0:
            raise ValueError("the baud rate must be positive, not %d" % baud)
        self.baud = baud
        self.ring = ring
        self.dir = tempfile.mkdtemp(prefix="tafel-serial-")
        self.to_device = os.path.join(self.dir, "to-device")
        self.from_device = os.path.join(self.dir, "from-device")
        os.mkfifo(self.to_device)
        os.mkfifo(self.from_device)
        self.session = os.path.join(self.dir, "session")  # "1" while the device's app has a link session
        with open(self.session, "wb") as f:
            f.write(b"0")
        self._session_fd = os.open(self.session, os.O_RDONLY)
        self._to_fd = os.open(self.to_device, os.O_RDWR | os.O_NONBLOCK)
        self._from_fd = os.open(self.from_device, os.O_RDWR | os.O_NONBLOCK)
        self.master, self._slave = os.openpty()
        _raw(self._slave)
        self.path = os.ttyname(self._slave)  # kept open: the port stays usable between host sessions
        os.set_blocking(self.master, False)
        self.dropped = 0
        self.overflowed = 0  # host -> device bytes lost because the device's ring was full
        self.carried = [0, 0]  # bytes host -> device, device -> host
        self._moved = threading.Condition()  # notified whenever the counts above change
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._shuttle, args=(self.master, self._to_fd, 0), daemon=True),
            threading.Thread(target=self._shuttle, args=(self._from_fd, self.master, 1), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def device_args(self):
        return ["--serial-in", self.to_device, "--serial-out", self.from_device, "--baud", str(self.baud),
                "--serial-session", self.session]

    def in_session(self):
        """True while the device's app reads the port (a link session), as the device last said."""
        return os.pread(self._session_fd, 1, 0) == b"1"

    def _shuttle(self, src, dst, way):
        pacer = Pacer(self.baud / 10.0)
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([src], [], [], 0.1)
                if not ready:
                    continue
                data = os.read(src, CHUNK)
            except BlockingIOError:
                continue
            except OSError:  # EIO from a master whose port was just closed: wait for the next
                time.sleep(0.05)
                continue
            if not data:
                time.sleep(0.05)
                continue
            pacer.take(len(data))
            if way == 0 and self.ring is not None and self.in_session():
                room = max(0, self.ring - unread(dst))
                if room < len(data):
                    with self._moved:
                        self.overflowed += len(data) - room
                        self.dropped += len(data) - room
                        self._moved.notify_all()
                    data = data[:room]
                    if not data:
                        continue
            try:
                sent = os.write(dst, data)
            except BlockingIOError:
                sent = 0
            except OSError as err:
                if err.errno not in (errno.EIO, errno.EAGAIN):
                    raise
                sent = 0
            with self._moved:
                self.carried[way] += sent
                self.dropped += len(data) - sent
                self._moved.notify_all()

    def wait_taken(self, n, timeout):
        """Wait until `n` bytes from the host have been passed on to the device or lost to its full
        ring; True if they have, False after `timeout` seconds."""
        with self._moved:
            return self._moved.wait_for(lambda: self.carried[0] + self.overflowed >= n, timeout)

    def close(self):
        self._stop.set()
        for thread in self._threads:
            thread.join(1)
        for fd in (self.master, self._slave, self._to_fd, self._from_fd, self._session_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)


def unread(fd):
    """Bytes written into the pipe `fd` and not read yet."""
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def _raw(fd):
    # No echo, no line editing, no CR/LF translation: the pty is a plain byte pipe, like a UART.
    import tty

    tty.setraw(fd)
    attrs = termios.tcgetattr(fd)
    attrs[1] &= ~termios.OPOST
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


def write_port_file(path, port):
    """Writes the port's path to `path` (write-new-then-rename: a reader never sees half of it)."""
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(port + "\n")
    os.replace(tmp, path)
