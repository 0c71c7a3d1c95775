# Consistency check of a board profile: complete, every GPIO used once, every GPIO fit for its job on an ESP32.
#
#   problems = check(profile, "esp32-devkitc-ssd1306")   # [] when the profile is fine
#
# Each problem is one line naming the field. The ESP32 rules:
# - GPIO 6-11 belong to the module's flash, 1 and 3 to the USB serial (the
#   REPL and Tafel's link): never.
# - GPIO 34-39 are input-only and have no internal pull-ups: no outputs
#   there, and no inputs that rely on the internal pull-up.
# - Strapping pins (0, 2, 5, 12, 15) decide how the chip boots, and 16/17
#   carry the PSRAM on WROVER modules: refused unless the profile accepts
#   that pin by name with a reason, e.g.
#       "accepted_pins": {"5": "display CS, wired so on the board; idles high like the strap wants"}
# - The battery divider needs ADC1 (32-39: ADC2 stops working while Wi-Fi
#   is on); the wake pin must be RTC-capable and one of the key inputs.
from pathlib import Path

from .model import is_pin, pin_uses, repo_root

GPIOS = frozenset(range(0, 20)) | {21, 22, 23, 25, 26, 27} | frozenset(range(32, 40))
FLASH = frozenset(range(6, 12))
SERIAL = frozenset((1, 3))
INPUT_ONLY = frozenset(range(34, 40))
RTC = frozenset((0, 2, 4, 12, 13, 14, 15, 25, 26, 27)) | INPUT_ONLY | {32, 33}
ADC1 = frozenset(range(32, 40))
CAUTION = {
    0: "a strapping pin (low at reset starts the ROM bootloader instead of Tafel)",
    2: "a strapping pin (must be low or floating at reset to flash the board)",
    5: "a strapping pin (sets the SDIO timing at reset)",
    12: "a strapping pin (high at reset selects 1.8 V flash and the board does not boot)",
    15: "a strapping pin (low at reset silences the boot messages)",
    16: "wired to the PSRAM on WROVER modules",
    17: "wired to the PSRAM on WROVER modules",
}
KEYS = "0123456789ABCD*#"
OUTPUT_MODES = ("od", "out")
MODE_WORDS = {"od": "an output", "out": "an output", "in_pull": "an input with the internal pull-up",
              "in": "an input", "adc": "the battery ADC"}


def _python(py, say):
    # How the firmware is deployed and how much Python heap the chip has (the simulator runs in it).
    if not isinstance(py, dict):
        say("python: missing (an object: deployment, heap, system_heap)")
        return
    if py.get("deployment") not in ("frozen", "mpy"):
        say("python.deployment: %r is neither 'frozen' (the app in our firmware image, boards without "
            "PSRAM) nor 'mpy' (stock MicroPython and .mpy files, boards with PSRAM)" % (py.get("deployment"),))
    value = py.get("heap")
    if type(value) is not int or value < 16384:
        say("python.heap: %r must be a whole number of bytes, at least 16384" % (value,))
    system = py.get("system_heap")
    if system is not None and system != "esp32" and (type(system) is not int or system < 0):
        say("python.system_heap: %r must be \"esp32\" (the modelled ESP-IDF heap of an ESP32 without PSRAM) "
            "or a whole number of bytes the heap may grow by (PSRAM)" % (system,))


