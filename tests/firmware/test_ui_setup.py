# Setting up a game as a real table does it, on the simulated device: who deals first, house
# slow: every setup flow on a whole device (about 8 s)
# card values, questions before a seat goes or a running game is paused, an empty name refused.
import tdisplay
from sim.device import Device
from sim.flashdev import FlashDev
from tafel.cards import DEFAULT_VALUES, RANKS
from uisim import ADD_NAME, ANNA, BEN, CLEO, device, new_game, power_cut, text

CHRISTINA = "2 2 2 4 4 7 7 7 4 4 4 7 7 7 7 8 4 4 4 6 6 2 #"  # "Christina"
# Card rows in the values editor, counted from the first (number 0): D presses to reach them.
SWAP = 15
WILD = 13


def english(dev):
    dev.app.settings["lang"] = "en"
    dev.app.set_language("en")


def setup_with(dev, names=(ANNA, BEN, CLEO)):
    """From home: setup with these seats; the cursor ends on "+ add player"."""
    dev.play("1 D D")
    for name in names:
        dev.play(ADD_NAME + " " + name)


def to_dealer(dev):
    dev.play("D D")  # add -> start -> first dealer


def to_values(dev):
    dev.play("D D D")  # add -> start -> first dealer -> card values


def card(dev, rank):
    """In the values editor (cursor on number 0): go to the card with this rank code."""
    dev.play(" ".join(["D"] * rank))


def row_with(dev, start):
    for line in dev.screen():
        if line.startswith(start):
            return line
    return None


def start_from_values_row(dev):
    dev.play("C C #")  # values -> dealer -> start


def fits(dev):
    canvas = dev.app.canvas
    screen = dev.screen()
    assert len(screen) == canvas.rows
    for line in screen:
        assert len(line) <= canvas.cols, line


# ---- the first dealer ---------------------------------------------------------


def test_setup_offers_first_dealer_and_card_values_below_start():
    dev = device()
    setup_with(dev)
    dev.play("D")
    assert dev.screen()[-2] == "►Los geht's!"
    assert dev.screen()[-1] == "D=Geber, Werte"
    dev.play("D")
    assert "►Geber: Anna" in dev.screen()
    dev.play("D")
    assert "►Werte: Standard" in dev.screen()
    fits(dev)


def test_seat_1_deals_first_unless_another_is_chosen():
    dev = device()
    new_game(dev)
    assert dev.app.session.game.first_dealer == 0
    assert dev.screen()[0] == "R1 Geber: Anna"


def test_the_dealer_row_cycles_forward_with_hash_and_back_with_b():
    dev = device()
    setup_with(dev)
    to_dealer(dev)
    dev.play("#")
    assert row_with(dev, "►Geber") == "►Geber: Ben"
    dev.play("# #")
    assert row_with(dev, "►Geber") == "►Geber: Anna"  # past the last seat back to the first
    dev.play("B")
    assert row_with(dev, "►Geber") == "►Geber: Cleo"
    assert dev.screen()[-1] == "#=wechseln"


def test_the_chosen_dealer_deals_round_1_and_the_deal_passes_left_after_a_power_cut():
    dev = device()
    setup_with(dev)
    to_dealer(dev)
    dev.play("# # C #")  # Cleo deals first; start
    game = dev.app.session.game
    assert game.first_dealer == 2 and game.dealer() == "Cleo"
    assert dev.screen()[0] == "R1 Geber: Cleo"
    dev.play("A D 3 6 D 5 0 B 3 # #")  # the worked example, saved
    dev = power_cut(dev)
    assert dev.app.session.game.first_dealer == 2
    assert dev.app.session.game.dealer() == "Anna"


