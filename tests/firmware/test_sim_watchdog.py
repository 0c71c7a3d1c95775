# The simulator's watchdog (sim/simwdt.py), as bootsel.py starts it at every boot that runs the app:
# the running firmware's loop keeps it fed; once nothing feeds it (the firmware stopped at the REPL
# on trial, or a start that raised) it resets the chip after its timeout of the device's time, and
# only a reset stops it. A deliberate Ctrl-C outside a trial gives the REPL half an hour.
import pytest

import bootsel
from linkhost import FakeSerial
from sim import simwdt
from sim.device import Device
from sim.flashdev import FlashDev
from sim.halted import Halted
from sim.simusb import SimUSB
from uisim import PROFILE
from update import health

TIMEOUT = 2000


def trial_boot(said):
    # What run.py does for a trial boot: bootsel starts the watchdog with this module as machine.
    simwdt.beat = said.append
    old = bootsel.TRIAL_WDT_MS
    bootsel.TRIAL_WDT_MS = TIMEOUT
    try:
        bootsel.watch(simwdt)
    finally:
        bootsel.TRIAL_WDT_MS = old


def power_off():
    simwdt.stop()
    simwdt.beat = None
    bootsel.wdt = None


def test_the_running_firmware_keeps_the_watchdog_fed():
    said = []
    try:
        trial_boot(said)
        dev = Device(PROFILE, flash=FlashDev())
        dev.advance(10 * TIMEOUT)
        dev.play("1 D D")
        dev.advance(10 * TIMEOUT)
        assert said[0] == "wdt %d" % TIMEOUT
        assert said.count("fed") >= 20  # about once a second of the device's time
        assert simwdt.unfed_ms < TIMEOUT
    finally:
        power_off()


def test_the_firmware_stopped_at_the_repl_on_trial_is_reset_after_the_timeout():
    said = []
    try:
        trial_boot(said)
        fake = FakeSerial()
        usb = SimUSB(fake)
        dev = Device(PROFILE, flash=FlashDev(), serial=usb, device_id="sim-test")
        usb.device = dev
        dev.advance(500)
        health.phase = 1  # on trial (health.py _TRIAL; its begin() read no pointer on this flash)
        fake.rx.extend(b"\x03")  # Ctrl-C: the REPL takes the port, the app's loop no longer runs
        dev.advance(TIMEOUT - 600)
        with pytest.raises(simwdt.WatchdogReset):
            dev.advance(200)
    finally:
        health.phase = 0  # _NONE
        power_off()
        usb.repl._unmount()  # the REPL's /flash: run.py's process would end here


def test_a_deliberate_ctrl_c_outside_a_trial_gives_the_repl_half_an_hour():
    # mpremote, tafel flash: the REPL must stay long enough to work in; then the app starts again.
    said = []
    try:
        trial_boot(said)  # an ordinary boot's watchdog (bootsel.py starts it at every boot)
        fake = FakeSerial()
        usb = SimUSB(fake)
        dev = Device(PROFILE, flash=FlashDev(), serial=usb, device_id="sim-test")
        usb.device = dev
        dev.advance(500)
        fake.rx.extend(b"\x03")
        dev.advance(10 * TIMEOUT)  # no reset
        assert said[-1] == "wdt %d" % health.REPL_WDT_MS
        dev.advance(health.REPL_WDT_MS - 10 * TIMEOUT - 1000)
        with pytest.raises(simwdt.WatchdogReset):
            dev.advance(2000)
    finally:
        power_off()
        usb.repl._unmount()


def test_every_boot_that_runs_the_application_starts_the_watchdog():
    # Not only a trial or probation: a hang anywhere resets the device (bootsel.py boot()).
    made = []

    class _Machine:
        PWRON_RESET, HARD_RESET, WDT_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 3, 4, 5

        class WDT:
            def __init__(self, id=0, timeout=5000):
                made.append(timeout)

        @staticmethod
        def reset_cause():
            return 1

    saved = {}
    for name in bootsel.BOOT_ONLY:
        saved[name] = getattr(bootsel, name)
    try:
        bootsel.boot(_Machine)  # no /app/current here: an ordinary boot of the flat layout
    finally:
        for name in saved:
            setattr(bootsel, name, saved[name])  # boot() lets its code go once it has run
        bootsel.wdt = None
    assert made == [bootsel.TRIAL_WDT_MS]


def test_a_start_that_raised_leaves_the_repl_and_the_watchdog_resets_it():
    said = []
    try:
        trial_boot(said)
        halted = Halted(PROFILE, None, ImportError("no module named 'ui.home'"))
        halted.key("1")  # nothing reads keys
        halted.advance(TIMEOUT)
        with pytest.raises(simwdt.WatchdogReset):
            halted.advance(10)
        assert halted.screen() == [] and halted.chip is None  # nothing of the board: the launcher keeps it
    finally:
        power_off()


def test_without_a_trial_nothing_is_reset_and_a_reset_stops_the_watchdog():
    said = []
    try:
        halted = Halted(PROFILE, None, RuntimeError("a flat install's main.py raised"))
        halted.advance(10 * TIMEOUT)  # no watchdog: the REPL waits for ever
        trial_boot(said)
        simwdt.stop()  # machine.reset()
        halted.advance(10 * TIMEOUT)
        assert said == ["wdt %d" % TIMEOUT, "wdt 0"]
    finally:
        power_off()


def test_nothing_in_the_firmware_can_catch_the_reset():
    try:
        simwdt.WDT(timeout=10)
        caught = None
        try:
            simwdt.elapse(20)
        except Exception as err:  # what the app's crash guard catches
            caught = err
        except simwdt.WatchdogReset:
            caught = "reset"
        assert caught == "reset"
    finally:
        power_off()
