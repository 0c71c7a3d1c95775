# The table view: every seat's total in large digits, laid out from the display's size, on all three displays.
import bigboard
import tdisplay
import uisim
from sim.device import Device
from sim.flashdev import FlashDev
from ui.table_view import PAGE_MS, TableView

SIX = ("Christina", "Christian", "Anna", "Ben", "Cleo", "Dirk")
TEN = SIX + ("Jo", "Maxi", "Uwe", "Eva")


def device(profile=uisim.PROFILE):
    dev = Device(profile, flash=FlashDev())
    dev.errors = []
    dev.app.log = dev.errors.append  # a screen crash is a test failure, not a notice
    return dev


def table(dev, players, rounds=(), variant="standard", target=500):
    """A running game with these rounds ({name: hand}, winner), its standings, the table view pushed on them."""
    session = dev.app.session
    session.start(list(players), variant, target)
    for hands, winner in rounds:
        session.save_round(hands, winner)
    dev.app.show_game()
    dev.app.push(TableView(dev.app))
    dev.advance(20)
    return dev.app.screen


def example(players):
    # The worked example's round (Anna out, 36 and 53 against her) and one more won by the last seat.
    first = {p: 0 for p in players}
    first.update({players[1]: 36, players[2]: 53})
    second = {p: 5 for p in players}
    second[players[-1]] = 0
    return [(first, players[0]), (second, players[-1])]


def lit_rows(display, x0, x1, y0, y1):
    return [y for y in range(y0, y1) if any(display.pixel(x, y) for x in range(x0, x1))]


def test_three_seats_on_the_oled_one_a_line_with_digits_twice_the_font():
    dev = device()
    view = table(dev, ("Anna", "Ben", "Cleo"), example(("Anna", "Ben", "Cleo")))
    rows = dev.screen()
    assert rows[0] == "Stand R2     500"
    assert rows[1].split() == ["Anna", "89"] and rows[3].split() == ["Ben", "0"]
    assert rows[5].split() == ["Cleo", "10"] and rows[2] == rows[4] == rows[6] == ""
    assert rows[7] == "Geber: Cleo"
    d = dev.board.display
    # The totals: 14 pixels tall (the font's 7 twice) on a 16-pixel line of two text rows.
    assert lit_rows(d, 80, 128, 8, 24) == list(range(9, 23))
    assert (view.k, view.cols, view.scale) == (2, 1, 2)
    # Cleo deals next: her name inverted, the others not.
    assert d.pixel(0, 40) and d.pixel(0, 41) and not d.pixel(0, 8) and not d.pixel(0, 24)
    assert dev.errors == []


def test_six_seats_in_two_columns_all_at_once():
    dev = device()
    view = table(dev, SIX, example(SIX))
    assert (view.cols, view.pages) == (2, 1)
    names = view.names  # short forms of three letters that stay different (ui/names.py)
    assert len(set(names)) == 6 and max(len(n) for n in names) == 3 and names[2:] == ["Ann", "Ben", "Cle", "Dir"]
    rows = dev.screen()
    assert rows[1].split() == [names[0], "89", "Ben", "0"] and rows[3].split() == [names[1], "0", "Cle", "0"]
    assert rows[5].split() == ["Ann", "0", "Dir", "25"]
    assert rows[0].endswith("500")  # one page: the target where the page would be


def test_two_seats_get_larger_digits():
    dev = device()
    view = table(dev, ("Anna", "Ben"), [({"Anna": 0, "Ben": 120}, "Anna")])
    assert view.scale == 3 and view.k == 3
    assert dev.screen()[2].split() == ["Anna", "120"]
    assert len(lit_rows(dev.board.display, 64, 128, 8, 32)) == 21  # 7 font rows at 3


def test_ten_seats_take_turns_in_pages():
    dev = device()
    view = table(dev, TEN)
    assert view.pages == 2 and view.per_page == 6
    first = "\n".join(dev.screen())
    assert dev.screen()[0].endswith("1/2") and "Chr" in first and "Dir" in first and "Eva" not in first
    dev.advance(PAGE_MS)
    second = "\n".join(dev.screen())
    assert dev.screen()[0].endswith("2/2") and "Eva" in second and "Jo" in second and "Ben" not in second
    dev.advance(PAGE_MS)
    assert dev.screen()[0].endswith("1/2")
    assert dev.errors == []


