# Telling a hung chip from a busy laptop: the simulator's watchdog counts the chip process's own CPU time.
#
# A chip hung in a Python loop cannot reset itself (firmware/sim/simwdt.py counts simulated time,
# which only its steps move), so the launcher counts for it (device.py): while it waits for the
# chip's answer, the time since the watchdog was last fed. That time is the CPU time the chip's
# process spent, not the wall clock: a laptop busy with other work (a test suite on every core)
# slows a start in real time, not in the chip's own work, so a start that feeds its watchdog in
# time does so under any load, and a loop that never feeds is reset after the same work every
# time. A chip that waits without using the CPU (it should never: it always answers) is caught by
# the wall clock spent waiting, after STALL_S or ten timeouts. Where the system does not say a
# process's CPU time (only Linux has /proc here), the wall clock spent waiting counts, as before.
import os

STALL_S = 60.0  # wall seconds of waiting without an answer or a feed that count as hung whatever the CPU says

try:
    _TICK = os.sysconf("SC_CLK_TCK")  # /proc's unit of CPU time
except (AttributeError, ValueError, OSError):  # no sysconf (Windows): no /proc either
    _TICK = 100


def cpu_seconds(pid):
    """CPU seconds (user and system) the process `pid` has run, or None where the system does not say."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rindex(b")") + 2:].split()  # after "pid (name) ": state, ppid, ...
    return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime


class Unfed:
    """How long the chip has gone without feeding its watchdog, counted while the launcher waits for it."""

    def __init__(self, cpu=cpu_seconds):
        self._cpu = cpu
        self.pid = None
        self.waited = 0.0  # wall seconds spent waiting since the last feed
        self._base = None  # the chip's CPU seconds at the last feed; None: counted on the wall clock

    def start(self, pid):
        """A new chip process: nothing fed yet, nothing counted."""
        self.pid = pid
        self.fed()

    def fed(self):
        self.waited = 0.0
        self._base = None if self.pid is None else self._cpu(self.pid)

    def waiting(self, seconds):
        """The launcher waited this many wall seconds for the chip."""
        self.waited += seconds

    def seconds(self):
        """Seconds unfed: the chip's CPU time since the last feed (the wall clock's where it is not known)."""
        now = None if self._base is None else self._cpu(self.pid)
        return self.waited if now is None else now - self._base

    def hung(self, timeout):
        return self.seconds() > timeout or self.waited > max(STALL_S, 10 * timeout)
