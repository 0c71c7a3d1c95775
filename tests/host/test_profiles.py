# Board profiles: every profile in hardware/boards passes the consistency check, and the check catches broken ones.
import copy
import json

import pytest

from tafel_host.cli import main
from tafel_host.hardware.check import check
from tafel_host.hardware.model import boards_dir, load_profiles, pin_uses

PROFILES = load_profiles()
DEFAULT = "esp32-devkitc-ssd1306"


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_profile_is_complete_and_consistent(name):
    problems = check(PROFILES[name], name)
    assert problems == [], "hardware/boards/%s.json:\n  %s" % (name, "\n  ".join(problems))


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_profile_has_a_4x4_keypad_with_every_key_and_distinct_pins(name):
    keypad = PROFILES[name]["keypad"]
    assert sorted("".join(keypad["keys"])) == sorted("0123456789ABCD*#")
    pins = keypad["rows"] + keypad["cols"]
    assert len(set(pins)) == 8
    encoder = PROFILES[name].get("encoder")
    if encoder:
        pins = [encoder["a"], encoder["b"]] + ([encoder["button"]] if encoder.get("button") is not None else [])
        assert len(set(pins)) == len(pins)


def test_the_default_board_is_there_and_profiles_are_named_after_their_files():
    assert DEFAULT in PROFILES
    for path in boards_dir().glob("*.json"):
        assert json.loads(path.read_text())["name"] == path.stem


# -- the checker against deliberately broken profiles --

def default():
    return copy.deepcopy(PROFILES[DEFAULT])


def problems_of(change, name=DEFAULT):
    profile = default()
    change(profile)
    return check(profile, name)


def says(problems, *words):
    """One problem line containing all the words."""
    return any(all(word in line for word in words) for line in problems)


def test_the_unbroken_default_has_no_problems():
    assert check(default(), DEFAULT) == []


def test_a_gpio_used_twice():
    def change(p):
        p["keypad"]["rows"][0] = p["display"]["i2c"]["scl"]
    found = problems_of(change)
    assert says(found, "GPIO 22 is used twice", "display.i2c.scl", "keypad.rows[0]")


def test_rows_and_columns_sharing_a_pin():
    def change(p):
        p["keypad"]["cols"][2] = p["keypad"]["rows"][1]
    assert says(problems_of(change), "used twice", "keypad.rows[1]", "keypad.cols[2]")


def test_encoder_pins_not_distinct():
    def change(p):
        p["encoder"]["b"] = p["encoder"]["a"]
    assert says(problems_of(change), "GPIO 34 is used twice", "encoder.a", "encoder.b")


@pytest.mark.parametrize("gpio", [6, 7, 8, 9, 10, 11])
def test_flash_pins_are_refused(gpio):
    def change(p):
        p["encoder"]["button"] = gpio
        p["power"]["wake_pin"] = 32
    assert says(problems_of(change), "encoder.button", "flash")


def test_the_usb_serial_pins_are_refused():
    def change(p):
        p["keypad"]["rows"][1] = 1
        p["keypad"]["cols"][1] = 3
    found = problems_of(change)
    assert says(found, "keypad.rows[1]", "USB serial") and says(found, "keypad.cols[1]", "USB serial")


@pytest.mark.parametrize("gpio", [34, 35, 36, 39])
def test_outputs_on_input_only_pins(gpio):
    def change(p):
        p["encoder"]["a"], p["encoder"]["b"] = 37, 38  # free 34/35 so the only fault is the output
        p["display"]["i2c"]["sda"] = gpio
    assert says(problems_of(change), "display.i2c.sda", "input-only")


def test_a_keypad_row_on_an_input_only_pin():
    def change(p):
        p["keypad"]["rows"][3] = 36
    assert says(problems_of(change), "keypad.rows[3]", "input-only")


def test_a_keypad_column_needs_an_internal_pull_up():
    def change(p):
        p["keypad"]["cols"][0] = 39
    assert says(problems_of(change), "keypad.cols[0]", "no internal pull-up")


def test_encoder_on_input_only_pins_only_with_the_modules_pull_ups():
    def change(p):
        p["encoder"]["pull_up"] = True
    found = problems_of(change)
    assert says(found, "encoder.a", "no internal pull-up") and says(found, "encoder.b", "no internal pull-up")

    def button(p):
        p["encoder"]["button"] = 36
        p["power"]["wake_pin"] = 36
    assert says(problems_of(button), "encoder.button", "no internal pull-up")

    def module_pulls_the_button(p):
        button(p)
        p["encoder"]["button_pull_up"] = False
    assert problems_of(module_pulls_the_button) == []


@pytest.mark.parametrize("gpio", [0, 2, 5, 12, 15])
def test_strapping_pins_only_with_a_reason(gpio):
    def change(p):
        p["encoder"]["button"] = gpio
        p["power"]["wake_pin"] = gpio if gpio != 5 else 32  # GPIO 5 cannot wake the ESP32
    assert says(problems_of(change), "encoder.button", "GPIO %d is a strapping pin" % gpio, "accepted_pins")

    def accepted(p):
        change(p)
        p["accepted_pins"] = {str(gpio): "the button is never held while the board resets"}
    assert problems_of(accepted) == []

    def no_reason(p):
        change(p)
        p["accepted_pins"] = {str(gpio): ""}
    found = problems_of(no_reason)
    assert says(found, "encoder.button", "strapping") and says(found, "accepted_pins", "needs a reason")