def test_removing_a_seat_keeps_the_dealer_and_removing_the_dealer_gives_seat_1():
    dev = device()
    setup_with(dev)
    to_dealer(dev)
    dev.play("# #")  # Cleo
    dev.play("C C C C C *")  # on Anna's row: remove her
    dev.play("#")
    assert dev.app.screen.names == ["Ben", "Cleo"]
    assert dev.app.screen.dealer == 1  # still Cleo
    dev.play("D *")  # on Cleo's row (the cursor stayed on row 3, now Cleo's)
    dev.play("#")
    assert dev.app.screen.names == ["Ben"]
    assert dev.app.screen.dealer == 0
    assert dev.errors == []


def test_a_dealer_row_without_names_shows_a_dash_and_does_nothing():
    dev = device()
    dev.play("1 D D D D")  # variant, target, add, start, dealer
    assert "►Geber: -" in dev.screen()
    dev.play("# B")
    assert "►Geber: -" in dev.screen()
    assert dev.errors == []


# ---- house card values ------------------------------------------------------------


def test_the_values_editor_lists_every_card_with_its_points_and_the_deck_total():
    dev = device()
    setup_with(dev)
    to_values(dev)
    dev.play("#")
    screen = dev.screen()
    assert screen[0] == "Kartenwerte"
    assert screen[1].split() == ["►Zahl", "0", "0"]
    assert screen[-2].split() == ["Deck:", "1400", "1/17"]
    assert screen[-1] == "#=ok A=Standard"
    seen = {}
    for _ in range(len(RANKS)):
        line = row_with(dev, "►")
        seen[line[1:].rsplit(" ", 1)[0].strip()] = int(line.split()[-1])
        fits(dev)
        dev.play("D")
    assert seen["Aussetzen"] == 20 and seen["Retour"] == 20 and seen["Zieh Zwei"] == 20
    assert seen["Farbenwahl"] == 50 and seen["Zieh Vier"] == 50
    assert seen["Handtausch"] == 40 and seen["Blanko"] == 40 and seen["Zahl 7"] == 7
    assert len(seen) == 17
    assert row_with(dev, "►").startswith("►Zahl 0")  # the list wraps round


def test_typing_replaces_a_value_first_then_appends_and_star_deletes_a_digit():
    dev = device()
    setup_with(dev)
    to_values(dev)
    dev.play("#")
    card(dev, SWAP)
    dev.play("5")
    assert row_with(dev, "►").split() == ["►Handtausch", "5"]
    assert dev.screen()[-2].startswith("Deck: 1365")  # 1400 - 40 + 5
    dev.play("0")
    assert row_with(dev, "►").split() == ["►Handtausch", "50"]
    assert dev.screen()[-2].startswith("Deck: 1410")
    dev.play("*")
    assert row_with(dev, "►").split() == ["►Handtausch", "5"]
    dev.play("0 D C 6")  # leaving the card and coming back: the next digit replaces again
    assert row_with(dev, "►").split() == ["►Handtausch", "6"]


def test_a_card_is_worth_at_most_9999():
    dev = device()
    setup_with(dev)
    to_values(dev)
    dev.play("#")
    card(dev, WILD)
    dev.play("9 9 9 9 9")
    assert row_with(dev, "►").split() == ["►Farbenwahl", "9999"]
    fits(dev)


def test_house_values_go_into_the_game_and_survive_a_power_cut():
    dev = device()
    setup_with(dev)
    to_values(dev)
    dev.play("#")
    card(dev, SWAP)
    dev.play("5 0 #")
    assert "►Werte: eigene" in dev.screen()
    start_from_values_row(dev)
    game = dev.app.session.game
    assert game.values[RANKS.index("swap")] == 50
    assert game.values[:SWAP] == DEFAULT_VALUES[:SWAP]
    dev = power_cut(dev)
    assert dev.app.session.game.values[RANKS.index("swap")] == 50
    assert dev.errors == []


def test_a_resets_every_card_to_the_standard_values():
    dev = device()
    setup_with(dev)
    to_values(dev)
    dev.play("#")
    card(dev, SWAP)
    dev.play("5 0 D 7")
    dev.play("A")
    assert dev.screen()[-1] == "Standardwerte"
    assert dev.screen()[-2].startswith("Deck: 1400")
    dev.play("#")
    assert "►Werte: Standard" in dev.screen()
    start_from_values_row(dev)
    assert dev.app.session.game.values == DEFAULT_VALUES


