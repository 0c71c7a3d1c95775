# Time for the firmware: monotonic milliseconds, and wall-clock seconds once the laptop set them.
#
# The ESP32 has no battery-backed clock: after power-up the wall clock is
# unknown and time() answers 0 ("not set") until the link sets it, so games
# created before the first sync say so instead of carrying a made-up date.
import time


class DeviceClock:
    def __init__(self):
        self._last = time.ticks_ms()
        self._ms = 0
        self._epoch = 0  # wall-clock seconds at _ms == _epoch_ms, 0 while not set
        self._epoch_ms = 0

    def ticks_ms(self):
        """Milliseconds since start-up; never wraps (unlike time.ticks_ms)."""
        now = time.ticks_ms()
        self._ms += time.ticks_diff(now, self._last)
        self._last = now
        return self._ms

    def time(self):
        """Unix seconds, or 0 while the clock was never set."""
        if not self._epoch:
            return 0
        return self._epoch + (self.ticks_ms() - self._epoch_ms) // 1000

    def set_time(self, epoch_seconds):
        self._epoch = epoch_seconds
        self._epoch_ms = self.ticks_ms()


class SimClock(DeviceClock):
    """The simulator's clock: time moves only when the simulation advances it."""

    def __init__(self, epoch=0):
        self._ms = 0
        self._epoch = epoch
        self._epoch_ms = 0

    def ticks_ms(self):
        return self._ms

    def advance(self, ms):
        self._ms += ms