@pytest.mark.parametrize("gpio", [16, 17])
def test_psram_pins_only_with_a_reason(gpio):
    def change(p):
        p["keypad"]["rows"][0] = gpio
    assert says(problems_of(change), "keypad.rows[0]", "PSRAM")

    def accepted(p):
        change(p)
        p["accepted_pins"] = {str(gpio): "this board's module has no PSRAM"}
    assert problems_of(accepted) == []


def test_accepting_pins_that_need_no_acceptance_or_are_unused():
    def change(p):
        p["accepted_pins"] = {"13": "a row, nothing special about it", "0": "not used on this board at all"}
    found = problems_of(change)
    assert says(found, "accepted_pins", "'13' is not a pin that needs accepting")
    assert says(found, "accepted_pins", "GPIO 0 is accepted but the profile does not use it")


@pytest.mark.parametrize("value", [20, 24, 28, 40, -2, "22", 22.0, True])
def test_values_that_are_no_esp32_gpio(value):
    def change(p):
        p["display"]["i2c"]["scl"] = value
    assert says(problems_of(change), "display.i2c.scl", "not a GPIO of the ESP32")


def test_keys_must_cover_every_key_once():
    def doubled(p):
        p["keypad"]["keys"][3] = "*0#1"
    found = problems_of(doubled)
    assert says(found, "keypad.keys", "1 on more than one key") and says(found, "keypad.keys", "no key for D")

    def foreign(p):
        p["keypad"]["keys"][3] = "*0#E"
    found = problems_of(foreign)
    assert says(found, "'E' not Tafel keys") and says(found, "no key for D")

    def short(p):
        p["keypad"]["keys"] = ["123A", "456B", "789C"]
    assert says(problems_of(short), "keypad.keys", "4 strings of 4 keys")


def test_a_keypad_needs_4_rows_and_4_columns():
    def change(p):
        p["keypad"]["rows"] = [27, 14, 13]
        p["keypad"]["cols"] = "32, 33, 25, 26"
    found = problems_of(change)
    assert says(found, "keypad.rows", "list of 4") and says(found, "keypad.cols", "list of 4")


def test_i2c_fields():
    def change(p):
        del p["display"]["i2c"]["sda"]
        del p["display"]["address"]
        p["display"]["i2c"]["id"] = 2
        p["display"]["i2c"]["freq"] = 4000000
    found = problems_of(change)
    assert says(found, "display.i2c.sda", "missing")
    assert says(found, "display.address")
    assert says(found, "display.i2c.id", "0 or 1")
    assert says(found, "display.i2c.freq", "1 MHz")


def spi_display(p):
    # The SSD1306 also comes on SPI; the ST7789 board is checked the same way.
    p["display"] = {"driver": "ssd1306", "bus": "spi", "width": 128, "height": 64,
                    "spi": {"id": 2, "sck": 18, "mosi": 19, "miso": None, "baudrate": 10000000},
                    "cs": 5, "dc": 16, "rst": 17,
                    }
    p["accepted_pins"] = {"5": "CS idles high, as the strap wants", "16": "module without PSRAM",
                          "17": "module without PSRAM"}


def test_an_spi_display_is_checked_like_any_other():
    assert problems_of(spi_display) == []

    def broken(p):
        spi_display(p)
        del p["display"]["spi"]["mosi"]
        del p["display"]["dc"]
        p["display"]["spi"]["id"] = 0
        p["display"]["rst"] = 36
        p["display"]["cs"] = 27  # a keypad row
    found = problems_of(broken)
    assert says(found, "display.spi.mosi", "missing")
    assert says(found, "display.dc", "missing")
    assert says(found, "display.spi.id", "1 (HSPI) or 2 (VSPI)")
    assert says(found, "display.rst", "input-only")
    assert says(found, "GPIO 27 is used twice", "display.cs", "keypad.rows[0]")
    assert says(found, "accepted_pins", "GPIO 5 is accepted but the profile does not use it")

    def miso_on_input_only(p):
        spi_display(p)
        p["display"]["spi"]["miso"] = 36
    assert problems_of(miso_on_input_only) == []


def test_display_driver_and_bus():
    def change(p):
        p["display"]["driver"] = "hd44780"
        p["display"]["bus"] = "parallel"
        p["display"]["width"] = 0
    found = problems_of(change)
    assert says(found, "display.driver", "firmware/drivers/hd44780.py")
    assert says(found, "display.bus", "'i2c' or 'spi'")
    assert says(found, "display.width", "positive")


def test_top_level_fields():
    def change(p):
        p["mcu"] = "esp32s3"
        p["title"] = " "
        del p["keypad"]
    found = check(default(), "another-name") + problems_of(change)
    assert says(found, "name", "another-name")
    assert says(found, "mcu", "esp32s3")
    assert says(found, "title", "missing")
    assert says(found, "keypad: missing")


