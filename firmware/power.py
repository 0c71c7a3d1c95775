# Deep sleep behind one small interface: the device's (machine.deepsleep) and the simulator's.
#
# Who gets which: main.py hands the app a DevicePower, the simulator
# (sim/device.py) a sim.simpower.SimPower; a test or a board without deep
# sleep gets none. Nothing here imports a simulator module.
#
# On the ESP32 waking from deep sleep is a reboot. What the table was
# looking at survives in a small resume record (ui/resume.py makes it): the
# Power keeps it through the sleep, in RTC memory on the device (2 KB, kept
# in deep sleep, lost with the power, so only a wake from deep sleep can ever
# find one), and start-up asks for it once (take_record).
#
# Wake sources on a classic ESP32 (wake_plan):
#   ext0  the profile's power.wake_pin (the encoder's push button on the
#         default board), active low, with its pull-up. ext0 also keeps the
#         RTC peripherals powered through the sleep, which the keypad's
#         pull-downs below need.
#   ext1  any keypad key. ext1 can wake on "all low" or "any high" only, and
#         "all low" would need every column low at once, so the matrix is
#         turned round for the sleep: every row driven high and held there,
#         the columns pulled down; a pressed key joins its (high) row to its
#         column and ext1 wakes on "any column high". All columns must be
#         RTC GPIOs (32, 33, 25, 26 on the default board). The rows are held
#         with the pad hold: RTC-capable rows by themselves, others (GPIO 23
#         on the default board) only where the firmware has
#         esp32.gpio_deep_sleep_hold (MicroPython 1.20 and later); without it
#         that row floats and its keys (* 0 # D) do not wake the device,
#         the others and the encoder button still do.
# After the wake the holds are let go (release), so board.build's set-up of
# the pins (rows open-drain, columns pulled up) takes effect again.
import json

from micropython import const

# GPIOs of a classic ESP32 that can wake it (RTC GPIOs).
RTC_GPIOS = (0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39)
MAX_RECORD = const(1024)  # bytes of resume record kept through a sleep
_MAGIC = "tafel-resume 1 "


class WakePlan:
    """How a board wakes: ext0 (a pin, active low, or None), ext1 columns and the rows held high."""

    def __init__(self, ext0, cols, rows):
        self.ext0 = ext0
        self.cols = cols  # () when the keypad cannot wake the board
        self.rows = rows


def wake_plan(profile):
    power = profile.get("power") or {}
    pin = power.get("wake_pin")
    ext0 = pin if pin in RTC_GPIOS else None
    keypad = profile.get("keypad") or {}
    cols = tuple(keypad.get("cols", ()))
    rows = tuple(keypad.get("rows", ()))
    if not cols or not rows or ext0 is None:
        # No ext0: nothing keeps the RTC pull-downs powered (see above).
        return WakePlan(ext0, (), ())
    for n in cols:
        if n not in RTC_GPIOS or n == ext0:
            return WakePlan(ext0, (), ())
    return WakePlan(ext0, cols, rows)


def encode(record):
    """The bytes kept through a sleep, or None when the record is too big to keep."""
    data = (_MAGIC + json.dumps(record)).encode()
    return data if len(data) <= MAX_RECORD else None


def decode(data):
    """The record from kept bytes; None for anything that is not one (never raises)."""
    try:
        text = bytes(data).decode()
        if not text.startswith(_MAGIC):
            return None
        record = json.loads(text[len(_MAGIC):])
    except Exception:  # ValueError, UnicodeError: not ours
        return None
    return record if type(record) is dict else None


class Power:
    """No deep sleep: what a board without it, or a test, gets."""

    woke = False  # this start was a wake from deep sleep

    def can_sleep(self):
        return False

    def take_record(self):
        """The resume record left by the last deep sleep, once; None after a plain power-on."""
        return None

    def deep_sleep(self, record):
        """Keep `record` (a small dict) and sleep; on the device this never returns."""


class DevicePower(Power):
    """machine.deepsleep on an ESP32, woken by the encoder button (ext0) and any key (ext1)."""

    def __init__(self, machine, esp32, profile, board):
        self._machine = machine
        self._esp32 = esp32
        self._board = board
        self.plan = wake_plan(profile)
        self.woke = machine.reset_cause() == machine.DEEPSLEEP_RESET
        self._rtc = machine.RTC()
        self.release()

    def can_sleep(self):
        return self.plan.ext0 is not None

    def release(self):
        """Let go of the pins held through the sleep (their set-up by board.build applies again)."""
        Pin = self._machine.Pin
        for n in self.plan.rows:
            Pin(n).init(hold=False)
        hold = getattr(self._esp32, "gpio_deep_sleep_hold", None)
        if hold is not None:
            hold(False)

    def take_record(self):
        import time

        data = self._rtc.memory()
        if data:
            self._rtc.memory(b"")
        if not self.woke:
            return None
        record = decode(data)
        if record is not None:
            asleep = time.time() - record.get("r", 0)  # the RTC counts on through deep sleep
            record["z"] = asleep if 0 <= asleep < 10 * 365 * 86400 else 0
        return record

    def deep_sleep(self, record):
        import time

        m = self._machine
        esp32 = self._esp32
        plan = self.plan
        Pin = m.Pin
        record["r"] = time.time()
        self._rtc.memory(encode(record) or b"")
        try:
            esp32.wake_on_ext0(pin=Pin(plan.ext0, Pin.IN, Pin.PULL_UP), level=esp32.WAKEUP_ALL_LOW)
            if plan.cols:
                cols = [Pin(n, Pin.IN, Pin.PULL_DOWN) for n in plan.cols]
                esp32.wake_on_ext1(pins=cols, level=esp32.WAKEUP_ANY_HIGH)
                for n in plan.rows:
                    Pin(n, Pin.OUT, value=1, hold=True)
                hold = getattr(esp32, "gpio_deep_sleep_hold", None)
                if hold is not None:
                    hold(True)
        except Exception:
            # A wake source refused: the keypad as board.build set it up, and stay awake.
            self._rtc.memory(b"")
            for n in plan.cols:
                Pin(n, Pin.IN, Pin.PULL_UP)
            for n in plan.rows:
                Pin(n, Pin.OPEN_DRAIN, None, value=1, hold=False)
            raise
        encoder = self._board.encoder
        if encoder is not None:
            encoder.deinit()  # no interrupt may run between here and the sleep
        m.deepsleep()
