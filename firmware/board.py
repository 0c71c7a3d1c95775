# The one place that knows pins and chips: reads a board profile and builds the drivers on a machine-like module.
#
# `hw` is chosen by the caller: the real `machine` module on the device
# (main.py), the simulator's Machine (sim/simmachine.py) elsewhere. It must
# provide Pin(id, mode, pull, *, value) with IN, OUT, OPEN_DRAIN, PULL_UP,
# IRQ_RISING, IRQ_FALLING and irq(); for an I2C display I2C(id, scl=Pin,
# sda=Pin, freq=) with writevto(); for an SPI display SPI(id, baudrate=,
# sck=Pin, mosi=Pin, miso=None) with write(), and optionally PWM(Pin, freq=,
# duty_u16=) for a dimmable backlight (else the backlight is a Pin, on or
# off) and sleep_ms(ms) for the chip's set-up delays (else time.sleep_ms).
# Profiles: hardware/boards/*.json, fields in its README.
import json


class Board:
    """What the rest of the firmware gets: drivers, never pins."""

    def __init__(self, profile, display, keypad, encoder):
        self.profile = profile
        self.name = profile.get("name", "")
        self.display = display  # a framebuf.FrameBuffer with show(), show_pages(mask), ...
        self.keypad = keypad  # drivers.keypad.Keypad
        self.encoder = encoder  # drivers.encoder.Encoder, or None on a board without one


def load_profile(path):
    with open(path) as f:
        return json.load(f)


# What only people and the laptop read: the board's description, why a pin is accepted, the
# battery to buy, the MCU and how Python is deployed on it.
_NOT_ON_CHIP = ("title", "mcu", "python", "accepted_pins")


def build(profile, hw):
    """Make the drivers the profile describes, on the pins of `hw`.

    The chip keeps its profile as long as it runs (its caller holds it: run() in assemble.py, the
    simulator's chip), so what only people and the laptop read goes out of the dict here, as its
    drivers are made: on the T-Display's profile, the longest, 1 KB of parsed JSON, half of it."""
    for key in _NOT_ON_CHIP:
        profile.pop(key, None)
    power = profile.get("power")
    if type(power) is dict:
        power.pop("battery", None)  # the cell and charger described, not pins
    encoder = profile.get("encoder")
    return Board(
        profile,
        _display(profile["display"], hw),
        _keypad(profile["keypad"], hw),
        _encoder(encoder, hw) if encoder else None,
    )


def wlan(hw):
    """The Wi-Fi station interface for updates (update/net.py): hw.WLAN() where `hw`
    has one (the simulator's: C on the device build, sim/simnet.py elsewhere), else
    network.WLAN(network.STA_IF).
    Imported only when asked for: the network stack costs nothing until then."""
    make = getattr(hw, "WLAN", None)
    if make is not None:
        return make()
    import network

    return network.WLAN(network.STA_IF)


def _display(spec, hw):
    driver, bus = spec["driver"], spec["bus"]
    if driver == "ssd1306" and bus == "i2c":
        from drivers.ssd1306 import SSD1306_I2C

        return SSD1306_I2C(spec["width"], spec["height"], _i2c(spec["i2c"], hw),
                           spec.get("address", 0x3C), spec.get("external_vcc", False))
    if driver == "st7789" and bus == "spi":
        from drivers.st7789 import ST7789_SPI

        return ST7789_SPI(spec["width"], spec["height"], *_lcd_spi(spec, hw),
                          invert_colours=spec.get("invert_colours", True), **_lcd_options(spec, hw))
    if driver == "ili9341" and bus == "spi":
        from drivers.ili9341 import ILI9341_SPI

        return ILI9341_SPI(spec["width"], spec["height"], *_lcd_spi(spec, hw),
                           invert_colours=spec.get("invert_colours", False), bgr=spec.get("bgr", True),
                           pixel_scale=spec.get("pixel_scale", 1), text_scale=spec.get("text_scale", 1),
                           **_lcd_options(spec, hw))
    raise ValueError("no driver for display %r on %r" % (driver, bus))


def _i2c(bus, hw):
    Pin = hw.Pin
    return hw.I2C(bus["id"], scl=Pin(bus["scl"]), sda=Pin(bus["sda"]), freq=bus.get("freq", 400000))


def _spi(bus, hw):
    Pin = hw.Pin
    miso = bus.get("miso")
    # miso=None, not left out: the ESP32 port would take the bus's default MISO pin.
    return hw.SPI(bus["id"], baudrate=bus.get("baudrate", 20000000), sck=Pin(bus["sck"]), mosi=Pin(bus["mosi"]),
                  miso=None if miso is None else Pin(miso))


def _lcd_spi(spec, hw):
    # An SPI colour LCD's bus and lines: (spi, dc, cs, rst), each line None where the board has none.
    Pin = hw.Pin

    def out(key, level):
        n = spec.get(key)
        return None if n is None else Pin(n, Pin.OUT, value=level)

    dc, cs, rst = out("dc", 0), out("cs", 1), out("rst", 1)
    return _spi(spec["spi"], hw), dc, cs, rst


def _lcd_options(spec, hw):
    # What every colour LCD driver takes beside its bus (drivers/lcd565.py).
    Pin = hw.Pin
    backlight = spec.get("backlight")
    if backlight is not None:
        if hasattr(hw, "PWM"):
            backlight = hw.PWM(Pin(backlight, Pin.OUT, value=0), freq=spec.get("backlight_freq", 1000), duty_u16=0)
        else:
            backlight = Pin(backlight, Pin.OUT, value=0)
    return {"rotation": spec.get("rotation", 0), "x_offset": spec.get("x_offset", 0),
            "y_offset": spec.get("y_offset", 0), "palette": spec.get("palette"), "backlight": backlight,
            "sleep_ms": getattr(hw, "sleep_ms", None)}


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