def check(profile, name=None, root=None):
    """Every problem of one profile as a line of text; [] if none. `name`: the file's stem, checked against "name"."""
    problems = []
    say = problems.append
    if not isinstance(profile, dict):
        return ["the profile is not a JSON object"]
    if name is not None and profile.get("name") != name:
        say("name: %r must be the file name without .json, %r" % (profile.get("name"), name))
    if not isinstance(profile.get("title"), str) or not profile.get("title").strip():
        say("title: missing (one line for people: board and parts)")
    if profile.get("mcu") != "esp32":
        say("mcu: %r is not 'esp32', the only chip these rules know" % (profile.get("mcu"),))
    _python(profile.get("python"), say)
    sections = {}
    for key in ("display", "keypad", "power"):
        if isinstance(profile.get(key), dict):
            sections[key] = profile[key]
        else:
            say("%s: missing (an object)" % key)
    if "display" in sections:
        _display(sections["display"], say, root)
    if "keypad" in sections:
        _keypad(sections["keypad"], say)
    encoder = profile.get("encoder")
    if encoder is not None:
        if isinstance(encoder, dict):
            _encoder(encoder, say)
        else:
            say("encoder: must be an object or null")
    uses = pin_uses(profile)
    _pins(uses, profile.get("accepted_pins", {}), say)
    if "power" in sections:
        _power(sections["power"], uses, say)
    return problems


def _pin(section, key, path, say, required=True):
    value = section[key] if isinstance(section, list) else section.get(key)
    if value is None or value == -1:
        if required:
            say("%s: missing (a GPIO number)" % path)
    elif not is_pin(value) or value not in GPIOS:
        say("%s: %r is not a GPIO of the ESP32" % (path, value))


def _positive(section, key, path, say, required=True):
    value = section.get(key)
    if value is None and not required:
        return
    if not _whole(value) or value <= 0:
        say("%s: %r must be a positive whole number" % (path, value))


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _number_in(section, key, path, low, high, say, words=None):
    # An optional whole number from low to high (board.py's default when it is left out).
    if key in section and not (_whole(section[key]) and low <= section[key] <= high):
        say("%s: %r must be %s" % (path, section[key], words or "a whole number from %d to %d" % (low, high)))


def _flag(section, key, path, say):
    if key in section and not isinstance(section[key], bool):
        say("%s: %r must be true or false" % (path, section[key]))


def _display_options(d, say):
    # What board.py hands the drivers beside the pins: each left out takes the driver's default.
    for key in ("external_vcc", "invert_colours", "bgr"):
        _flag(d, key, "display." + key, say)
    _number_in(d, "rotation", "display.rotation", 0, 3, say, "0, 1, 2 or 3 (quarter turns)")
    _number_in(d, "x_offset", "display.x_offset", 0, 319, say)
    _number_in(d, "y_offset", "display.y_offset", 0, 319, say)
    _number_in(d, "pixel_scale", "display.pixel_scale", 1, 2, say, "1 or 2 (the drivers draw these)")
    _number_in(d, "text_scale", "display.text_scale", 1, 4, say)
    _number_in(d, "backlight_freq", "display.backlight_freq", 1, 40000000, say,
               "the backlight's PWM frequency in Hz, a whole number from 1 to 40000000")
    palette = d.get("palette")
    if "palette" in d and not isinstance(palette, dict):
        say("display.palette: %r must be an object: fg, bg, accent as RGB565 numbers" % (palette,))
    elif palette is not None:
        for key in palette:
            if key not in ("fg", "bg", "accent"):
                say("display.palette.%s: not a colour the drivers use (fg, bg, accent)" % key)
            else:
                _number_in(palette, key, "display.palette." + key, 0, 0xFFFF, say,
                           "an RGB565 colour, a whole number from 0 to 65535")


