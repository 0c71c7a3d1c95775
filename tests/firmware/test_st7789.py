# ST7789 colour board: its profile and build, the band driver against the emulated chip on the simulated SPI bus, the chip's own rules.
import framebuf
import micropython
import pytest
from simboard.st7789 import ChipError, ST7789Chip

import board
import tdisplay
from drivers.st7789 import ST7789_SPI
from sim import simmachine
from sim.simmachine import SimError
from ui.canvas import _CHARS, Canvas, _glyph

PALETTE = tdisplay.profile()["display"]["palette"]
FG, BG, ACCENT = PALETTE["fg"], PALETTE["bg"], PALETTE["accent"]


def _region(chip, xs, ys):
    return set(chip.pixel(x, y) for x in xs for y in ys)


# ---- profile and build -----------------------------------------------------------------


def test_the_colour_profile_loads_and_is_complete():
    p = tdisplay.profile()
    assert p["name"] == "lilygo-tdisplay-st7789" and p["mcu"] == "esp32" and p["title"]
    d = p["display"]
    assert (d["driver"], d["bus"], d["width"], d["height"]) == ("st7789", "spi", 240, 135)
    assert d["spi"] == {"id": 2, "sck": 18, "mosi": 19, "miso": None, "baudrate": 40000000}
    assert (d["cs"], d["dc"], d["rst"], d["backlight"]) == (5, 16, 23, 4)
    assert (d["rotation"], d["x_offset"], d["y_offset"]) == (1, 40, 53)
    assert set(d["palette"]) == {"fg", "bg", "accent"} and all(0 <= v <= 0xFFFF for v in d["palette"].values())
    k, e, power = p["keypad"], p["encoder"], p["power"]
    assert "".join(k["keys"]) == "123A456B789C*0#D"
    pins = ([d["spi"]["sck"], d["spi"]["mosi"], d["cs"], d["dc"], d["rst"], d["backlight"]] + k["rows"] + k["cols"]
            + [e["a"], e["b"], e["button"], power["battery_adc"], power["battery_adc_enable"]])
    assert len(set(pins)) == len(pins)
    for n in k["rows"] + k["cols"] + [e["button"]]:
        assert n not in (0, 2, 12, 15) and n < 34, n  # no strapping pin; outputs and pull-ups below 34
    assert power["battery_adc"] == 34 and power["wake_pin"] == e["button"]


def test_build_wires_the_st7789_and_the_inputs():
    hw, b = tdisplay.make()
    d, chip = b.display, hw.display
    assert isinstance(d, ST7789_SPI) and (d.width, d.height) == (128, 64)
    assert (d.panel_width, d.panel_height) == (240, 135)
    assert d.spi.baudrate == 40000000 and d.spi.pins == (18, 19, None)
    assert all(hw.mode[n] == hw.Pin.OUT for n in (5, 16, 23))
    assert hw.out[5] == 1  # CS released between writes
    assert hw.duty.get(4) == 65535  # backlight full on
    assert chip.lit and not chip.asleep and chip.display_on and chip.inv_on and chip.colmod == 0x55
    assert chip.madctl == 0x60 and hw.faults == []
    assert b.keypad is not None and b.encoder is not None
    hw.matrix.press("7")
    assert [k for k in (b.keypad.scan(t) for t in range(0, 100, 10)) if k] == ["7"]
    hw.knob.turn(1)
    assert b.encoder.poll(0) == "CW"


def test_an_spi_bus_must_say_it_has_no_miso():
    hw = simmachine.from_profile(tdisplay.profile())
    with pytest.raises(SimError):
        hw.SPI(2, baudrate=1000000, sck=hw.Pin(18), mosi=hw.Pin(19))  # the ESP32 would take GPIO 19 as MISO
    assert hw.SPI(2, baudrate=1000000, sck=hw.Pin(18), mosi=hw.Pin(19), miso=None).pins == (18, 19, None)


def test_start_up_clears_the_whole_glass():
    assert len(tdisplay.colours(ST7789Chip().ram)) > 100  # noise in the RAM at power-up
    hw, b = tdisplay.make()
    assert tdisplay.colours(hw.display.ram) == {BG}  # every cell behind the glass cleared
    assert tdisplay.colours(hw.display.glass()) == {BG}


