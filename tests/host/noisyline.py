# A noisy serial cable for end-to-end tests: a pseudo-terminal proxy that drops and flips bytes.
#
#   with SimPort(...) as sim, NoisyLine(sim.port, rate=0.005, seed=1) as line:
#       main(["export", "--port", line.port, ...])
# Each byte passing in either direction is dropped with probability rate/2 and
# has one bit flipped with probability rate/2, from a seeded RNG (the same run
# damages the same bytes, up to timing). `start_after`: bytes from the device
# that pass clean first (the handshake and the first answers), so a test can
# make the line turn bad in the middle of an export. The proxy's own
# pseudo-terminal stays open, as a cable would, while the host reopens it.
import os
import random
import select
import threading
import tty


class NoisyLine:
    def __init__(self, device_port, rate, seed=1, start_after=0):
        self.rate = rate
        self.start_after = start_after
        self.rng = random.Random(seed)
        self.damaged = 0  # bytes dropped or flipped, both ways
        self.from_device = 0  # bytes the device sent
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._device = os.open(device_port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self._device)
        self._stop = os.pipe()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _noisy(self, data, from_device):
        if from_device:
            clean = max(0, self.start_after - self.from_device)
            self.from_device += len(data)
        else:
            clean = 0 if self.from_device >= self.start_after else len(data)
        out = bytearray(data[:clean])
        rng, rate = self.rng, self.rate
        for b in data[clean:]:
            roll = rng.random()
            if roll < rate / 2:
                self.damaged += 1  # dropped
            elif roll < rate:
                self.damaged += 1
                out.append(b ^ (1 << rng.randrange(8)))
            else:
                out.append(b)
        return bytes(out)

    def _run(self):
        ends = {self._master: self._device, self._device: self._master}
        while True:
            ready, _, _ = select.select([self._master, self._device, self._stop[0]], [], [])
            if self._stop[0] in ready:
                return
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:  # the host side closed its end (EIO on the master): wait for the next
                    data = b""
                if not data:
                    if fd == self._device:
                        return  # the device went away
                    select.select([], [], [], 0.01)
                    continue
                self._write(ends[fd], self._noisy(data, fd == self._device))

    @staticmethod
    def _write(fd, data):
        while data:
            try:
                n = os.write(fd, data)
            except BlockingIOError:
                select.select([], [fd], [], 0.1)
                continue
            except OSError:
                return  # nobody on that end now
            data = data[n:]

    def close(self):
        os.write(self._stop[1], b"x")
        self._thread.join(5)
        for fd in (self._master, self._slave, self._device, *self._stop):
            os.close(fd)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
