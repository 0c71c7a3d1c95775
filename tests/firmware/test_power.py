# power.py without a device: the wake plan read from the board profile, the
# resume record's bytes, and DevicePower's calls into machine and esp32 (fakes
# that write down what they are asked) before the sleep and after the wake.
# What the pins then do in deep sleep only a real ESP32 can show.
import json

import power
from power import DevicePower, decode, encode, wake_plan
from sim.simpower import SimPower
from uisim import PROFILE


def profile():
    with open(PROFILE) as f:
        return json.load(f)


def test_the_default_board_wakes_on_the_push_button_and_every_key():
    plan = wake_plan(profile())
    assert plan.ext0 == 4
    assert plan.cols == (32, 33, 25, 26) and plan.rows == (27, 14, 13, 23)
    assert all(n in power.RTC_GPIOS for n in plan.cols)


def test_the_colour_board_wakes_the_same_way():
    with open("hardware/boards/lilygo-tdisplay-st7789.json") as f:
        p = json.load(f)
    plan = wake_plan(p)
    assert plan.ext0 == p["encoder"]["button"] == 27
    assert plan.cols == tuple(p["keypad"]["cols"]) and plan.rows == tuple(p["keypad"]["rows"])
    assert "PUSH" in SimPower(p).wakes and len(SimPower(p).wakes) == 17


def test_a_board_that_cannot_wake_by_key():
    p = profile()
    p["keypad"]["cols"] = [32, 33, 25, 19]  # GPIO 19 is no RTC GPIO: ext1 cannot watch it
    plan = wake_plan(p)
    assert plan.ext0 == 4 and plan.cols == () and plan.rows == ()
    assert SimPower(p).wakes == ("PUSH",)
    p["power"]["wake_pin"] = 5  # no RTC GPIO either: no deep sleep at all
    plan = wake_plan(p)
    assert plan.ext0 is None and plan.cols == ()
    assert not SimPower(p).can_sleep()
    del p["power"]
    assert wake_plan(p).ext0 is None


def test_records_round_trip_and_anything_else_is_none():
    rec = {"g": 7, "t": 0, "s": [["home", 1], ["entry", [None, ["36", ""], 0, 1]]]}
    assert decode(encode(rec)) == rec
    assert encode({"s": "x" * power.MAX_RECORD}) is None  # too big to keep
    for junk in (b"", b"\x00" * 64, b"tafel-resume 1 {", b"tafel-resume 1 [1]", b"\xff\xfe", b'{"s": []}'):
        assert decode(junk) is None


class FakePin:
    IN, OUT, OPEN_DRAIN, PULL_UP, PULL_DOWN = 1, 3, 7, 1, 2
    calls = None

    def __init__(self, n, mode=-1, pull=-1, **kw):
        self.n = n
        FakePin.calls.append(("Pin", n, mode, pull, kw))

    def init(self, **kw):
        FakePin.calls.append(("init", self.n, kw))


class FakeRTC:
    kept = b""

    def memory(self, data=None):
        if data is None:
            return FakeRTC.kept
        FakeRTC.kept = bytes(data)


class FakeMachine:
    DEEPSLEEP_RESET = 4
    PWRON_RESET = 1
    Pin = FakePin
    RTC = FakeRTC

    def __init__(self, cause, calls):
        self.cause = cause
        self.calls = calls

    def reset_cause(self):
        return self.cause

    def deepsleep(self):
        self.calls.append(("deepsleep",))


class FakeEsp32:
    WAKEUP_ALL_LOW = False
    WAKEUP_ANY_HIGH = True

    def __init__(self, calls):
        self.calls = calls

    def wake_on_ext0(self, pin, level):
        self.calls.append(("ext0", pin.n, level))

    def wake_on_ext1(self, pins, level):
        self.calls.append(("ext1", [p.n for p in pins], level))

    def gpio_deep_sleep_hold(self, on):
        self.calls.append(("deep_sleep_hold", on))


class FakeEncoder:
    def __init__(self, calls):
        self.calls = calls

    def deinit(self):
        self.calls.append(("encoder_deinit",))


class FakeBoard:
    def __init__(self, calls):
        self.encoder = FakeEncoder(calls)


def fakes(cause):
    calls = []
    FakePin.calls = calls
    return FakeMachine(cause, calls), FakeEsp32(calls), FakeBoard(calls), calls