def test_rotation_one_needs_53_not_52():
    p = tdisplay.profile()
    p["display"]["y_offset"] = 52  # the offset of rotation 3
    hw, b = tdisplay.make(p, chip_prof=tdisplay.profile())
    glass = hw.display.glass()
    assert tdisplay.colours(glass) != {BG}  # a line of power-up noise is left on the glass
    edge = set(hw.display.pixel(x, 134) for x in range(240))
    assert edge != {BG}  # along the long edge at the bottom


def test_the_picture_turned_the_other_way_shows_upside_down():
    p = tdisplay.profile()
    p["display"].update(rotation=3, y_offset=52)  # a driver set up for the board held the other way round
    hw, b = tdisplay.make(p, chip_prof=tdisplay.profile())
    d = b.display
    d.fill_rect(1, 2, 7, 6, 1)  # in the top left cell: panel x 1..14, y 7..18 when held right
    d.show()
    chip = hw.display
    assert _region(chip, range(1, 15), range(7, 19)) == {BG}
    assert _region(chip, range(225, 239), range(116, 128)) == {FG}  # it lands bottom right, turned over


# ---- what the glass shows ----------------------------------------------------------------


def test_text_appears_scaled_in_place_and_in_colour():
    hw, b = tdisplay.make()
    d, chip = b.display, hw.display
    canvas = Canvas(d)
    canvas.text(1, 1, "Anna")
    canvas.right(7, "+89")
    canvas.flush()
    assert chip.glass() == tdisplay.expected(d.buffer, PALETTE)
    # "A" in cell 1 of text row 1: logical x 8..15, y 8..15 -> panel x 15..29, y 19..34.
    for y in range(8, 16):
        for x in range(8, 16):
            want = FG if d.pixel(x, y) else BG
            for xx in tdisplay.columns(x):
                assert chip.pixel(xx, 3 + 2 * y) == want and chip.pixel(xx, 4 + 2 * y) == want, (x, y)
    assert _region(chip, range(15, 30), range(19, 35)) == {FG, BG}
    assert _region(chip, range(0, 15), range(0, 135)) == {BG}  # the empty first column of cells
    assert _region(chip, range(0, 240), range(131, 135)) == {BG}  # the margin below the picture


def test_bars_and_inverted_cells_use_the_accent():
    hw, b = tdisplay.make()
    d, chip = b.display, hw.display
    canvas = Canvas(d)
    canvas.bar(0, "Stand R1")
    canvas.text(3, 0, "Cleo", True)  # an inverted run of four cells, as the cursor draws it
    canvas.text(3, 6, "50+3")
    canvas.text(5, 1, "Äöü", True)
    canvas.flush()
    assert chip.glass() == tdisplay.expected(d.buffer, PALETTE)
    assert _region(chip, range(0, 240), range(3, 19)) == {ACCENT, BG}  # the bar: text in bg on the accent
    assert chip.pixel(239, 3) == ACCENT
    assert _region(chip, range(0, 60), range(51, 67)) == {ACCENT, BG}  # "Cleo"
    assert _region(chip, range(90, 150), range(51, 67)) == {FG, BG}  # "50+3" is plain text
    assert chip.pixel(60, 51) == BG


def test_no_glyph_lights_the_inverted_mark_and_column_0_is_the_spacing_column():
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    use = [0] * 8
    for ch in [chr(c) for c in range(32, 127)] + list(_CHARS):
        fb.fill(0)
        if ord(ch) < 128:
            fb.text(ch, 0, 0, 1)
        else:
            fb.blit(_glyph(ch), 0, 0, 0)
        col = bytes(fb)
        assert col[0] & 3 == 0, ch  # rows 0-1 of column 0: the driver's mark of an inverted cell
        for i in range(8):
            use[i] += 1 if col[i] else 0
    assert use[0] == min(use) and use[0] < use[7]  # so column 0 is the one drawn 1 pixel wide


