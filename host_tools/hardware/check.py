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

from ..lang import say as text
from .model import is_pin, pin_uses, repo_root

GPIOS = frozenset(range(0, 20)) | {21, 22, 23, 25, 26, 27} | frozenset(range(32, 40))
FLASH = frozenset(range(6, 12))
SERIAL = frozenset((1, 3))
INPUT_ONLY = frozenset(range(34, 40))
RTC = frozenset((0, 2, 4, 12, 13, 14, 15, 25, 26, 27)) | INPUT_ONLY | {32, 33}
ADC1 = frozenset(range(32, 40))
CAUTION = {  # the pins that need accepting, and why (texts_*_board.py)
    0: "hw_caution_0",
    2: "hw_caution_2",
    5: "hw_caution_5",
    12: "hw_caution_12",
    15: "hw_caution_15",
    16: "hw_caution_psram",
    17: "hw_caution_psram",
}
KEYS = "0123456789ABCD*#"
OUTPUT_MODES = ("od", "out")
MODE_WORDS = {"od": "hw_mode_out", "out": "hw_mode_out", "in_pull": "hw_mode_in_pull"}  # what a pin cannot be


def _python(py, say):
    # How the firmware is deployed and how much Python heap the chip has (the simulator runs in it).
    if not isinstance(py, dict):
        say(text("hw_python_missing"))
        return
    if py.get("deployment") not in ("frozen", "mpy"):
        say(text("hw_deployment", py.get("deployment")))
    value = py.get("heap")
    if type(value) is not int or value < 16384:
        say(text("hw_heap", value))
    system = py.get("system_heap")
    if system is not None and system != "esp32" and (type(system) is not int or system < 0):
        say(text("hw_system_heap", system))


def check(profile, name=None, root=None):
    """Every problem of one profile as a line of text; [] if none. `name`: the file's stem, checked against "name"."""
    problems = []
    say = problems.append
    if not isinstance(profile, dict):
        return [text("hw_not_object")]
    if name is not None and profile.get("name") != name:
        say(text("hw_name", profile.get("name"), name))
    if not isinstance(profile.get("title"), str) or not profile.get("title").strip():
        say(text("hw_title"))
    if profile.get("mcu") != "esp32":
        say(text("hw_mcu", profile.get("mcu")))
    _python(profile.get("python"), say)
    sections = {}
    for key in ("display", "keypad", "power"):
        if isinstance(profile.get(key), dict):
            sections[key] = profile[key]
        else:
            say(text("hw_missing_object", key))
    if "display" in sections:
        _display(sections["display"], say, root)
    if "keypad" in sections:
        _keypad(sections["keypad"], say)
    encoder = profile.get("encoder")
    if encoder is not None:
        if isinstance(encoder, dict):
            _encoder(encoder, say)
        else:
            say(text("hw_encoder_object"))
    uses = pin_uses(profile)
    _pins(uses, profile.get("accepted_pins", {}), say)
    if "power" in sections:
        _power(sections["power"], uses, say)
    return problems


def _pin(section, key, path, say, required=True):
    value = section[key] if isinstance(section, list) else section.get(key)
    if value is None or value == -1:
        if required:
            say(text("hw_missing_gpio", path))
    elif not is_pin(value) or value not in GPIOS:
        say(text("hw_not_gpio", path, value))


def _positive(section, key, path, say, required=True):
    value = section.get(key)
    if value is None and not required:
        return
    if not _whole(value) or value <= 0:
        say(text("hw_positive", path, value))


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _number_in(section, key, path, low, high, say, words=None):
    # An optional whole number from low to high (board.py's default when it is left out).
    if key in section and not (_whole(section[key]) and low <= section[key] <= high):
        say(text("hw_must_be", path, section[key], words or text("hw_whole_from", low, high)))


def _flag(section, key, path, say):
    if key in section and not isinstance(section[key], bool):
        say(text("hw_flag", path, section[key]))


def _display_options(d, say):
    # What board.py hands the drivers beside the pins: each left out takes the driver's default.
    for key in ("external_vcc", "invert_colours", "bgr"):
        _flag(d, key, "display." + key, say)
    _number_in(d, "rotation", "display.rotation", 0, 3, say, text("hw_rotation"))
    _number_in(d, "x_offset", "display.x_offset", 0, 319, say)
    _number_in(d, "y_offset", "display.y_offset", 0, 319, say)
    _number_in(d, "pixel_scale", "display.pixel_scale", 1, 2, say, text("hw_pixel_scale"))
    _number_in(d, "text_scale", "display.text_scale", 1, 4, say)
    _number_in(d, "backlight_freq", "display.backlight_freq", 1, 40000000, say, text("hw_backlight_freq"))
    palette = d.get("palette")
    if "palette" in d and not isinstance(palette, dict):
        say(text("hw_palette", palette))
    elif palette is not None:
        for key in palette:
            if key not in ("fg", "bg", "accent"):
                say(text("hw_palette_key", key))
            else:
                _number_in(palette, key, "display.palette." + key, 0, 0xFFFF, say, text("hw_rgb565"))