def test_the_bottom_row_takes_turns_with_the_keys_in_either_language():
    dev = device()
    table(dev, ("Anna", "Ben", "Cleo"))
    assert dev.screen()[-1] == "Geber: Anna"
    dev.advance(3000)
    assert dev.screen()[-1] == "#=Runde *=Stand"
    dev.app.set_language("en")
    dev.advance(3000)
    assert dev.screen()[-1] == "Deals: Anna" and dev.screen()[0].startswith("Scores R0")


def test_any_key_goes_back_to_the_standings_and_hash_on_to_the_round():
    dev = device()
    table(dev, ("Anna", "Ben", "Cleo"))
    dev.play("5")
    assert type(dev.app.screen).__name__ == "Standings"
    dev.app.push(TableView(dev.app))
    dev.play("#")
    assert type(dev.app.screen).__name__ == "RoundEntry"
    dev.play("*")  # leave the empty round entry, back to the standings
    dev.app.push(TableView(dev.app))
    dev.play("PUSH")
    assert type(dev.app.screen).__name__ == "RoundEntry"
    assert dev.errors == []


def test_four_and_five_digit_totals_keep_to_their_cells():
    dev = device()
    big = [({"Anna": 0, "Ben": 3000, "Cleo": 2500, "Dirk": 2000}, "Anna")] * 4  # Anna 30000
    view = table(dev, ("Anna", "Ben", "Cleo", "Dirk"), big, target=100000)
    shown = []
    for _ in range(view.pages):
        shown += "\n".join(dev.screen()).split()
        dev.advance(PAGE_MS)
    assert "30000" in shown and "Ben" in shown and "Dirk" in shown
    d = dev.board.display
    assert not any(d.pixel(127, y) for y in range(8, 56))  # nothing runs off the right edge
    # Six seats with a four-digit total leave no room for 3-letter names in two columns on the
    # OLED: one column, whole names, two pages.
    dev2 = device()
    view = table(dev2, SIX, [({p: (0 if p == "Anna" else 400) for p in SIX}, "Anna")] * 3, target=100000)
    assert (view.cols, view.pages) == (1, 2) and dev2.screen()[5].split() == ["Anna", "6000"]


def test_a_seat_that_is_out_is_marked():
    dev = device()
    table(dev, ("Anna", "Ben", "Cleo"), [({"Anna": 0, "Ben": 120, "Cleo": 10}, "Anna")], "challenge", 100)
    rows = dev.screen()
    assert rows[3].split() == ["Ben", "120"] and rows[4] == "x"


def test_on_the_colour_board_only_the_dealer_and_the_title_take_the_accent():
    dev = device(tdisplay.PROFILE)
    table(dev, SIX, example(SIX))
    buf = dev.board.display.buffer
    palette = tdisplay.profile()["display"]["palette"]
    assert dev.chip.glass() == tdisplay.expected(buf, palette)
    inverted = [(page, cell) for page in range(1, 7) for cell in range(16) if tdisplay.inverted_cell(buf, page, cell)]
    assert inverted == [(5, 0), (5, 1), (5, 2)]  # "Ann" deals next; the digits lit no cell's mark
    assert dev.errors == []


def test_the_320x240_board_shows_six_full_names_in_one_column():
    dev = device(bigboard.PROFILE)
    view = table(dev, SIX, example(SIX))
    assert (view.cols, view.k, view.scale) == (1, 2, 2) and view.names == list(SIX)
    rows = dev.screen()
    assert len(rows) == 15 and rows[1].split() == ["Christina", "89"] and rows[11].split() == ["Dirk", "25"]
    d = dev.board.display
    assert dev.chip.glass() == bigboard.expected(d, bigboard.profile()["display"]["palette"])
    # On the glass the digits are 28 pixels tall, the names 16 (8 x 8 font, pixel scale 2).
    digits = lit_rows(d, 100, 160, 8, 24)
    assert len(digits) * 2 == 28
    four = table(device(bigboard.PROFILE), SIX[:4])
    assert four.scale == 3 and four.k == 3  # fewer seats, larger digits


def test_the_320x240_board_at_its_own_resolution_draws_the_same():
    glasses = []
    for scale in ((2, 1), (1, 2)):
        dev = Device(bigboard.PROFILE, flash=FlashDev(), profile=bigboard.profile(pixel_scale=scale[0],
                                                                                   text_scale=scale[1]))
        table(dev, SIX, example(SIX))
        glasses.append(dev.chip.glass())
    assert glasses[0] == glasses[1]
