# The 320x240 board: its profile and build, the ILI9341 driver against the emulated chip, the chip's own rules.
import micropython
import pytest
from simboard.ili9341 import ChipError, ILI9341Chip

import bigboard
import tdisplay
from drivers import ili9341
from drivers.ili9341 import ILI9341_SPI
from ui.canvas import Canvas

PALETTE = bigboard.profile()["display"]["palette"]
FG, BG, ACCENT = PALETTE["fg"], PALETTE["bg"], PALETTE["accent"]


def _region(chip, xs, ys):
    return set(chip.pixel(x, y) for x in xs for y in ys)


class Bus:
    """An SPI bus and DC line that record what goes over them: (dc, bytes) per write."""

    def __init__(self):
        self.log = []
        self.level = 0

    def dc(self, v=None):
        if v is not None:
            self.level = v
        return self.level

    def write(self, buf):
        self.log.append((self.level, bytes(buf)))

    def commands(self):
        return [data[0] for dc, data in self.log if dc == 0]

    def params(self, op):
        """The parameters sent after the first `op`."""
        for i in range(len(self.log)):
            if self.log[i] == (0, bytes((op,))):
                return self.log[i + 1][1]


def _recorded(**options):
    bus = Bus()
    d = ILI9341_SPI(320, 240, bus, bus.dc, None, tdisplay.NullPin(), sleep_ms=tdisplay.no_sleep, **options)
    return d, bus


# ---- profile and build -----------------------------------------------------------------


def test_the_profile_is_a_devkitc_with_a_2_8_inch_ili9341():
    p = bigboard.profile()
    assert p["name"] == "esp32-devkitc-ili9341" and p["mcu"] == "esp32" and p["python"]["deployment"] == "frozen"
    d = p["display"]
    assert (d["driver"], d["bus"], d["width"], d["height"], d["rotation"]) == ("ili9341", "spi", 320, 240, 1)
    assert d["spi"] == {"id": 2, "sck": 18, "mosi": 19, "miso": None, "baudrate": 40000000}
    assert (d["cs"], d["dc"], d["rst"], d["backlight"]) == (5, 21, 22, 17)
    assert (d["pixel_scale"], d["text_scale"], d["bgr"], d["invert_colours"]) == (2, 1, True, False)
    k, e = p["keypad"], p["encoder"]
    pins = [d["spi"]["sck"], d["spi"]["mosi"], d["cs"], d["dc"], d["rst"], d["backlight"]] + k["rows"] + k["cols"]
    pins += [e["a"], e["b"], e["button"]]
    assert len(set(pins)) == len(pins)
    assert p["power"]["wake_pin"] == e["button"]


def test_build_wires_the_ili9341_and_the_inputs():
    hw, b = bigboard.make()
    d, chip = b.display, hw.display
    assert isinstance(d, ILI9341_SPI) and (d.width, d.height, d.text_scale) == (160, 120, 1)
    assert (d.panel_width, d.panel_height) == (320, 240)
    assert d.spi.baudrate == 40000000 and d.spi.pins == (18, 19, None)
    assert all(hw.mode[n] == hw.Pin.OUT for n in (5, 21, 22))
    assert hw.out[5] == 1  # CS released between writes
    assert hw.duty.get(17) == 65535  # backlight full on
    assert chip.lit and not chip.asleep and chip.display_on and not chip.inv_on and chip.colmod == 0x55
    assert chip.madctl == 0x28 and hw.faults == []  # MV and BGR: landscape, true colours
    assert b.keypad is not None and b.encoder is not None
    hw.matrix.press("5")
    assert [k for k in (b.keypad.scan(t) for t in range(0, 100, 10)) if k] == ["5"]


def test_the_picture_costs_a_quarter_of_the_glass_in_one_bit_a_pixel():
    d, bus = _recorded(pixel_scale=2)
    assert len(d.buffer) == 160 * 120 // 8 == 2400 and len(d._stripbuf) == 320 * 2 * 2
    full, bus = _recorded(pixel_scale=1, text_scale=2)
    assert len(full.buffer) == 9600 and (full.width, full.height) == (320, 240)
    with pytest.raises(ValueError):
        _recorded(pixel_scale=3)


