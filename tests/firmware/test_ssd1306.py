# SSD1306 driver against the emulated chip on the simulated I2C bus: what the glass shows, bytes on the bus, sleep.
import micropython
import pytest
from simboard.ssd1306 import ChipError, SSD1306Chip

import halsim
from drivers.ssd1306 import SSD1306_I2C


def _page(buf, p):
    return bytes(buf[p * 128:(p + 1) * 128])


def test_init_clears_the_noise_and_lights_the_glass():
    chip = SSD1306Chip()
    assert any(chip.ram) and not chip.lit  # power-up: noise in RAM, glass dark
    hw, board = halsim.make()
    chip = hw.display
    assert chip.lit and chip.charge_pump and chip.on
    assert chip.seg_remap and chip.com_remap and chip.mode == 0 and chip.mux == 64
    assert not any(chip.ram) and not any(chip.glass())


def test_text_shown_appears_identically_on_the_glass():
    hw, board = halsim.make()
    d, chip = board.display, hw.display
    d.text("Anna +89", 0, 0, 1)
    d.text("Ben", 8, 28, 1)  # straddles pages 3 and 4
    d.rect(0, 56, 128, 8, 1)
    d.show()
    assert chip.ram == d.buffer
    assert chip.glass() == d.buffer
    for x, y in ((0, 0), (9, 30), (127, 63), (64, 56), (64, 60)):
        assert chip.pixel(x, y) == d.pixel(x, y), (x, y)
    assert chip.pixel(127, 63) == 1 and chip.pixel(64, 60) == 0


def test_show_pages_sends_only_those_pages():
    hw, board = halsim.make()
    d, chip = board.display, hw.display
    d.fill(1)  # every page differs from the chip's RAM now
    bus = d.i2c
    data0, bytes0 = chip.data_bytes, bus.bytes_written
    d.show_pages(0b00100100)  # pages 2 and 5
    assert chip.data_bytes - data0 == 2 * 128
    # Per page run: a 7-byte window command and a 129-byte data write.
    assert bus.bytes_written - bytes0 == 2 * (7 + 129)
    for p in range(8):
        assert _page(chip.ram, p) == (b"\xff" * 128 if p in (2, 5) else bytes(128)), p


def test_neighbouring_pages_share_one_window():
    hw, board = halsim.make()
    d, chip = board.display, hw.display
    d.fill(1)
    t0, bytes0 = chip.transactions, d.i2c.bytes_written
    d.show_pages(0b01110000)  # pages 4-6: one window, three page writes
    assert chip.transactions - t0 == 4
    assert d.i2c.bytes_written - bytes0 == 7 + 3 * 129
    assert chip.ram[4 * 128:7 * 128] == d.buffer[4 * 128:7 * 128]
    assert not any(chip.ram[:4 * 128]) and not any(chip.ram[7 * 128:])


def test_show_pages_with_every_page_is_one_full_transfer():
    hw, board = halsim.make()
    d, chip = board.display, hw.display
    d.text("x", 0, 0, 1)
    t0 = chip.transactions
    d.show_pages(0xFF)
    assert chip.transactions - t0 == 2 and chip.ram == d.buffer
    t0 = chip.transactions
    d.show_pages(0)
    assert chip.transactions == t0


def test_poweroff_blanks_the_glass_and_poweron_brings_it_back():
    hw, board = halsim.make()
    d, chip = board.display, hw.display
    d.fill_rect(10, 10, 20, 20, 1)
    d.show()
    d.poweroff()
    assert not chip.lit and not any(chip.glass())
    assert chip.ram == d.buffer  # the chip keeps its RAM while asleep
    d.poweron()
    assert chip.lit and chip.glass() == d.buffer


def test_contrast_and_invert():
    hw, board = halsim.make()
    d, chip = board.display, hw.display
    d.contrast(3)
    assert chip.contrast == 3
    d.pixel(5, 5, 1)
    d.show()
    d.invert(True)
    assert chip.inverted and chip.pixel(5, 5) == 0 and chip.pixel(6, 5) == 1
    assert all(b == 0xFF for b in chip.glass()[64:128])
    d.invert(False)
    assert chip.glass() == d.buffer


class _NullI2C:
    def writevto(self, addr, vector):
        return 0


def test_show_and_settings_allocate_nothing():
    d = SSD1306_I2C(128, 64, _NullI2C())
    micropython.heap_lock()
    try:
        d.show()
        d.show_pages(0b10100101)
        d.contrast(200)
        d.invert(True)
        d.poweroff()
        d.poweron()
    finally:
        micropython.heap_unlock()


def test_chip_reads_one_control_byte_per_command_too():
    # Co=1 style (control byte before every byte), arguments in later transactions.
    chip = SSD1306Chip()
    for byte in (0x8D, 0x14, 0xAF, 0x20, 0x00, 0xA1, 0xC8):
        chip.write([bytes((0x80, byte))])
    assert chip.lit and chip.mode == 0 and chip.seg_remap and chip.com_remap
    chip.write([b"\x80\x21\x80\x00\x80\x7f", b"\x80\x22\x80\x01\x80\x01"])  # page 1 only
    chip.write([b"\x40\x0f\x0f"])
    assert chip.ram[128:130] == b"\x0f\x0f"
    assert chip.pixel(0, 8) == 1 and chip.pixel(0, 12) == 0


def test_chip_page_addressing_mode():
    chip = SSD1306Chip()
    chip.write([b"\x00\xb3\x05\x11"])  # page 3, column 0x15
    chip.write([b"\x40\xaa\xbb"])
    assert chip.ram[3 * 128 + 0x15:3 * 128 + 0x17] == b"\xaa\xbb"


def test_chip_without_remap_shows_the_image_turned():
    # The glass is mounted mirrored: a driver that forgot 0xA1/0xC8 draws upside down.
    chip = SSD1306Chip()
    chip.ram[:] = bytes(1024)
    chip.write([b"\x00\x8d\x14\xaf\x20\x00"])
    chip.write([b"\x40\x01"])  # column 0, page 0, top bit
    assert chip.pixel(127, 63) == 1 and chip.pixel(0, 0) == 0


def test_chip_refuses_garbage_when_strict():
    chip = SSD1306Chip()
    with pytest.raises(ChipError):
        chip.write([b"\x01\xaf"])  # bad control byte
    with pytest.raises(ChipError):
        chip.write([b"\x00\xff"])  # no such command
    SSD1306Chip(strict=False).write([b"\x00\xff"])


def test_nobody_at_another_address():
    hw, board = halsim.make()
    with pytest.raises(OSError):
        board.display.i2c.writeto(0x3D, b"\x00\xaf")
    assert board.display.i2c.scan() == [0x3C]


def test_the_simulators_picture_is_the_glass_in_one_kept_buffer():
    # The simulator runs in the device's heap: its picture() is one buffer changed in place.
    hw, board = halsim.make()
    d, chip = board.display, hw.display
    d.text("Anna", 0, 0, 1)
    d.show()
    first = chip.picture()
    assert first == chip.glass() and chip.fingerprint() == chip.fingerprint()
    before = chip.fingerprint()
    d.invert(1)
    assert chip.picture() is first and first == chip.glass()  # the same buffer, now inverted
    assert chip.fingerprint() != before
    d.poweroff()
    assert not any(chip.picture()) and chip.picture() == chip.glass()
