# Short forms of names for narrow columns: players can read them, every seat stays distinguishable, a long name runs past.
import uisim
from sim.device import Device
from sim.flashdev import FlashDev
from tafel.names import MAX_NAME
from ui.names import short_names, window

BOARDS = "hardware/boards/"


def test_names_that_fit_stay_whole():
    assert short_names(["Anna", "Ben", "Cleo"], 6) == ["Anna", "Ben", "Cleo"]


def test_look_alike_names_keep_their_start_and_the_letter_that_tells_them_apart():
    assert short_names(["Christina", "Christian"], 9) == ["Christina", "Christian"]
    assert short_names(["Christina", "Christian"], 8) == ["Christ.a", "Christ.n"]  # not Christin / Christia
    assert short_names(["Christina", "Christian"], 6) == ["Chri.a", "Chri.n"]
    assert short_names(["Christina", "Christian"], 3) == ["C.a", "C.n"]
    forms = short_names(["Christina", "Christian", "Christoph"], 6)
    assert forms == ["Chri.a", "Chri.n", "Chri.h"]  # none keeps "Christ", which would hide the others


def test_more_end_letters_where_the_last_one_is_the_same():
    assert short_names(["Christina", "Christiana", "Ben"], 6) == ["Ch.ina", "Ch.ana", "Ben"]


def test_a_team_seat_keeps_both_members_recognisable():
    teams = ["Anna & Ben", "Anna & Cleo"]
    assert short_names(teams, 5) == ["An&Be", "An&Cl"]
    assert short_names(teams, 3) == ["A&B", "A&C"]
    assert short_names(teams, 7) == ["Ann&Ben", "Ann&Cle"]
    assert short_names(teams, 9) == ["Anna&Ben", "Anna&Cleo"]  # the spaces go first
    assert short_names(teams, 10) == ["Anna & Ben", "Anna&Cleo"]


def test_teams_alike_in_their_first_letters_give_the_later_member_more():
    forms = short_names(["Anna & Ben", "Anna & Bert", "Özlem"], 6)
    assert forms == ["An&Ben", "An&Ber", "Özlem"]


def test_a_cut_name_never_looks_like_another_seat():
    forms = short_names(["Anna", "Anna & Ben"], 4)
    assert forms == ["Anna", "An&B"]
    forms = short_names(["Anna &", "Anna & Cleo", "Ben"], 6)  # "Anna &" is no team: a name of its own
    assert forms == ["Anna &", "Ann&Cl", "Ben"]
    assert short_names(["Maximilian", "Maximiliane"], 10) == ["Maximilian", "Maximili.e"]


def test_ten_long_seats_all_differ_at_every_width():
    names = ["Christina", "Christian", "Christoph", "Anna & Ben", "Anna & Cleo", "Maximilian",
             "Maximiliane", "Jo", "Ben", "Cleo"]
    for width in range(3, 12):
        forms = short_names(names, width)
        assert len(set(forms)) == 10 and all(len(f) <= width for f in forms), (width, forms)
    assert short_names(names, 5) == ["Chr.a", "Chr.n", "Chr.h", "An&Be", "An&Cl", "Max.n", "Max.e",
                                     "Jo", "Ben", "Cleo"]


def test_a_long_name_runs_past_in_its_column():
    shown = [window("Christina", 6, step) for step in range(13)]
    assert shown[0] == "Christ" and shown[3] == "istina" and all(len(s) == 6 for s in shown)
    assert shown[12] == "Christ"  # round again after the name and a gap
    assert window("Ben", 6, 5) == "Ben"


# ---- on the screens: round entry, standings and the table view on every board -------------

SEATS = ("Christina", "Christian", "Anna & Ben", "Anna & Cleo", "Özlem")


