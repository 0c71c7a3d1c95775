# The one place that knows pins and chips: reads a board profile and builds the drivers on a machine-like module.
#
# `hw` is chosen by the caller: the real `machine` module on the device
# (main.py), the simulator's Machine (sim/simmachine.py) elsewhere. It must
# provide Pin(id, mode, pull, *, value) with IN, OPEN_DRAIN, PULL_UP,
# IRQ_RISING, IRQ_FALLING and irq(), and I2C(id, scl=Pin, sda=Pin, freq=)
# with writevto(). Profiles: hardware/boards/*.json, fields in its README.
import json


class Board:
    """What the rest of the firmware gets: drivers, never pins."""

    def __init__(self, profile, display, keypad, encoder):
        self.profile = profile
        self.name = profile.get("name", "")
        self.display = display  # a framebuf.FrameBuffer with show(), show_pages(mask), ...
        self.keypad = keypad  # drivers.keypad.Keypad
        self.encoder = encoder  # drivers.encoder.Encoder, or None on a board without one

    def inputs(self):
        """The input drivers; each has run(queue, clock) to start as a task."""
        return [dev for dev in (self.keypad, self.encoder) if dev is not None]


def load_profile(path):
    with open(path) as f:
        return json.load(f)


def build(profile, hw):
    """Make the drivers the profile describes, on the pins of `hw`."""
    encoder = profile.get("encoder")
    return Board(
        profile,
        _display(profile["display"], hw),
        _keypad(profile["keypad"], hw),
        _encoder(encoder, hw) if encoder else None,
    )


def _display(spec, hw):
    driver, bus = spec["driver"], spec["bus"]
    if driver == "ssd1306" and bus == "i2c":
        from drivers.ssd1306 import SSD1306_I2C

        return SSD1306_I2C(spec["width"], spec["height"], _i2c(spec["i2c"], hw),
                           spec.get("address", 0x3C), spec.get("external_vcc", False))
    raise ValueError("no driver for display %r on %r" % (driver, bus))


def _i2c(bus, hw):
    Pin = hw.Pin
    return hw.I2C(bus["id"], scl=Pin(bus["scl"]), sda=Pin(bus["sda"]), freq=bus.get("freq", 400000))


def _keypad(spec, hw):
    from drivers.keypad import Keypad

    Pin = hw.Pin
    # Rows open-drain and released: see drivers/keypad.py for why not push-pull.
    rows = [Pin(n, Pin.OPEN_DRAIN, None, value=1) for n in spec["rows"]]
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in spec["cols"]]
    return Keypad(rows, cols, spec["keys"], spec.get("debounce_ms", 20), spec.get("scan_ms", 10))


def _encoder(spec, hw):
    from drivers.encoder import Encoder

    Pin = hw.Pin
    pull = Pin.PULL_UP if spec.get("pull_up", False) else None
    a = Pin(spec["a"], Pin.IN, pull)
    b = Pin(spec["b"], Pin.IN, pull)
    button = spec.get("button")
    if button is not None:
        button = Pin(button, Pin.IN, Pin.PULL_UP if spec.get("button_pull_up", True) else None)
    return Encoder(a, b, button, spec.get("steps_per_detent", 4), spec.get("debounce_ms", 20))