def test_the_python_heap_and_deployment():
    def change(p):
        p["python"] = {"deployment": "romfs", "heap": 1024, "system_heap": "56K"}
    found = problems_of(change)
    assert says(found, "python.deployment", "'romfs'")
    assert says(found, "python.heap", "at least 16384")
    assert says(found, "python.system_heap", "'56K'")
    assert says(problems_of(lambda p: p.pop("python")), "python: missing")


def test_power_rules():
    def change(p):
        p["power"].update(supply="battery", battery=None, logic_mv=5000, battery_adc=19, wake_pin=23)
    found = problems_of(change)
    assert says(found, "power.battery", "which cell")
    assert says(found, "power.logic_mv", "3300")
    assert says(found, "power.battery_adc", "ADC1")
    assert says(found, "power.wake_pin", "GPIO 23 is not RTC-capable")
    assert says(found, "power.wake_pin", "not a key input")

    def wake_by_a_column(p):
        p["power"]["wake_pin"] = 33
    assert problems_of(wake_by_a_column) == []

    def adc_on_a_used_pin(p):
        p["power"]["battery_adc"] = 35
    assert says(problems_of(adc_on_a_used_pin), "GPIO 35 is used twice", "encoder.b", "power.battery_adc")

    def battery_option(p):
        p["power"]["battery_adc"] = 36
        p["power"]["battery_adc_enable"] = 34
    assert says(problems_of(battery_option), "power.battery_adc_enable", "input-only")


def test_a_board_without_an_encoder():
    def change(p):
        del p["encoder"]
        p["power"]["wake_pin"] = 32
    assert problems_of(change) == []
    assert all(use.part != "encoder" for use in pin_uses({"keypad": default()["keypad"]}))


def _leaves(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaves(value, path + (i,))
    yield path


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_the_checker_reports_instead_of_crashing_on_any_wrong_value(name):
    original = PROFILES[name]
    for path in _leaves(original):
        for wrong in (None, -1, "x", 3.5, [], {}, True, 99, [1, 2, 3, 4]):
            profile = copy.deepcopy(original)
            node = profile
            for key in path[:-1]:
                node = node[key]
            if path:
                node[path[-1]] = wrong
            else:
                profile = wrong
            problems = check(profile, name)
            assert isinstance(problems, list) and all(isinstance(line, str) for line in problems), path


# Fields a profile may set to null: a pin not connected, an encoder without debouncing of its own,
# a heap that does not grow.
MAY_BE_NULL = {("display", "backlight"), ("display", "rst"), ("display", "cs"), ("display", "spi", "miso"),
               ("encoder", "button"), ("encoder", "debounce_ms"), ("power", "battery_adc"),
               ("power", "battery_adc_enable"), ("power", "wake_pin"), ("python", "system_heap")}


def _kind(value):
    return "bool" if isinstance(value, bool) else "number" if isinstance(value, (int, float)) else type(value).__name__


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_a_value_of_the_wrong_kind_is_reported_in_every_field(name):
    # Every leaf of a shipped profile, set to a value of another kind (text for a number, a number
    # for a flag, a list, an object, null), is a problem naming that field.
    original = PROFILES[name]
    silent = []
    for path in _leaves(original):
        node = original
        for key in path:
            node = node[key]
        if not path or isinstance(node, (dict, list)):
            continue
        for wrong in (None, "x", 3.5, [], {}, True, [1, 2, 3, 4]):
            if _kind(wrong) == _kind(node) or (wrong is None and path in MAY_BE_NULL):
                continue
            profile = copy.deepcopy(original)
            parent = profile
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = wrong
            field = ".".join(str(k) if not isinstance(k, int) else "[%d]" % k for k in path).replace(".[", "[")
            said = check(profile, name)
            if path[0] == "accepted_pins":  # said of the pin: "accepted_pins: GPIO 5 needs a reason"
                field = "accepted_pins: GPIO %s" % path[1]
            if not any(field in line or field.split("[")[0] in line for line in said):
                silent.append((field, wrong))
    assert silent == []


def test_tafel_hardware_check_prints_each_board(capsys):
    status = main(["hardware", "check"])
    out = capsys.readouterr().out
    for name in PROFILES:
        assert name + ": ok" in out
    assert status == 0


def test_tafel_hardware_check_names_a_broken_board_and_fails(capsys, monkeypatch):
    from tafel_host.hardware import cli as hardware

    broken = copy.deepcopy(PROFILES)
    name = sorted(broken)[0]
    broken[name]["keypad"]["rows"][1] = broken[name]["keypad"]["rows"][0]  # one GPIO on two rows
    monkeypatch.setattr(hardware, "load_profiles", lambda: broken)
    status = main(["hardware", "check"])
    out = capsys.readouterr().out
    assert status == 1
    assert "%s: 1 problem(s)" % name in out or "%s: 2 problem(s)" % name in out, out
    assert "keypad.rows" in out, out
    for other in sorted(broken)[1:]:
        assert other + ": ok" in out
