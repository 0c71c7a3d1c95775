# Board profile and board.build() on the simulated machine; the simulated machine's own wiring checks.
import pytest

import board
import halsim
from drivers.encoder import Encoder
from drivers.keypad import Keypad
from drivers.ssd1306 import SSD1306_I2C
from sim import simmachine
from sim.simmachine import SimError


def test_the_default_profile_loads_and_is_complete():
    p = halsim.profile()
    assert p["name"] == "esp32-devkitc-ssd1306" and p["mcu"] == "esp32" and p["title"]
    d = p["display"]
    assert (d["driver"], d["bus"], d["width"], d["height"], d["address"]) == ("ssd1306", "i2c", 128, 64, 0x3C)
    assert set(d["i2c"]) >= {"id", "scl", "sda", "freq"}
    k = p["keypad"]
    assert len(k["rows"]) == 4 and len(k["cols"]) == 4
    assert "".join(k["keys"]) == "123A456B789C*0#D"
    e = p["encoder"]
    assert set(e) >= {"a", "b", "button", "steps_per_detent"}
    assert "power" in p


def test_no_pin_is_used_twice_and_none_is_off_limits():
    p = halsim.profile()
    d, k, e = p["display"], p["keypad"], p["encoder"]
    pins = [d["i2c"]["scl"], d["i2c"]["sda"]] + k["rows"] + k["cols"] + [e["a"], e["b"], e["button"]]
    assert len(set(pins)) == len(pins)
    for n in pins:
        assert n not in (0, 1, 2, 3, 5, 12, 15) and not 6 <= n <= 11, n  # strapping, serial, flash
    for n in k["rows"] + k["cols"] + [e["button"]]:
        assert n < 34, n  # outputs and internal pull-ups: not the input-only pins


def test_build_wires_every_part():
    hw, b = halsim.make()
    assert isinstance(b.display, SSD1306_I2C) and isinstance(b.keypad, Keypad)
    assert isinstance(b.encoder, Encoder)
    assert b.profile["name"] == b.name == "esp32-devkitc-ssd1306"
    assert b.keypad is not None and b.encoder is not None
    assert (b.display.width, b.display.height, b.display.addr) == (128, 64, 0x3C)
    assert b.display.i2c.freq == 400000 and b.display.i2c.scan() == [0x3C]
    assert hw.display.lit and hw.faults == []
    # the pins are configured as the drivers need them
    rows, cols = b.profile["keypad"]["rows"], b.profile["keypad"]["cols"]
    assert all(hw.mode[n] == hw.Pin.OPEN_DRAIN and hw.out[n] == 1 for n in rows)
    assert all(hw.mode[n] == hw.Pin.IN and hw.pull[n] == hw.Pin.PULL_UP for n in cols)
    assert hw.pull[4] == hw.Pin.PULL_UP and hw.pull[34] == 0  # no internal pull-up on 34
    assert sorted(hw.handlers) == [34, 35]


def test_a_built_board_works_end_to_end():
    hw, b = halsim.make()
    hw.matrix.press("A")
    keys = [b.keypad.scan(t) for t in range(0, 100, 10)]
    assert [k for k in keys if k] == ["A"]
    hw.knob.turn(-1)
    assert b.encoder.poll(0) == "CCW"
    b.display.text("ok", 0, 0, 1)
    b.display.show()
    assert hw.display.glass() == b.display.buffer


def test_a_board_without_an_encoder():
    p = halsim.profile()
    del p["encoder"]
    hw, b = halsim.make(p)
    assert b.encoder is None and b.keypad is not None and hw.knob is None


def test_an_unknown_display_is_refused():
    p = halsim.profile()
    p["display"]["driver"] = "ili9341"  # no driver for it
    with pytest.raises(ValueError):
        board.build(p, simmachine.Machine())


def test_sim_pins_are_pinbase_pins_with_the_usual_methods():
    import machine

    hw = simmachine.Machine()
    p = hw.Pin(13, hw.Pin.OUT, value=1)
    assert isinstance(p, machine.PinBase)
    assert p() == 1 and p.value() == 1
    p.off()
    assert p.value() == 0
    assert machine.Signal(p, invert=True).value() == 1
    q = hw.Pin(13)  # a second object for the same GPIO sees the same level
    assert q.value() == 0


def test_sim_interrupts_fire_on_the_chosen_edges():
    hw = simmachine.Machine()
    out = hw.Pin(18, hw.Pin.OUT, value=0)
    seen = []
    out.irq(lambda pin: seen.append(pin.value()), hw.Pin.IRQ_RISING)
    out.value(1)
    out.value(0)
    out.value(0)
    out.value(1)
    assert seen == [1, 1]


def test_sim_catches_wiring_mistakes():
    hw = simmachine.Machine()
    with pytest.raises(SimError):
        hw.Pin(34, hw.Pin.IN, hw.Pin.PULL_UP)  # no internal pull-ups on 34-39
    with pytest.raises(SimError):
        hw.Pin(35, hw.Pin.OUT)  # input-only
    with pytest.raises(SimError):
        hw.Pin(7)  # the module's flash
    with pytest.raises(ValueError):
        hw.Pin(20)  # not on the ESP32
    with pytest.raises(SimError):
        hw.Pin(26, hw.Pin.IN).value()  # floating


def test_sim_catches_a_button_left_without_its_pull_up():
    p = halsim.profile()
    p["encoder"]["button_pull_up"] = False  # most KY-040s leave that resistor out
    with pytest.raises(SimError):
        halsim.make(p)[1].encoder.poll(0)


def test_sim_push_pull_rows_short_with_two_keys_in_a_column():
    # Why the keypad's rows are open-drain: push-pull rows fight through the keys.
    hw, b = halsim.make()
    rows = b.profile["keypad"]["rows"]
    for n in rows:
        hw.Pin(n, hw.Pin.OUT, value=1)
    hw.matrix.press("1")
    hw.matrix.press("4")
    with pytest.raises(SimError):
        b.keypad.read()