def test_partial_updates_send_only_their_pages():
    hw, b = tdisplay.make()
    d, chip, bus = b.display, hw.display, b.display.spi
    before = chip.glass()
    d.fill(1)
    bytes0, pixels0 = bus.bytes_written, chip.pixels
    ram0 = dict(chip.op_counts)
    d.show_pages(0b00100100)  # pages 2 and 5
    page_bytes = 240 * 16 * 2
    window = 5 + 5 + 1  # CASET + 4, RASET + 4, RAMWR
    assert bus.bytes_written - bytes0 == 2 * (window + page_bytes)
    assert chip.pixels - pixels0 == 2 * 240 * 16
    assert chip.op_counts[0x2C] - ram0[0x2C] == 2
    glass = chip.glass()
    for y in range(135):
        row = glass[y * 480:(y + 1) * 480]
        inside = 3 + 32 <= y < 3 + 48 or 3 + 80 <= y < 3 + 96
        assert (row == bytes((ACCENT >> 8, ACCENT & 0xFF)) * 240) if inside else row == before[y * 480:(y + 1) * 480], y
    bytes0 = bus.bytes_written
    d.show_pages(0b01110000)  # pages 4-6: one window
    assert bus.bytes_written - bytes0 == window + 3 * page_bytes
    bytes0 = bus.bytes_written
    d.show_pages(0)
    assert bus.bytes_written == bytes0


def test_show_and_settings_allocate_nothing():
    spi, pwm = tdisplay.NullSPI(), tdisplay.NullPWM()
    pin = tdisplay.NullPin()
    d = ST7789_SPI(240, 135, spi, pin, pin, pin, rotation=1, x_offset=40, y_offset=53, palette=PALETTE,
                   backlight=pwm, sleep_ms=tdisplay.no_sleep)
    canvas = Canvas(d)
    canvas.bar(0, "Stand R1")
    canvas.text(2, 0, "Cleo", True)  # a partly inverted page: the per-cell path
    canvas.text(4, 0, "Anna    89 Ak 20")
    micropython.heap_lock()
    try:
        d.show()
        d.show_pages(0b10100101)
        d.show_pages(0b00000100)
        d.contrast(64)
        d.invert(True)
        d.invert(False)
        d.poweroff()
        d.poweron()
    finally:
        micropython.heap_unlock()
    assert pwm.duty == 64 * 257 and spi.bytes > 0


def test_poweroff_blanks_the_glass_and_poweron_brings_it_back():
    hw, b = tdisplay.make()
    d, chip = b.display, hw.display
    d.text("Tafel", 0, 0, 1)
    d.show()
    shown = chip.glass()
    d.poweroff()
    assert chip.asleep and chip.backlight == 0 and not chip.lit
    assert tdisplay.colours(chip.glass()) == {0}
    d.poweron()
    assert chip.lit and chip.glass() == shown  # the controller kept its RAM while asleep


def test_contrast_is_the_backlight():
    hw, b = tdisplay.make()
    d, chip = b.display, hw.display
    d.contrast(64)
    assert hw.duty.get(4) == 64 * 257 and 0.24 < chip.backlight < 0.26
    d.poweroff()
    d.contrast(255)  # while asleep: remembered, the backlight stays off
    assert chip.backlight == 0
    d.poweron()
    assert chip.backlight == 1.0


def test_without_pwm_the_backlight_is_on_or_off():
    hw = simmachine.from_profile(tdisplay.profile())
    del hw.PWM
    b = board.build(tdisplay.profile(), hw)
    d, chip = b.display, hw.display
    assert hw.duty.get(4) is None and chip.backlight == 1
    d.contrast(16)
    assert chip.backlight == 1
    d.contrast(0)
    assert chip.backlight == 0 and not chip.lit


def test_invert_turns_the_colours_over():
    hw, b = tdisplay.make()
    d, chip = b.display, hw.display
    d.invert(True)
    assert not chip.inv_on and chip.pixel(0, 0) == BG ^ 0xFFFF
    d.invert(False)
    assert chip.inv_on and chip.pixel(0, 0) == BG


def test_a_palette_from_the_profile():
    p = tdisplay.profile()
    p["display"]["palette"] = {"fg": 0x07E0, "bg": 0x0000, "accent": 0xF800}
    hw, b = tdisplay.make(p)
    canvas = Canvas(b.display)
    canvas.bar(0, "x")
    canvas.text(1, 0, "y")
    canvas.flush()
    assert tdisplay.colours(hw.display.glass()) == {0x07E0, 0x0000, 0xF800}


def test_a_panel_too_small_for_the_ui_is_refused():
    with pytest.raises(ValueError):
        ST7789_SPI(160, 80, tdisplay.NullSPI(), tdisplay.NullPin(), sleep_ms=tdisplay.no_sleep)