def test_device_power_sets_up_the_wake_sources_and_sleeps():
    machine, esp32, board, calls = fakes(FakeMachine.PWRON_RESET)
    FakeRTC.kept = b""
    dev = DevicePower(machine, esp32, profile(), board)
    assert not dev.woke and dev.can_sleep()
    assert [c[:2] for c in calls[:4]] == [("Pin", 27), ("init", 27), ("Pin", 14), ("init", 14)]
    assert ("deep_sleep_hold", False) in calls  # after a power-on too: whatever held, let go
    assert dev.take_record() is None
    del calls[:]
    dev.deep_sleep({"g": 3, "t": 0, "s": [["home", 0], ["standings", None]]})
    assert calls[-2:] == [("encoder_deinit",), ("deepsleep",)]  # no interrupt from the knob in between
    assert ("Pin", 4, FakePin.IN, FakePin.PULL_UP, {}) in calls
    assert ("ext0", 4, False) in calls  # the push button, active low
    for n in (27, 14, 13, 23):  # every row driven high and held through the sleep
        assert ("Pin", n, FakePin.OUT, -1, {"value": 1, "hold": True}) in calls
    for n in (32, 33, 25, 26):  # the columns pulled down: a key pulls its column up
        assert ("Pin", n, FakePin.IN, FakePin.PULL_DOWN, {}) in calls
    assert ("deep_sleep_hold", True) in calls  # GPIO 23 is no RTC pin: the digital pad hold
    assert ("ext1", [32, 33, 25, 26], True) in calls  # any column high
    assert calls.index(("ext1", [32, 33, 25, 26], True)) < calls.index(("deep_sleep_hold", True))
    kept = decode(FakeRTC.kept)
    assert kept["g"] == 3 and kept["s"][1] == ["standings", None] and "r" in kept

    # the wake: a reboot with the reset cause DEEPSLEEP_RESET
    machine, esp32, board, calls = fakes(FakeMachine.DEEPSLEEP_RESET)
    dev = DevicePower(machine, esp32, profile(), board)
    assert dev.woke
    for n in (27, 14, 13, 23):
        assert ("init", n, {"hold": False}) in calls  # board.build's set-up of the rows applies again
    rec = dev.take_record()
    assert rec["g"] == 3 and rec["s"] == kept["s"] and rec["z"] >= 0
    assert FakeRTC.kept == b"" and dev.take_record() is None  # once only


def test_a_record_in_rtc_memory_after_a_plain_reset_is_dropped():
    machine, esp32, board, calls = fakes(FakeMachine.PWRON_RESET)
    FakeRTC.kept = encode({"g": 1, "t": 0, "s": [["home", 0]]})
    dev = DevicePower(machine, esp32, profile(), board)
    assert dev.take_record() is None and FakeRTC.kept == b""


def test_older_firmware_without_the_digital_pad_hold():
    machine, esp32, board, calls = fakes(FakeMachine.PWRON_RESET)

    class OldEsp32(FakeEsp32):
        gpio_deep_sleep_hold = None

    esp32 = OldEsp32(calls)
    del OldEsp32.gpio_deep_sleep_hold
    dev = DevicePower(machine, esp32, profile(), board)
    dev.deep_sleep({"s": []})
    assert calls[-1] == ("deepsleep",) and ("ext1", [32, 33, 25, 26], True) in calls


def test_a_refused_wake_source_leaves_the_keypad_working_and_says_so():
    machine, esp32, board, calls = fakes(FakeMachine.PWRON_RESET)

    def refuse(pins, level):
        raise ValueError("invalid pin for wake")

    esp32.wake_on_ext1 = refuse
    dev = DevicePower(machine, esp32, profile(), board)
    del calls[:]
    try:
        dev.deep_sleep({"s": []})
    except ValueError:
        pass
    else:
        raise AssertionError("no error")
    assert ("deepsleep",) not in calls and ("encoder_deinit",) not in calls
    for n in (32, 33, 25, 26):  # the columns pulled up again, as board.build has them
        assert calls[-8:].count(("Pin", n, FakePin.IN, FakePin.PULL_UP, {})) == 1
    for n in (27, 14, 13, 23):
        assert ("Pin", n, FakePin.OPEN_DRAIN, None, {"value": 1, "hold": False}) in calls
    assert FakeRTC.kept == b""