def test_star_leaves_the_editor_and_asks_first_if_values_changed():
    dev = device()
    setup_with(dev)
    to_values(dev)
    dev.play("# *")  # nothing changed: straight back
    assert "►Werte: Standard" in dev.screen()
    dev.play("#")
    card(dev, SWAP)
    dev.play("5 0 D *")
    assert "Werte verwerfen?" in text(dev)
    dev.play("*")  # no: still editing
    assert dev.screen()[0] == "Kartenwerte"
    dev.play("* #")  # yes: back in setup, the values as they were
    assert "►Werte: Standard" in dev.screen()
    assert dev.app.screen.values is None


def test_house_values_can_be_edited_again_from_setup():
    dev = device()
    setup_with(dev)
    to_values(dev)
    dev.play("#")
    card(dev, SWAP)
    dev.play("5 0 #")
    dev.play("#")  # open again: the house values are there
    card(dev, SWAP)
    assert row_with(dev, "►").split() == ["►Handtausch", "50"]
    assert dev.screen()[-2].startswith("Deck: 1410")


def test_the_values_editor_in_english():
    dev = device()
    english(dev)
    setup_with(dev)
    to_values(dev)
    assert "►Values: default" in dev.screen()
    assert dev.screen()[-1] == "#=edit"
    dev.play("#")
    assert dev.screen()[0] == "Card values"
    assert dev.screen()[1].split() == ["►Number", "0", "0"]
    assert dev.screen()[-1] == "#=ok A=default"
    card(dev, WILD + 1)
    assert row_with(dev, "►").split() == ["►Wild", "+4", "50"]
    dev.play("6 0 #")
    assert "►Values: house" in dev.screen()
    dev.play("C")
    assert row_with(dev, "►") == "►Dealer: Anna"


# ---- confirmations --------------------------------------------------------------


def test_star_on_a_seat_asks_before_removing_it():
    dev = device()
    setup_with(dev)
    dev.play("C C C *")  # on Anna's row
    assert "Anna entfernen?" in text(dev)
    assert dev.screen()[-1].strip() == "#=ja  *=nein"
    dev.play("*")  # no
    assert dev.app.screen.names == ["Anna", "Ben", "Cleo"]
    dev.play("* #")  # yes
    assert dev.app.screen.names == ["Ben", "Cleo"]
    assert dev.screen()[3] == "►1 Ben"


def test_removing_a_seat_asks_in_english_and_keeps_a_long_name_whole():
    dev = device()
    english(dev)
    setup_with(dev, (CHRISTINA, BEN))
    dev.play("C C *")  # on Christina's row
    assert "Remove Christina?" not in text(dev)  # 17 characters: the name and the question apart
    screen = dev.screen()
    assert "Christina" in screen[2] and "Remove seat?" in screen[4]
    dev.play("#")
    assert dev.app.screen.names == ["Ben"]
    dev = device()
    setup_with(dev, (CHRISTINA, BEN))
    dev.play("C *")
    assert "Ben entfernen?" in text(dev)


def test_a_new_game_while_one_is_running_asks_before_pausing_it():
    dev = device()
    new_game(dev)
    first = dev.app.session.game_id
    dev.play("* *")  # round entry -> standings -> home
    setup_with(dev, (BEN, CLEO))
    dev.play("D #")
    screen = text(dev)
    assert "Spiel pausieren?" in screen and "Weiter: Verlauf" in screen
    dev.play("*")  # no: the setup stays, the running game too
    assert dev.app.screen.names == ["Ben", "Cleo"]
    assert dev.app.session.game_id == first
    dev.play("#")
    assert "Spiel pausieren?" in text(dev)
    dev.play("#")  # yes: the new game runs; the old one stays on flash for the history
    assert dev.app.session.game_id != first
    assert dev.app.session.game.players == ("Ben", "Cleo")
    assert dev.app.store.load_game(first).players == ("Anna", "Ben", "Cleo")
    assert dev.errors == []