# ---- the init sequence -----------------------------------------------------------------


def test_init_sets_the_chip_up_before_it_wakes_and_clears_it_before_the_display_goes_on():
    d, bus = _recorded(pixel_scale=2)
    ops = bus.commands()
    setup = [0xCF, 0xED, 0xE8, 0xCB, 0xF7, 0xEA, 0xC0, 0xC1, 0xC5, 0xC7, 0xB1, 0xF2, 0x26, 0xE0, 0xE1]
    assert ops[:len(setup)] == setup
    assert ops[len(setup):len(setup) + 5] == [0x11, 0x3A, 0x36, 0x20, 0x13]  # SLPOUT, COLMOD, MADCTL, INVOFF, NORON
    assert ops[-1] == 0x29 and ops.count(0x29) == 1  # DISPON last, after the clear and the first picture
    assert bus.params(0x3A) == b"\x55" and bus.params(0x36) == b"\x28"
    assert bus.params(0xC5) == b"\x3e\x28" and len(bus.params(0xE0)) == 15
    # The clear: one window over the whole glass, then 240 rows of background.
    assert bus.params(0x2A) == b"\x00\x00\x01\x3f" and bus.params(0x2B) == b"\x00\x00\x00\xef"
    sent = sum(len(data) for dc, data in bus.log[bus.log.index((0, b"\x2c")) + 1:] if dc == 1)
    assert sent >= 2 * 320 * 240 * 2  # the clear and the first picture


def test_without_a_reset_line_the_driver_resets_by_command():
    bus = Bus()
    ILI9341_SPI(320, 240, bus, bus.dc, None, None, sleep_ms=tdisplay.no_sleep)
    assert bus.commands()[0] == 0x01  # SWRESET


def test_the_emulated_chip_takes_the_whole_init_and_records_it():
    hw, b = bigboard.make()
    chip = hw.display
    assert chip.settings[0xC0] == b"\x23" and chip.settings[0xB1] == b"\x00\x18"
    assert chip.op_counts[0xE0] == chip.op_counts[0xE1] == 1
    assert bigboard.colours(chip.glass()) == {BG}  # power-up noise cleared everywhere


# ---- windows and what the glass shows --------------------------------------------------------


def test_a_glyph_arrives_as_the_right_pixels():
    hw, b = bigboard.make()
    d, chip = b.display, hw.display
    canvas = Canvas(d)
    canvas.text(1, 1, "A")
    canvas.flush()
    # "A" in cell 1 of text row 1: picture x 8..15, y 8..15, each pixel a 2 x 2 block of the glass.
    seen = 0
    for y in range(8, 16):
        for x in range(8, 16):
            want = FG if d.pixel(x, y) else BG
            seen += d.pixel(x, y)
            assert _region(chip, (2 * x, 2 * x + 1), (2 * y, 2 * y + 1)) == {want}, (x, y)
    assert seen > 10
    assert chip.glass() == bigboard.expected(d, PALETTE)


def test_show_pages_sends_only_their_pages_and_neighbours_share_a_window():
    hw, b = bigboard.make()
    d, chip, bus = b.display, hw.display, b.display.spi
    before = chip.glass()
    d.fill(1)  # drawn past the canvas: no cell is inverted, all in the text colour
    bytes0, ram0 = bus.bytes_written, chip.op_counts[0x2C]
    d.show_pages(0b100100)  # pages 2 and 5: glass rows 32-47 and 80-95
    page = 320 * 16 * 2
    window = 5 + 5 + 1  # CASET + 4, PASET + 4, RAMWR
    assert bus.bytes_written - bytes0 == 2 * (window + page)
    assert chip.op_counts[0x2C] - ram0 == 2
    glass = chip.glass()
    for y in range(240):
        row = glass[y * 640:(y + 1) * 640]
        inside = 32 <= y < 48 or 80 <= y < 96
        assert row == (bytes((FG >> 8, FG & 0xFF)) * 320 if inside else before[y * 640:(y + 1) * 640]), y
    bytes0 = bus.bytes_written
    d.show_pages(0b1110000)  # pages 4-6: one window
    assert bus.bytes_written - bytes0 == window + 3 * page
    bytes0 = bus.bytes_written
    d.show_pages(0)
    assert bus.bytes_written == bytes0


