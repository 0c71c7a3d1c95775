# The simulator's deep sleep (simulator and tests, never deployed): the Power sim/device.py hands the firmware.
#
# deep_sleep() keeps the record as bytes, as the ESP32's RTC memory would,
# and marks the device sleeping; the Device then stops running the firmware
# and, when the board's parts pull a pin that would wake the real board
# (woken(): wake_plan's keypad columns joined to a row by a key, or the wake
# pin grounded, which is the knob's push button), starts it again on the same
# flash with woke set, like the reboot an ESP32 wakes with. `wakes` names
# those keys. A power cut (a new SimPower) loses the record, as it would on
# the device.
from power import Power, decode, encode, wake_plan


class SimPower(Power):
    def __init__(self, profile):
        plan = wake_plan(profile)
        wakes = []
        if plan.cols:
            for line in profile["keypad"]["keys"]:
                wakes.extend(line)
        encoder = profile.get("encoder") or {}
        if plan.ext0 is not None and plan.ext0 == encoder.get("button"):
            wakes.append("PUSH")
        self.wakes = tuple(wakes)  # key names that wake the sleeping device
        self.plan = plan
        self.memory = b""  # RTC memory: kept through deep sleep
        self.sleeping = False
        self.woke = False
        self.sleeps = 0  # deep sleeps so far
        self.slept_ms = 0  # how long the current (or last) sleep lasted

    def woken(self, machine):
        """Whether the parts on the board pull a wake pin now (machine: sim/simmachine.py's, or the
        device build's simchip)."""
        plan = self.plan
        if plan.cols and machine.keys_held():  # a key joins a row to a column
            return True
        return plan.ext0 is not None and machine.grounded(plan.ext0)  # grounded: the button

    def can_sleep(self):
        return self.plan.ext0 is not None

    def take_record(self):
        data = self.memory
        self.memory = b""
        if not self.woke:
            return None
        record = decode(data)
        if record is not None:
            record["z"] = self.slept_ms // 1000
        return record

    def deep_sleep(self, record):
        self.memory = encode(record) or b""
        self.sleeping = True
        self.sleeps += 1
        self.slept_ms = 0

    def wake(self):
        """The firmware starts again: called by the Device just before it boots."""
        self.sleeping = False
        self.woke = True