def test_the_pause_question_in_english():
    dev = device()
    english(dev)
    new_game(dev)
    dev.play("* *")
    setup_with(dev, (BEN, CLEO))
    dev.play("D #")
    screen = text(dev)
    assert "Pause the game?" in screen and "Resume: History" in screen


def test_no_question_when_no_game_runs_or_the_last_one_is_over():
    dev = device()
    new_game(dev)  # into round entry directly: nothing asked
    assert dev.screen()[0] == "R1 Geber: Anna"
    dev.play("A D 3 6 D 5 0 B 3 # #")
    dev.app.session.finish()  # the table ends the game (what B, "Spiel beenden?", # does)
    dev.app.home()
    setup_with(dev, (BEN, CLEO))
    dev.play("D #")
    assert dev.app.session.game.players == ("Ben", "Cleo")
    assert dev.errors == []


# ---- name entry ----------------------------------------------------------------


def test_an_empty_name_says_so_and_stays():
    dev = device()
    dev.play("1 D D " + ADD_NAME + " #")
    assert dev.screen()[0] == "Name"
    assert dev.screen()[-1] == "Name fehlt"
    dev.play("0 #")  # a space only is no name either
    assert dev.screen()[0] == "Name"
    assert dev.screen()[-1] == "Name fehlt"
    dev.play("* " + BEN)
    assert dev.app.screen.names == ["Ben"]


def test_an_empty_name_in_english():
    dev = device()
    english(dev)
    dev.play("1 D D " + ADD_NAME + " #")
    assert dev.screen()[-1] == "Name missing"


def test_a_name_with_a_control_character_is_refused_and_stays():
    dev = device()
    dev.play("1 D D " + ADD_NAME)
    dev.app.screen.tap.text = "Cleo\x1b"  # the keys cannot type one; the check holds all the same
    dev.play("#")
    assert dev.screen()[0] == "Name" and dev.screen()[-1] == "Zeichen ungültig"
    dev.play("* * * * * " + BEN)  # its five characters deleted, a good name typed
    assert dev.app.screen.names == ["Ben"]


# ---- the colour board -------------------------------------------------------------------


def test_setup_and_the_values_editor_fill_the_colour_board():
    dev = Device(tdisplay.PROFILE, flash=FlashDev())
    dev.errors = []
    dev.app.log = dev.errors.append
    rows = dev.app.canvas.rows
    setup_with(dev)
    to_values(dev)
    fits(dev)
    dev.play("#")
    fits(dev)
    listed = [line for line in dev.screen()[1:rows - 2] if line]
    assert len(listed) == min(17, rows - 3)
    card(dev, 16)
    assert row_with(dev, "►").split() == ["►Blanko", "40"]
    assert dev.errors == []


# ---- a setup is never lost ------------------------------------------------------


def test_star_with_names_typed_asks_before_leaving_and_the_names_stay_in_the_roster():
    dev = device()
    setup_with(dev)  # three names typed, the cursor on "+ add player"
    assert dev.app.store.roster[:3] == ["Cleo", "Ben", "Anna"]  # each one as it was confirmed
    dev.play("*")
    assert "Aufstellung weg?" in text(dev) and "Namen gemerkt" in text(dev)
    dev.play("*")  # no: the setup is as it was
    assert dev.app.screen.names == ["Anna", "Ben", "Cleo"]
    dev.play("* #")  # yes: home, and the names are still there to pick
    assert type(dev.app.screen).__name__ == "Home"
    dev = power_cut(dev)
    assert sorted(dev.app.store.roster) == ["Anna", "Ben", "Cleo"]


def test_star_on_an_empty_setup_leaves_at_once():
    dev = device()
    dev.play("1 *")
    assert type(dev.app.screen).__name__ == "Home"