def _display(d, say, root):
    driver, bus = d.get("driver"), d.get("bus")
    if not isinstance(driver, str) or not driver:
        say("display.driver: missing")
    else:
        module = Path(root or repo_root()) / "firmware" / "drivers" / (driver + ".py")
        if not module.is_file():
            say("display.driver: %r has no driver firmware/drivers/%s.py" % (driver, driver))
    _positive(d, "width", "display.width", say)
    _positive(d, "height", "display.height", say)
    _display_options(d, say)
    if bus not in ("i2c", "spi"):
        say("display.bus: %r must be 'i2c' or 'spi'" % (bus,))
        return
    pins = d.get(bus)
    if not isinstance(pins, dict):
        say("display.%s: missing (the bus's pins)" % bus)
        return
    where = "display." + bus + "."
    if bus == "i2c":
        if not _whole(pins.get("id")) or pins.get("id") not in (0, 1):
            say(where + "id: %r must be 0 or 1" % (pins.get("id"),))
        _pin(pins, "scl", where + "scl", say)
        _pin(pins, "sda", where + "sda", say)
        _positive(pins, "freq", where + "freq", say)
        if isinstance(pins.get("freq"), int) and pins["freq"] > 1000000:
            say(where + "freq: %d is faster than the ESP32's 1 MHz I2C" % pins["freq"])
        address = d.get("address")
        if not isinstance(address, int) or isinstance(address, bool) or not 0x08 <= address <= 0x77:
            say("display.address: %r must be a 7-bit I2C address (0x3C is 60)" % (address,))
    else:
        if not _whole(pins.get("id")) or pins.get("id") not in (1, 2):
            say(where + "id: %r must be 1 (HSPI) or 2 (VSPI)" % (pins.get("id"),))
        _pin(pins, "sck", where + "sck", say)
        _pin(pins, "mosi", where + "mosi", say)
        _pin(pins, "miso", where + "miso", say, required=False)
        _positive(pins, "baudrate", where + "baudrate", say)
        _pin(d, "dc", "display.dc", say)
        for key in ("cs", "rst", "backlight"):
            _pin(d, key, "display." + key, say, required=False)


def _keypad(k, say):
    for key in ("rows", "cols"):
        pins = k.get(key)
        if not isinstance(pins, list) or len(pins) != 4:
            say("keypad.%s: must be a list of 4 GPIOs" % key)
            continue
        for i in range(4):
            _pin(pins, i, "keypad.%s[%d]" % (key, i), say)
    keys = k.get("keys")
    if not isinstance(keys, list) or len(keys) != 4 or not all(isinstance(r, str) and len(r) == 4 for r in keys):
        say("keypad.keys: must be 4 strings of 4 keys, one string per row")
    else:
        typed = "".join(keys)
        doubled = sorted(set(ch for ch in typed if typed.count(ch) > 1))
        if doubled:
            say("keypad.keys: %s on more than one key" % " ".join(doubled))
        missing = [ch for ch in KEYS if ch not in typed]
        if missing:
            say("keypad.keys: no key for %s" % " ".join(missing))
        foreign = sorted(set(typed) - set(KEYS))
        if foreign:
            say("keypad.keys: %s not Tafel keys (0-9 A-D * #)" % " ".join(repr(ch) for ch in foreign))
    _positive(k, "scan_ms", "keypad.scan_ms", say)
    _positive(k, "debounce_ms", "keypad.debounce_ms", say)


def _encoder(e, say):
    _pin(e, "a", "encoder.a", say)
    _pin(e, "b", "encoder.b", say)
    _pin(e, "button", "encoder.button", say, required=False)
    if not _whole(e.get("steps_per_detent")) or e.get("steps_per_detent") not in (1, 2, 4):
        say("encoder.steps_per_detent: %r must be 1, 2 or 4 (4 for the KY-040)" % (e.get("steps_per_detent"),))
    for key in ("pull_up", "button_pull_up"):
        _flag(e, key, "encoder." + key, say)
    _positive(e, "debounce_ms", "encoder.debounce_ms", say, required=False)