def test_bars_and_inverted_cells_use_the_accent_as_the_canvas_tells():
    hw, b = bigboard.make()
    d, chip = b.display, hw.display
    canvas = Canvas(d)
    canvas.bar(0, "Stand R1")
    canvas.text(3, 0, "Cleo", True)  # the cursor: four inverted cells
    canvas.text(3, 6, "50+3")
    d.fill_rect(120, 24, 8, 8, 1)  # a block drawn past the canvas: its cell is not inverted
    canvas.flush()
    assert d.inverted_cells[:4] == [(1 << 20) - 1, 0, 0, 0b1111]
    assert chip.glass() == bigboard.expected(d, PALETTE)
    assert _region(chip, range(320), range(0, 16)) == {ACCENT, BG}  # the bar: text in bg on the accent
    assert _region(chip, range(0, 64), range(48, 64)) == {ACCENT, BG}
    assert _region(chip, range(96, 160), range(48, 64)) == {FG, BG}
    assert _region(chip, range(240, 256), range(48, 64)) == {FG}
    canvas.clear(3)
    canvas.flush()
    assert d.inverted_cells[3] == 0 and _region(chip, range(0, 64), range(48, 64)) == {BG}


def test_both_ways_to_16_pixel_text_draw_the_same_glass():
    # Pixel scale 2 with text scale 1 (2400 B) against the glass's own resolution with text scale 2 (9600 B).
    glasses = []
    for scale in ((2, 1), (1, 2)):
        hw, b = bigboard.make(bigboard.profile(pixel_scale=scale[0], text_scale=scale[1]))
        canvas = Canvas(b.display)
        assert (canvas.cols, canvas.rows) == (20, 15)
        canvas.bar(0, "Stand R3       500")
        canvas.text(2, 1, "Jörg & Ärmel", True)
        canvas.text(4, 0, "Übel Öl Süß ►·é")
        canvas.right(14, "#=Runde")
        canvas.flush()
        glasses.append(hw.display.glass())
    assert glasses[0] == glasses[1]
    assert bigboard.colours(glasses[0]) == {FG, BG, ACCENT}


def _corner(display):
    # A block in the top left cell, clear of column 0's first rows (the inverted-cell mark):
    # picture x 1..6, y 2..6, on the glass x 2..13, y 4..13 when all is right.
    display.fill_rect(1, 2, 6, 5, 1)
    display.show()


def test_the_common_modules_glass_is_mirrored_and_bgr():
    red = {"fg": 0xF800, "bg": 0x0000, "accent": 0x07E0}
    hw, b = bigboard.make(bigboard.profile(palette=red))
    _corner(b.display)
    assert _region(hw.display, range(2, 14), range(4, 14)) == {0xF800}  # red, top left
    assert bigboard.colours(hw.display.glass()) == {0xF800, 0}
    # Without the BGR bit red comes out blue.
    hw, b = bigboard.make(bigboard.profile(palette=red, bgr=False))
    _corner(b.display)
    assert _region(hw.display, range(2, 14), range(4, 14)) == {0x001F}
    # With the ST7789's MADCTL (no mirror in it) the picture comes out mirrored: bottom left.
    keep = ili9341.MADCTL
    ili9341.MADCTL = (0x00, 0x60, 0xC0, 0xA0)
    try:
        hw, b = bigboard.make(bigboard.profile(palette=red))
    finally:
        ili9341.MADCTL = keep
    _corner(b.display)
    assert _region(hw.display, range(2, 14), range(4, 14)) == {0}
    assert _region(hw.display, range(2, 14), range(226, 236)) == {0xF800}