def test_a_renamed_seat_goes_into_the_roster_too():
    dev = device()
    setup_with(dev, (BEN,))
    dev.play("C # * * * 2 2 2 5 5 5 3 3 6 6 6 #")  # Ben's row: the name cleared, Cleo typed
    assert dev.app.screen.names == ["Cleo"]
    assert dev.app.store.roster[:2] == ["Cleo", "Ben"]


def test_ten_seats_say_at_most_ten_and_the_habitual_hash_does_not_start():
    dev = device()
    dev.app.store.save_roster(["P%d" % i for i in range(12)])
    dev.play("1 D D" + " # 2" * 10)  # ten names from the roster, each picked by its digit
    assert len(dev.app.screen.names) == 10
    assert "höchstens 10" in text(dev)
    dev.play("#")  # one more, by habit: it says so and nothing starts
    assert dev.screen()[-1] == "höchstens 10"
    assert dev.app.session.game is None and len(dev.app.screen.names) == 10
    dev.play("D #")  # "start" is one further down, as always
    assert dev.app.session.game is not None and len(dev.app.session.game.players) == 10


def test_a_missing_target_shows_its_row_with_the_cursor_on_it():
    dev = device()
    dev.app.store.save_roster(["P%d" % i for i in range(8)])
    dev.play("1 D * * * D" + " # 2" * 8 + " D #")  # target cleared, eight seats: the list has scrolled
    assert dev.screen()[-1] == "Ziel fehlt"
    assert dev.app.session.game is None
    assert any(line.startswith("►Ziel") for line in dev.screen()), dev.screen()
    dev.play("3 0 0 D")  # the keys land on the target
    assert dev.app.screen.target == 300


def test_a_power_cut_during_setup_brings_it_back_as_it_was():
    dev = device()
    dev.play("1 # D A")  # Minuspunkte, target 200
    dev.play("D " + ADD_NAME + " " + ANNA + " " + ADD_NAME + " " + BEN)
    dev = power_cut(dev)
    screen = dev.app.screen
    assert type(screen).__name__ == "Setup"
    assert screen.names == ["Anna", "Ben"] and screen.variant == 1 and screen.target == 200
    assert any("►" in row and "+ Spieler dazu" in row for row in dev.screen())  # the cursor on "add"
    dev.play(ADD_NAME + " " + CLEO + " D #")  # on with the setup: a third name, start
    game = dev.app.session.game
    assert game.players == ("Anna", "Ben", "Cleo") and game.variant == "penalty" and game.target == 200
    dev = power_cut(dev)  # the setup became a game: nothing of it comes back
    assert type(dev.app.screen).__name__ != "Setup"
    assert dev.app.store.setup_draft() is None


def test_a_setup_left_on_purpose_does_not_come_back():
    dev = device()
    setup_with(dev)
    dev.play("* #")  # leave, yes
    dev = power_cut(dev)
    assert type(dev.app.screen).__name__ == "Home"
    dev.play("1")
    assert dev.app.screen.names == []


def test_a_deep_sleep_during_setup_keeps_the_names():
    dev = device()
    setup_with(dev, (ANNA, BEN))
    state = dev.app.screen.resume_state()
    from ui.setup import Setup

    again = Setup.resumed(dev.app, state)
    assert again.names == ["Anna", "Ben"]


def test_a_damaged_draft_is_a_fresh_setup():
    dev = device()
    for bad in ([9, 500, ["Anna"], 0, None], [0, 500, "Anna", 0, None], [0, 500, ["Anna"], 5, None], "x",
                [0, 500, ["Anna"], 0, [20, 20]], [0, 500, ["Anna"], 0, ["x"] * 17], [0, 500, ["Anna"], 0, [-1] * 17]):
        dev.app.store.save_setup(bad)
        dev = power_cut(dev)
        assert dev.errors == []
        dev.play("*")
        dev.play("1")
        assert dev.app.screen.names == [], bad
        dev.play("*")
