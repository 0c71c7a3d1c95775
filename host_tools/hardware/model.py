# What a board profile means as wires: every GPIO a profile uses, which part pin it goes to, and how it is driven.
#
# The single reading of hardware/boards/*.json on the laptop side. The
# consistency check (check.py), the wiring table and diagram
# (docs.py, svg.py) all start from pin_uses() and parts(),
# so a document can only show a pin the check has seen. Modes and defaults
# follow firmware/board.py, which builds the drivers on the device:
#   od       open-drain output (I2C lines, keypad rows)
#   out      push-pull output (SPI clock and data, display control lines)
#   in_pull  input with the ESP32's internal pull-up (keypad columns, buttons)
#   in       input, pulled up by the module or not at all (KY-040 A/B, MISO)
#   adc      analogue input (the battery divider)
# tests/host/test_hardware_docs.py builds every profile with board.py on the
# MicroPython unix port and checks it configures exactly these pins.
import json
from collections import namedtuple
from pathlib import Path

# One GPIO's job: `path` names the profile field ("keypad.rows[0]").
Use = namedtuple("Use", "gpio path mode part label")
# One wire: part pin -> ESP32 (a GPIO number, or "3V3" / "GND"); colour is a suggestion.
Wire = namedtuple("Wire", "pin to colour note")
# A part as a builder sees it: `key` is the profile section, `builtin` means soldered on the board (no wires).
Part = namedtuple("Part", "key title wires builtin")

# Pins of an SPI display beside its bus, in the order a module's header usually has them.
SPI_BUS_PINS = (("sck", "SCL / SCK"), ("mosi", "SDA / MOSI"), ("miso", "MISO"))
SPI_CONTROL_PINS = (("cs", "CS"), ("dc", "DC"), ("rst", "RES / RST"), ("backlight", "BLK / BL"))
I2C_PINS = (("scl", "SCL"), ("sda", "SDA"))

# Suggested wire colours. The keypad's 8 follow a rainbow ribbon (resistor colour code 1-8).
POWER_COLOURS = {"3V3": "red", "GND": "black"}
BUS_COLOURS = {"scl": "yellow", "sda": "green", "sck": "yellow", "mosi": "green", "miso": "blue",
               "cs": "orange", "dc": "white", "rst": "grey", "backlight": "purple"}
RIBBON = ("brown", "red", "orange", "yellow", "green", "blue", "purple", "grey")
ENCODER_COLOURS = {"a": "white", "b": "grey", "button": "blue"}
DRIVER_TITLES = {"ssd1306": "SSD1306 OLED", "st7789": "ST7789 colour LCD", "ili9341": "ILI9341 colour LCD"}


def repo_root():
    """The source tree this package runs from (an editable install): the parent of tafel_host."""
    return Path(__file__).resolve().parents[2]  # host_tools/hardware/model.py


def boards_dir(root=None):
    return Path(root or repo_root()) / "hardware" / "boards"


def load_profiles(root=None):
    """Every profile in hardware/boards, by name (file stem), in name order."""
    return {path.stem: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(boards_dir(root).glob("*.json"))}


def parts_path(name, root=None):
    """The BOM and build data of a board: hardware/parts/<name>.json (kept out of the profile on purpose)."""
    return Path(root or repo_root()) / "hardware" / "parts" / (name + ".json")


def load_parts(name, root=None):
    return json.loads(parts_path(name, root).read_text(encoding="utf-8"))