def _display(d, say, root):
    driver, bus = d.get("driver"), d.get("bus")
    if not isinstance(driver, str) or not driver:
        say(text("hw_driver_missing"))
    else:
        module = Path(root or repo_root()) / "firmware" / "drivers" / (driver + ".py")
        if not module.is_file():
            say(text("hw_driver_file", driver, driver))
    _positive(d, "width", "display.width", say)
    _positive(d, "height", "display.height", say)
    _display_options(d, say)
    if bus not in ("i2c", "spi"):
        say(text("hw_bus", bus))
        return
    pins = d.get(bus)
    if not isinstance(pins, dict):
        say(text("hw_bus_pins", bus))
        return
    where = "display." + bus + "."
    if bus == "i2c":
        if not _whole(pins.get("id")) or pins.get("id") not in (0, 1):
            say(text("hw_i2c_id", where, pins.get("id")))
        _pin(pins, "scl", where + "scl", say)
        _pin(pins, "sda", where + "sda", say)
        _positive(pins, "freq", where + "freq", say)
        if isinstance(pins.get("freq"), int) and pins["freq"] > 1000000:
            say(text("hw_i2c_freq", where, pins["freq"]))
        address = d.get("address")
        if not isinstance(address, int) or isinstance(address, bool) or not 0x08 <= address <= 0x77:
            say(text("hw_address", address))
    else:
        if not _whole(pins.get("id")) or pins.get("id") not in (1, 2):
            say(text("hw_spi_id", where, pins.get("id")))
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
            say(text("hw_keypad_pins", key))
            continue
        for i in range(4):
            _pin(pins, i, "keypad.%s[%d]" % (key, i), say)
    keys = k.get("keys")
    if not isinstance(keys, list) or len(keys) != 4 or not all(isinstance(r, str) and len(r) == 4 for r in keys):
        say(text("hw_keypad_keys"))
    else:
        typed = "".join(keys)
        doubled = sorted(set(ch for ch in typed if typed.count(ch) > 1))
        if doubled:
            say(text("hw_keys_doubled", " ".join(doubled)))
        missing = [ch for ch in KEYS if ch not in typed]
        if missing:
            say(text("hw_keys_missing", " ".join(missing)))
        foreign = sorted(set(typed) - set(KEYS))
        if foreign:
            say(text("hw_keys_foreign", " ".join(repr(ch) for ch in foreign)))
    _positive(k, "scan_ms", "keypad.scan_ms", say)
    _positive(k, "debounce_ms", "keypad.debounce_ms", say)


def _encoder(e, say):
    _pin(e, "a", "encoder.a", say)
    _pin(e, "b", "encoder.b", say)
    _pin(e, "button", "encoder.button", say, required=False)
    if not _whole(e.get("steps_per_detent")) or e.get("steps_per_detent") not in (1, 2, 4):
        say(text("hw_steps", e.get("steps_per_detent")))
    for key in ("pull_up", "button_pull_up"):
        _flag(e, key, "encoder." + key, say)
    _positive(e, "debounce_ms", "encoder.debounce_ms", say, required=False)


def _pins(uses, accepted, say):
    if not isinstance(accepted, dict):
        say(text("hw_accepted_object"))
        accepted = {}
    by_gpio = {}
    for use in uses:
        by_gpio.setdefault(use.gpio, []).append(use)
    for gpio in sorted(by_gpio):
        users = by_gpio[gpio]
        if len(users) > 1:
            say(text("hw_twice", gpio, ", ".join(u.path for u in users)))
        for use in users:
            if gpio not in GPIOS:
                continue  # said already by the field's own check
            if gpio in FLASH:
                say(text("hw_flash_pin", use.path, gpio))
            elif gpio in SERIAL:
                say(text("hw_serial_pin", use.path, gpio))
            elif gpio in INPUT_ONLY and use.mode in OUTPUT_MODES:
                say(text("hw_input_only", use.path, gpio, text(MODE_WORDS[use.mode])))
            elif gpio in INPUT_ONLY and use.mode == "in_pull":
                say(text("hw_no_pull_up", use.path, gpio, text(MODE_WORDS[use.mode])))
            elif gpio in CAUTION and not _reason(accepted.get(str(gpio))):
                say(text("hw_caution", use.path, gpio, text(CAUTION[gpio])))
    for key, reason in accepted.items():
        gpio = int(key) if key.isdigit() else None
        if gpio not in CAUTION:
            say(text("hw_accept_needless", key, ", ".join(map(str, CAUTION))))
        elif gpio not in by_gpio:
            say(text("hw_accept_unused", gpio))
        elif not _reason(reason):
            say(text("hw_accept_reason", gpio))


def _reason(text):
    return isinstance(text, str) and len(text.strip()) >= 10


def _power(p, uses, say):
    if p.get("supply") not in ("usb", "battery"):
        say(text("hw_supply", p.get("supply")))
    if p.get("logic_mv") != 3300:
        say(text("hw_logic_mv", p.get("logic_mv")))
    if "battery" not in p:
        say(text("hw_battery_missing"))
    elif p.get("supply") == "battery" and not p.get("battery"):
        say(text("hw_battery_say"))
    battery = p.get("battery")
    if battery is not None and not isinstance(battery, dict):
        say(text("hw_battery_object", battery))
    elif battery is not None:
        for key in ("cell", "charger", "connector"):
            if not isinstance(battery.get(key), str) or not battery[key].strip():
                say(text("hw_battery_words", key, battery.get(key)))
    _pin(p, "battery_adc_enable", "power.battery_adc_enable", say, required=False)
    divider = p.get("battery_divider")
    if "battery_divider" in p and (isinstance(divider, bool) or not isinstance(divider, (int, float))
                                   or not 1 <= divider <= 20):
        say(text("hw_divider", divider))
    for key in ("battery_adc", "wake_pin"):
        if key not in p:
            say(text("hw_gpio_or_null", key))
        else:
            _pin(p, key, "power." + key, say, required=False)
    adc = p.get("battery_adc")
    if is_pin(adc) and adc in GPIOS and adc not in ADC1:
        say(text("hw_adc1", adc))
    wake = p.get("wake_pin")
    if is_pin(wake) and wake in GPIOS:
        if wake not in RTC:
            say(text("hw_wake_rtc", wake))
        inputs = [u for u in uses if u.gpio == wake and u.mode in ("in", "in_pull") and u.part != "display"]
        if not inputs:
            say(text("hw_wake_key", wake))
