# The simulator's watchdog (never deployed): machine.WDT as the ESP32 has it, and what its reset does.
#
#   bootsel.watch(simwdt)        # a trial boot: this module stands in for `machine`, WDT(timeout=ms)
#   wdt.feed()                   # the firmware's main loop (runner.py, through update/health.py)
#   elapse(ms)                   # sim/device.py: ms of simulated time passed; WatchdogReset once unfed too long
#   stop()                       # the chip reset (machine.reset(), power-up): no watchdog runs
#
# One chip, one watchdog: a second WDT() sets the timeout of the running one
# and counts afresh, as on the ESP32. It counts the device's time, and the
# simulator has two: the simulated time sim/device.py steps (a version that
# runs but never feeds is caught here, inside the device process), and the
# real time the launcher spends waiting for a device that does not answer (a
# version hung in a Python loop runs nothing here, so only the launcher can
# notice: host_tools/sim/device.py). `beat(line)` tells the launcher:
# "wdt <ms>" when a watchdog starts ("wdt 0": none runs after a reset) and
# "fed" each time it is fed. Either way the reset ends the device process
# (run.py: "reset watchdog", exit status RESET_EXIT) and the launcher starts
# it again from boot, as the chip starts again: bootsel counts the next try.

RESET_EXIT = 3  # run.py's exit status after a watchdog reset

beat = None  # run.py: a function given "wdt <ms>" / "fed" for the launcher; None: nobody listens
limit_ms = 0  # the running watchdog's timeout; 0: none runs (none started since the last reset)
unfed_ms = 0  # device time since the last feed


class WatchdogReset(BaseException):
    """The watchdog fired: the chip resets. A BaseException, so no `except Exception` in the firmware
    can swallow it (nothing on a real chip can)."""


class WDT:
    """The chip's one watchdog: every WDT() object is a handle on it."""

    def __init__(self, id=0, timeout=5000):
        global limit_ms, unfed_ms
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        limit_ms = timeout
        unfed_ms = 0
        _say("wdt %d" % timeout)

    def feed(self):
        global unfed_ms
        unfed_ms = 0
        _say("fed")


def elapse(ms):
    """ms of the device's simulated time passed: raises WatchdogReset once the watchdog went unfed too long."""
    global unfed_ms
    if not limit_ms:
        return
    unfed_ms += ms
    if unfed_ms > limit_ms:
        raise WatchdogReset("not fed for %d ms" % unfed_ms)


def stop():
    """A reset (machine.reset(), the watchdog's own, a power-up) stops the watchdog."""
    global limit_ms, unfed_ms
    if limit_ms:
        limit_ms = unfed_ms = 0
        _say("wdt 0")


def _say(line):
    if beat is not None:
        beat(line)