def is_pin(value):
    """A GPIO field that is set: an int (bool excluded); null or -1 mean 'not connected'."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def pin_uses(profile):
    """Every GPIO the profile assigns, in wiring order (display, keypad, encoder, power); wake_pin not counted."""
    uses = []

    def add(value, path, mode, part, label):
        if is_pin(value):
            uses.append(Use(value, path, mode, part, label))

    display = profile.get("display")
    if isinstance(display, dict):
        bus = display.get("bus")
        pins = display.get(bus) if bus in ("i2c", "spi") else {}
        if not isinstance(pins, dict):
            pins = {}
        if bus == "i2c":
            for key, label in I2C_PINS:
                add(pins.get(key), "display.i2c." + key, "od", "display", label)
        elif bus == "spi":
            for key, label in SPI_BUS_PINS:
                add(pins.get(key), "display.spi." + key, "in" if key == "miso" else "out", "display", label)
            for key, label in SPI_CONTROL_PINS:
                add(display.get(key), "display." + key, "out", "display", label)
    keypad = profile.get("keypad")
    if isinstance(keypad, dict):
        for i, gpio in enumerate(_list(keypad.get("rows"))):
            add(gpio, "keypad.rows[%d]" % i, "od", "keypad", "row %d" % (i + 1))
        for i, gpio in enumerate(_list(keypad.get("cols"))):
            add(gpio, "keypad.cols[%d]" % i, "in_pull", "keypad", "column %d" % (i + 1))
    encoder = profile.get("encoder")
    if isinstance(encoder, dict):
        # board.py: pull_up defaults to False (the module pulls A/B up), button_pull_up to True.
        ab = "in_pull" if encoder.get("pull_up", False) else "in"
        add(encoder.get("a"), "encoder.a", ab, "encoder", "CLK")
        add(encoder.get("b"), "encoder.b", ab, "encoder", "DT")
        sw = "in_pull" if encoder.get("button_pull_up", True) else "in"
        add(encoder.get("button"), "encoder.button", sw, "encoder", "SW")
    power = profile.get("power")
    if isinstance(power, dict):
        add(power.get("battery_adc"), "power.battery_adc", "adc", "battery", "divider")
        add(power.get("battery_adc_enable"), "power.battery_adc_enable", "out", "battery", "divider enable")
    return uses


def _list(value):
    return value if isinstance(value, list) else []


def column_keys(keys, c):
    return " ".join(line[c] for line in keys if c < len(line))


def parts(profile, builtin=()):
    """The parts of a board with their wires (power first), for the table and the diagram."""
    uses = {use.path: use for use in pin_uses(profile)}
    out = [_display(profile["display"], uses, "display" in builtin),
           _keypad(profile["keypad"], uses)]
    encoder = profile.get("encoder")
    if encoder:
        out.append(_encoder(encoder, uses))
    adc = uses.get("power.battery_adc")
    if adc:
        out.append(_divider(adc, uses.get("power.battery_adc_enable"), "battery" in builtin))
    wake = (profile.get("power") or {}).get("wake_pin")
    for part in out:
        part.wires[:] = [w._replace(note=w.note + "; wakes the ESP32 from deep sleep") if w.to == wake else w
                         for w in part.wires]
    return out


def _display(spec, uses, builtin):
    bus = spec["bus"]
    title = "%s %dx%d (%s)" % (DRIVER_TITLES.get(spec["driver"], spec["driver"]), spec["width"],
                               spec["height"], bus.upper())
    wires = [] if builtin else [Wire("GND", "GND", "black", ""), Wire("VCC", "3V3", "red", "3.3 V, not 5 V")]
    if bus == "i2c":
        i2c = spec["i2c"]
        freq = i2c.get("freq", 400000)
        where = "I2C%d, %d kHz" % (i2c["id"], freq // 1000)
        wires.append(Wire("SCL", uses["display.i2c.scl"].gpio, BUS_COLOURS["scl"],
                          "clock, %s; the module has its own pull-ups" % where))
        wires.append(Wire("SDA", uses["display.i2c.sda"].gpio, BUS_COLOURS["sda"],
                          "data, address 0x%02X" % spec.get("address", 0x3C)))
    else:
        notes = {"sck": "SPI%s clock" % spec.get("spi", {}).get("id", ""), "mosi": "data to the display",
                 "miso": "data from the display", "cs": "chip select (low: selected)",
                 "dc": "data / command", "rst": "reset (low: reset)", "backlight": "backlight on"}
        for path, use in uses.items():
            if use.part == "display":
                key = path.rsplit(".", 1)[1]
                wires.append(Wire(use.label, use.gpio, BUS_COLOURS.get(key, "white"), notes.get(key, "")))
    return Part("display", title, wires, builtin)


def _keypad(spec, uses):
    keys = spec["keys"]
    wires = []
    for i in range(len(spec["rows"])):
        wires.append(Wire("%d (row %d: %s)" % (i + 1, i + 1, " ".join(keys[i])),
                          uses["keypad.rows[%d]" % i].gpio, RIBBON[i % 8],
                          "row: open-drain output, pulled low one row at a time while scanning"))
    for c in range(len(spec["cols"])):
        n = len(spec["rows"]) + c + 1
        wires.append(Wire("%d (column %d: %s)" % (n, c + 1, column_keys(keys, c)),
                          uses["keypad.cols[%d]" % c].gpio, RIBBON[(n - 1) % 8],
                          "column: input with the ESP32's internal pull-up; a pressed key pulls it low"))
    return Part("keypad", "4x4 membrane keypad (8-pin ribbon)", wires, False)


def _encoder(spec, uses):
    wires = [Wire("GND", "GND", "black", ""),
             Wire("+", "3V3", "red", "3.3 V, so the module's pull-ups never put 5 V on a GPIO")]
    for key, path in (("a", "encoder.a"), ("b", "encoder.b"), ("button", "encoder.button")):
        use = uses.get(path)
        if use is None:
            continue
        if key == "button":
            note = "push switch to GND; " + ("internal pull-up (most KY-040 boards leave this resistor out)"
                                             if use.mode == "in_pull" else "the module's pull-up")
        else:
            note = "quadrature %s; " % ("A" if key == "a" else "B") + (
                "internal pull-up" if use.mode == "in_pull" else "the module has a 10 kΩ pull-up on it")
            if 34 <= use.gpio <= 39:
                note += " (input-only pin, no internal pull-up)"
        wires.append(Wire(use.label, use.gpio, ENCODER_COLOURS[key], note))
    return Part("encoder", "KY-040 rotary encoder with push switch", wires, False)


def _divider(adc, enable, builtin):
    if builtin:
        wires = [Wire("middle", adc.gpio, "white", "ADC1 input: the cell voltage through the board's divider")]
    else:
        wires = [Wire("top", "BAT+", "red", "battery + after the switch, through 100 kΩ to the middle"),
                 Wire("middle", adc.gpio, "white", "ADC1 input: half the cell voltage (100 nF from here to GND)"),
                 Wire("bottom", "GND", "black", "100 kΩ from the middle to GND")]
    if enable:
        wires.append(Wire("enable", enable.gpio, "orange",
                          "output: switches the divider on only while measuring, so it drains nothing in sleep"))
    return Part("battery", "Battery voltage divider" + ("" if builtin else " (2 x 100 kΩ)"), wires, builtin)