def _pins(uses, accepted, say):
    if not isinstance(accepted, dict):
        say("accepted_pins: must be an object: GPIO number as text -> reason")
        accepted = {}
    by_gpio = {}
    for use in uses:
        by_gpio.setdefault(use.gpio, []).append(use)
    for gpio in sorted(by_gpio):
        users = by_gpio[gpio]
        if len(users) > 1:
            say("GPIO %d is used twice: %s" % (gpio, ", ".join(u.path for u in users)))
        for use in users:
            if gpio not in GPIOS:
                continue  # said already by the field's own check
            if gpio in FLASH:
                say("%s: GPIO %d belongs to the module's flash (6-11)" % (use.path, gpio))
            elif gpio in SERIAL:
                say("%s: GPIO %d is the USB serial (REPL and Tafel's link)" % (use.path, gpio))
            elif gpio in INPUT_ONLY and use.mode in OUTPUT_MODES:
                say("%s: GPIO %d is input-only, it cannot be %s" % (use.path, gpio, MODE_WORDS[use.mode]))
            elif gpio in INPUT_ONLY and use.mode == "in_pull":
                say("%s: GPIO %d has no internal pull-up (34-39), it cannot be %s"
                    % (use.path, gpio, MODE_WORDS[use.mode]))
            elif gpio in CAUTION and not _reason(accepted.get(str(gpio))):
                say('%s: GPIO %d is %s; use another pin, or accept it in "accepted_pins" with a reason'
                    % (use.path, gpio, CAUTION[gpio]))
    for key, reason in accepted.items():
        gpio = int(key) if key.isdigit() else None
        if gpio not in CAUTION:
            say("accepted_pins: %r is not a pin that needs accepting (%s)" % (key, ", ".join(map(str, CAUTION))))
        elif gpio not in by_gpio:
            say("accepted_pins: GPIO %d is accepted but the profile does not use it" % gpio)
        elif not _reason(reason):
            say("accepted_pins: GPIO %d needs a reason (a sentence saying why it is safe here)" % gpio)


def _reason(text):
    return isinstance(text, str) and len(text.strip()) >= 10


def _power(p, uses, say):
    if p.get("supply") not in ("usb", "battery"):
        say("power.supply: %r must be 'usb' or 'battery'" % (p.get("supply"),))
    if p.get("logic_mv") != 3300:
        say("power.logic_mv: %r must be 3300: every module runs from 3V3" % (p.get("logic_mv"),))
    if "battery" not in p:
        say("power.battery: missing (the cell and charger, or null)")
    elif p.get("supply") == "battery" and not p.get("battery"):
        say("power.battery: a battery-powered board must say which cell and charger")
    battery = p.get("battery")
    if battery is not None and not isinstance(battery, dict):
        say("power.battery: %r must be an object (cell, charger, connector) or null" % (battery,))
    elif battery is not None:
        for key in ("cell", "charger", "connector"):
            if not isinstance(battery.get(key), str) or not battery[key].strip():
                say("power.battery.%s: %r must say it in words" % (key, battery.get(key)))
    _pin(p, "battery_adc_enable", "power.battery_adc_enable", say, required=False)
    divider = p.get("battery_divider")
    if "battery_divider" in p and (isinstance(divider, bool) or not isinstance(divider, (int, float))
                                   or not 1 <= divider <= 20):
        say("power.battery_divider: %r must be the divider's ratio, a number from 1 to 20" % (divider,))
    for key in ("battery_adc", "wake_pin"):
        if key not in p:
            say("power.%s: missing (a GPIO or null)" % key)
        else:
            _pin(p, key, "power." + key, say, required=False)
    adc = p.get("battery_adc")
    if is_pin(adc) and adc in GPIOS and adc not in ADC1:
        say("power.battery_adc: GPIO %d is not on ADC1 (32-39); ADC2 stops while Wi-Fi is on" % adc)
    wake = p.get("wake_pin")
    if is_pin(wake) and wake in GPIOS:
        if wake not in RTC:
            say("power.wake_pin: GPIO %d is not RTC-capable, it cannot wake the ESP32 from deep sleep" % wake)
        inputs = [u for u in uses if u.gpio == wake and u.mode in ("in", "in_pull") and u.part != "display"]
        if not inputs:
            say("power.wake_pin: GPIO %d is not a key input (the encoder's button or a keypad column)" % wake)