def _game_on(profile):
    dev = Device(profile, flash=FlashDev())
    dev.errors = []
    dev.app.log = dev.errors.append
    session = dev.app.session
    session.start(SEATS, "standard", 500)
    session.save_round({name: [12] for name in SEATS if name != "Özlem"}, "Özlem")
    dev.app.show_game()
    dev.app.screen.touch()
    dev.play("wait:100")
    return dev


def _readable(screen, forms, rows):
    # Each seat's form is on the screen, no two alike, and a team's names both members.
    text = "\n".join(rows)
    assert len(set(forms)) == len(SEATS), (screen, forms)
    for seat, form in zip(SEATS, forms):
        assert form in text, (screen, form, rows)
        if "&" in seat:
            first, second = seat.split(" & ")
            head, tail = form.replace(" ", "").split("&")
            assert first.startswith(head) and second.startswith(tail) and head and tail, (screen, form)
        elif "." in form:  # the start in full, a dot, the seat's own last letter
            assert seat.startswith(form[:form.index(".")]) and form[-1] == seat[-1], (screen, form)
        else:  # whole, or its start where no other seat starts alike
            assert seat.startswith(form), (screen, form)


def _screens(profile):
    dev = _game_on(profile)
    found = {}
    assert type(dev.app.screen).__name__ == "Standings"
    found["standings"] = (dev.app.screen.short, dev.screen())
    dev.play("wait:3000 wait:3000 wait:3000")
    assert type(dev.app.screen).__name__ == "TableView"
    found["table"] = (dev.app.screen.names, dev.screen())
    dev.play("* #")
    assert type(dev.app.screen).__name__ == "RoundEntry"
    found["entry"] = (dev.app.screen.short, dev.screen())
    assert dev.errors == []
    return found


def test_look_alike_seats_and_teams_are_readable_on_the_small_board():
    found = _screens(BOARDS + "esp32-devkitc-ssd1306.json")
    for screen in found:
        _readable(screen, *found[screen])
    entry = found["entry"][1]
    assert entry[1:6] == ["►Chri.a        0", " Chri.n        0", " Ann&Be        0", " Ann&Cl        0",
                          " Özlem        48"]
    table = "\n".join(found["table"][1])
    for form in ("C.a", "C.n", "A&B", "A&C", "Özl"):  # 5 seats in two columns of large digits
        assert form + " " in table, table
    assert "Anna & Cleo" in "\n".join(found["standings"][1])  # the standings have room for the whole names


def test_look_alike_seats_and_teams_are_readable_on_the_colour_boards():
    for board in ("esp32-devkitc-ili9341.json", "lilygo-tdisplay-st7789.json"):
        found = _screens(BOARDS + board)
        for screen in found:
            _readable(screen, *found[screen])


# ---- typing a name: the same length as the laptop's and the game's ------------------------

def test_a_typed_name_stops_at_20_letters_and_says_so():
    dev = uisim.device()
    dev.play("1 D D " + uisim.ADD_NAME)  # setup, cursor on "+ Spieler dazu", a new name
    assert type(dev.app.screen).__name__ == "NameEntry", dev.screen()
    dev.play(" ".join(["2", "3"] * 10))  # Adadad...: 20 letters, the last one still being chosen
    assert dev.screen()[-1] != "max. 20 Zeichen"
    dev.play("2")  # a 21st
    assert dev.screen()[-1] == "max. 20 Zeichen"
    assert dev.app.screen.tap.shown() == "Ad" + "ad" * 9
    dev.play("wait:3000 *")  # room for one again once one is gone
    dev.play("2 wait:1200")
    assert dev.app.screen.tap.text == "Ad" + "ad" * 8 + "aa"
    dev.play("#")
    assert dev.app.store.roster[0] == "Ad" + "ad" * 8 + "aa" and len(dev.app.store.roster[0]) == MAX_NAME
    from ui import texts_de, texts_en
    for table in (texts_de.TEXTS, texts_en.TEXTS):  # the notice says the core's number
        assert str(MAX_NAME) in [text for key, text in table if key == "name_full"][0]