def test_the_picture_turned_the_other_way_shows_upside_down():
    hw, b = bigboard.make(bigboard.profile(rotation=3), chip_prof=bigboard.profile())
    _corner(b.display)
    assert _region(hw.display, range(2, 14), range(4, 14)) == {BG}
    assert _region(hw.display, range(306, 318), range(226, 236)) == {FG}


def test_show_and_settings_allocate_nothing():
    for scale in ((2, 1), (1, 2)):
        pwm = tdisplay.NullPWM()
        d = ILI9341_SPI(320, 240, tdisplay.NullSPI(), tdisplay.NullPin(), tdisplay.NullPin(), tdisplay.NullPin(),
                        palette=PALETTE, backlight=pwm, sleep_ms=tdisplay.no_sleep, pixel_scale=scale[0],
                        text_scale=scale[1])
        canvas = Canvas(d)
        canvas.bar(0, "Stand R1")
        canvas.text(2, 0, "Cleo", True)  # a partly inverted row: the mask's path
        canvas.text(4, 0, "Anna    89 Ak 20")
        micropython.heap_lock()
        try:
            d.show()
            d.show_pages(0b1010101)
            d.show_pages(1 << (d.pages - 1))
            d.contrast(64)
            d.invert(True)
            d.invert(False)
            d.poweroff()
            d.poweron()
        finally:
            micropython.heap_unlock()
        assert pwm.duty == 64 * 257


def test_poweroff_blanks_the_glass_and_poweron_brings_it_back():
    hw, b = bigboard.make()
    d, chip = b.display, hw.display
    d.text("Tafel", 0, 0, 1)
    d.show()
    shown = chip.glass()
    d.poweroff()
    assert chip.asleep and chip.backlight == 0 and not chip.lit
    d.contrast(128)  # while asleep: remembered, the backlight stays off
    assert chip.backlight == 0
    d.poweron()
    assert chip.lit and chip.glass() == shown and 0.49 < chip.backlight < 0.51


# ---- the emulated chip's own rules ----------------------------------------------------------


def _awake_chip():
    t = [0]
    chip = ILI9341Chip(clock=lambda: t[0])
    t[0] = 200
    chip.spi_write(b"\x11", 0)  # SLPOUT
    t[0] = 210
    return chip


def test_chip_refuses_what_a_real_one_would_not_take():
    chip = _awake_chip()
    chip.spi_write(b"\xc5", 0)
    chip.spi_write(b"\x3e", 1)
    with pytest.raises(ChipError):
        chip.spi_write(b"\xc7", 0)  # VCOM control 1 takes two parameters
    chip = _awake_chip()
    with pytest.raises(ChipError):
        chip.spi_write(b"\xbb", 0)  # the ST7789's VCOMS: no ILI9341 command
    chip.spi_write(b"\xcf", 0)
    chip.spi_write(b"\x00\xc1\x30", 1)  # power control B: taken and recorded
    assert chip.settings[0xCF] == b"\x00\xc1\x30"
    t = [0]
    with pytest.raises(ChipError):
        ILI9341Chip(clock=lambda: t[0]).spi_write(b"\x11", 0)  # within 5 ms of power-up


def test_chip_glass_is_the_whole_ram_turned_mirrored_and_bgr():
    chip = _awake_chip()
    chip.spi_write(b"\x3a", 0)
    chip.spi_write(b"\x55", 1)
    chip.spi_write(b"\x36", 0)
    chip.spi_write(b"\x28", 1)  # MV and BGR: the landscape picture the right way round
    chip.spi_write(b"\x2a", 0)
    chip.spi_write(b"\x00\x00\x00\x00", 1)
    chip.spi_write(b"\x2b", 0)
    chip.spi_write(b"\x00\x00\x00\x00", 1)
    chip.spi_write(b"\x2c", 0)
    chip.spi_write(b"\xf8\x00", 1)  # one red pixel at (0, 0)
    chip.spi_write(b"\x29", 0)
    chip.set_backlight(1.0)
    assert (chip.width, chip.height) == (320, 240) and chip.pixel(0, 0) == 0xF800
