# The simulated device keeps real time and stays awake for a laptop: waits of any length add up to
# slow: long simulated waits
# the simulated clock (the 10 ms steps' overshoot is carried), and a USB host that holds the port or
# talks to the device keeps it from deep sleep (nothing on the serial could wake it), as on the board.
from linkhost import FakeSerial, Host
from sim.device import Device
from sim.flashdev import FlashDev
from sim.simusb import SimUSB
from tafel import wire
from uisim import PROFILE

HOUR_MS = 3600 * 1000


class Jitter:
    """A repeatable pseudo-random overhead in ms (what a busy laptop adds to each 10 ms tick)."""

    def __init__(self):
        self.x = 12345

    def ms(self, top):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x % top


def real_time_waits(total_ms):
    """The waits `tafel sim --stay` makes (host_tools/sim/launcher.py follow_real_time): every 10 ms tick
    and some overhead, the whole milliseconds since the last wait, the fraction carried."""
    jitter = Jitter()
    wall = last = 0.0
    while wall < total_ms:
        wall += 10 + jitter.ms(10) + jitter.ms(1000) / 1000.0
        ms = int(wall - last)
        if ms >= 10:
            last += ms
            yield ms


class StubRunner:
    """Counts steps: an hour of the real firmware takes minutes here, the clock's sums do not."""

    def __init__(self):
        self.steps = 0

    def step(self, now):
        self.steps += 1


def sleepy(dev, minutes=1):
    dev.app.settings["deep_sleep"] = minutes
    dev.app.store.save_settings(dev.app.settings)


def test_an_hour_of_real_time_paced_waits_is_an_hour_on_the_simulated_clock():
    dev = Device(PROFILE, flash=FlashDev())
    dev.runner = runner = StubRunner()
    asked = 0
    for ms in real_time_waits(HOUR_MS):
        dev.advance(ms)
        asked += ms
        assert 0 <= dev.clock.ticks_ms() - asked < 10  # never more than one step ahead
    assert abs(asked - HOUR_MS) < 1000  # the waits follow the wall clock
    assert abs(dev.clock.ticks_ms() - HOUR_MS) < 1000  # and so does the device (it ran +33 % before)
    assert runner.steps == dev.clock.ticks_ms() // 10


def test_the_real_firmware_keeps_the_waits_total_too():
    dev = Device(PROFILE, flash=FlashDev())
    asked = 0
    for ms in real_time_waits(20000):
        dev.advance(ms)
        asked += ms
    assert 0 <= dev.clock.ticks_ms() - asked < 10
    dev.play("1")  # and it runs: home's first item opens the setup
    assert dev.screen() != Device(PROFILE, flash=FlashDev()).screen()


def test_a_usb_host_holding_the_port_keeps_the_device_from_deep_sleep():
    fake = FakeSerial()
    usb = SimUSB(fake, usb_host=True)  # what run.py makes: the launcher's pty, a laptop's port
    dev = Device(PROFILE, flash=FlashDev(), serial=usb, device_id="sim-test")
    usb.device = dev
    sleepy(dev)
    dev.advance(3 * 60000)
    assert dev.app.asleep and not dev.asleep  # the display went dark, the device stays awake
    host = Host(dev)
    assert host.handshake()["id"] == "sim-test"  # and answers (tafel sim --stay an hour on)
    assert wire.parse_info(host.ok(wire.INFO))["games"] == 0


def test_a_laptop_that_talks_keeps_it_awake_and_once_it_is_quiet_the_device_sleeps():
    dev = Device(PROFILE, flash=FlashDev(), serial=FakeSerial(), device_id="sim-test")  # a bridge: cannot tell
    sleepy(dev)
    host = Host(dev)
    for _ in range(4):  # a laptop asking every 40 s, each time in a session of its own
        host.handshake()
        host.ok(wire.INFO)
        host.ok(wire.BYE)
        dev.advance(40000)
    assert dev.app.asleep and not dev.asleep
    dev.advance(50000)  # a minute after the laptop's last byte
    assert dev.asleep


def test_without_a_host_the_device_sleeps_as_before():
    fake = FakeSerial()
    usb = SimUSB(fake)  # a test's serial: no host holds it
    dev = Device(PROFILE, flash=FlashDev(), serial=usb, device_id="sim-test")
    usb.device = dev
    sleepy(dev)
    dev.advance(61000)
    assert dev.asleep
