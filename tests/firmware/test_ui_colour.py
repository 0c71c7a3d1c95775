# The unchanged UI on the colour board (T-Display, ST7789): the worked example played through the simulated device.
import tdisplay
import uisim
from sim.device import Device
from sim.flashdev import FlashDev

PALETTE = tdisplay.profile()["display"]["palette"]


def device():
    dev = Device(tdisplay.PROFILE, flash=FlashDev())
    dev.errors = []
    dev.app.log = dev.errors.append  # a screen crash is a test failure, not a notice
    return dev


def test_power_on_shows_the_home_menu_in_colour():
    dev = device()
    assert "Neues Spiel" in uisim.text(dev)
    glass = dev.chip.glass()
    assert len(glass) == 240 * 135 * 2 and (dev.chip.width, dev.chip.height) == (240, 135)
    assert glass == tdisplay.expected(dev.board.display.buffer, PALETTE)
    assert tdisplay.colours(glass) == {PALETTE["fg"], PALETTE["bg"], PALETTE["accent"]}


def test_the_worked_example_on_the_colour_board():
    dev = device()
    uisim.new_game(dev)
    dev.play("A D 3 6 D 5 0 B 3")
    assert dev.screen()[-1] == "Anna +89"
    assert dev.chip.glass() == tdisplay.expected(dev.board.display.buffer, PALETTE)
    dev.play("# #")
    rows = dev.screen()
    assert rows[0].startswith("Stand R1") and rows[1].split()[:2] == ["Anna", "89"]
    assert rows[2].split()[:2] == ["►Ben", "0"] and rows[3].split()[:2] == ["Cleo", "0"]  # Ben deals next
    glass = dev.chip.glass()
    assert glass == tdisplay.expected(dev.board.display.buffer, PALETTE)
    # The standings' title bar: the accent colour across the whole first band.
    top = set(dev.chip.pixel(x, y) for x in range(240) for y in range(3, 19))
    assert top == {PALETTE["accent"], PALETTE["bg"]}
    assert dev.errors == []


def test_the_board_shows_rgb565_as_the_launcher_snaps_it():
    # What the launcher's snap sends on (host_tools/sim/device.py): the board's picture, RGB565
    # big-endian row by row, and the text rows the firmware's canvas said.
    dev = device()
    picture = dev.chip.picture()
    assert dev.chip.colour and len(picture) == 240 * 135 * 2 and picture == dev.chip.glass()
    assert dev.screen()[0]


def test_display_sleep_and_wake_on_the_colour_board():
    dev = device()
    dev.advance(61000)  # the default display sleep is 60 s
    assert dev.chip.asleep and not dev.chip.lit
    dev.play("D")  # any key wakes it
    assert dev.chip.lit and dev.chip.glass() == tdisplay.expected(dev.board.display.buffer, PALETTE)