# ---- the emulated chip's own rules ----------------------------------------------------------


def _awake_chip():
    t = [0]
    chip = ST7789Chip(240, 135, 1, clock=lambda: t[0])
    t[0] = 200
    chip.spi_write(b"\x11", 0)  # SLPOUT
    t[0] = 210
    chip.spi_write(b"\x3a", 0)
    chip.spi_write(b"\x55", 1)
    return chip, t


def test_chip_refuses_what_a_real_one_would_not_take():
    t = [0]
    chip = ST7789Chip(clock=lambda: t[0])
    with pytest.raises(ChipError):
        chip.spi_write(b"\x00", 0)  # within 5 ms of power-up
    t[0] = 10
    with pytest.raises(ChipError):
        chip.spi_write(b"\x11", 0)  # SLPOUT before 120 ms
    chip, t = _awake_chip()
    with pytest.raises(ChipError):
        chip.spi_write(b"\xfe", 0)  # no such command
    with pytest.raises(ChipError):
        chip.spi_write(b"\x00\x00", 1)  # parameters to NOP
    chip.spi_write(b"\x10", 0)  # SLPIN
    with pytest.raises(ChipError):
        chip.spi_write(b"\x29", 0)  # within 5 ms of a sleep change
    chip, t = _awake_chip()
    chip.spi_write(b"\x3a", 0)
    chip.spi_write(b"\x66", 1)
    with pytest.raises(ChipError):
        chip.spi_write(b"\x2c", 0)  # 18-bit pixels: not emulated
    chip, t = _awake_chip()
    chip.spi_write(b"\x2a", 0)
    chip.spi_write(b"\x00\x00\x01\x40", 1)  # columns 0..320 without MV
    with pytest.raises(ChipError):
        chip.spi_write(b"\x2c", 0)
    ST7789Chip(strict=False).spi_write(b"\xfe", 0)


def test_chip_window_wraps_and_continues_across_writes():
    chip, t = _awake_chip()
    chip.spi_write(b"\x36", 0)
    chip.spi_write(b"\x00", 1)  # plain portrait addressing
    chip.spi_write(b"\x2a", 0)
    chip.spi_write(b"\x00\x3c\x00\x3d", 1)  # columns 60-61
    chip.spi_write(b"\x2b", 0)
    chip.spi_write(b"\x00\x2d\x00\x2e", 1)  # rows 45-46
    chip.spi_write(b"\x2c", 0)
    chip.spi_write(b"\x11\x11\x22", 1)  # a pixel split across two writes
    chip.spi_write(b"\x22\x33\x33\x44\x44\x55\x55", 1)  # the fifth pixel wraps to the window's start
    ram = chip.ram

    def at(c, r):  # the RAM behind the glass: the panel's 135 x 240 from RAM column 52, row 40
        i = ((r - 40) * 135 + c - 52) * 2
        return ram[i] << 8 | ram[i + 1]

    assert (at(60, 45), at(61, 45), at(60, 46), at(61, 46)) == (0x5555, 0x2222, 0x3333, 0x4444)
    assert chip.pixels == 5
    assert chip.pixel(60 - 52, 45 - 40) == 0  # asleep and dark: the glass shows nothing yet


def test_chip_reset_line_and_chip_select():
    hw, b = tdisplay.make()
    chip = hw.display
    writes = chip.writes
    hw.Pin(5)(1)  # CS high: nobody listens
    b.display.spi.write(b"\x00")
    assert chip.writes == writes
    hw.Pin(23)(0)  # RST low: held in reset, dark
    assert chip.in_reset and not chip.lit
    hw.Pin(23)(1)  # out of reset: asleep, display off, RAM noisy again
    assert chip.asleep and not chip.display_on and len(tdisplay.colours(bytes(chip.ram[:4000]))) > 50


def test_the_simulators_picture_is_the_glass_in_one_kept_buffer():
    # A 65 KB glass: the simulator reads picture(), one buffer rendered again in place.
    hw, b = tdisplay.make()
    chip, d = hw.display, b.display
    d.fill(0)
    d.text("Anna", 0, 0, 1)
    d.show()
    first = chip.picture()
    assert first == chip.glass()
    seen = chip.fingerprint()
    d.text("Ben", 0, 8, 1)
    d.show()
    assert chip.picture() is first and first == chip.glass() and chip.fingerprint() != seen
