# What the small screens say, and that it is what the keys do: the standings' title keeps the target
# when the lines scroll, the check keeps the totals, a finished game's standings name their keys, an
# edit that takes a game's end back asks first, lists picked by digits show the digits, and About
# names the glass, not the picture drawn on it.
import bigboard
from sim.device import Device
from sim.flashdev import FlashDev
from uisim import device, new_game


def seven_seats(dev):
    names = ("Anna", "Ben", "Cleo", "Dana", "Emil", "Fritz", "Gus")
    dev.app.session.start(names, "standard", 500)
    dev.app.show_game()
    dev.play("wait:100")


def test_the_standings_title_keeps_the_target_when_the_seats_scroll():
    dev = device()
    seven_seats(dev)
    title = dev.screen()[0]
    assert title.endswith("500") and "1-6/" in title, title  # where the lines are, and the target
    dev.play("D")
    assert dev.screen()[0].endswith("500") and "2-7/" in dev.screen()[0]


def test_the_check_keeps_the_totals_beside_wide_points():
    dev = device()
    new_game(dev)
    dev.play("A D 9 9 9 D 9 9 9 #")  # 1998 points: more than the deck holds, the check warns
    screen = dev.screen()
    assert screen[-1] == "Über Deck! #=ok"
    assert screen[1].split() == ["►Anna", "+1998", "1998"]  # the names give way, not the totals
    assert screen[2].split() == ["Ben", "0"]


def test_a_finished_games_standings_say_what_their_keys_do():
    dev = device()
    new_game(dev, target="A")  # 200
    dev.play("A D 1 0 0 D 1 0 0 # # *")  # game over, then the final standings
    hints = set()
    for _ in range(4):
        dev.play("wait:3000")
        hints.add(dev.screen()[-1])
    assert hints == {"#=Sieger *=Menü", "B=Runden ändern"}, hints
    assert not any("Runde A" in h for h in hints)


def test_an_edit_that_takes_the_end_back_asks_before_the_game_runs_again():
    dev = device()
    new_game(dev, target="A")  # 200
    dev.play("A D 1 0 0 D 1 0 0 # # *")  # Anna 200: over
    dev.play("B #")  # the rounds, newest first: round 1
    dev.play("D * * * 5 #")  # Ben held 5, not 100: Anna would have 105, short of 200
    dev.play("#")
    assert dev.screen()[-1] == "Spiel weiter? #"
    assert dev.app.session.game.finished  # nothing saved yet
    dev.play("*")  # back to the entry: nothing changes
    assert dev.app.session.game.finished and dev.app.session.game.total(0) == 200
    dev.play("# # #")  # asked again, and yes: the game runs again
    game = dev.app.session.game
    assert not game.finished and game.total(0) == 105


def test_an_edit_that_keeps_the_end_saves_without_a_question():
    dev = device()
    new_game(dev, target="A")
    dev.play("A D 1 0 0 D 1 0 0 # # *")
    dev.play("B # D * * * 1 5 0 # #")  # Ben held 150: Anna 250, still over
    assert dev.app.session.game.finished and dev.app.session.game.total(0) == 250


def test_the_roster_list_shows_the_digit_that_picks_each_name():
    dev = device()
    dev.app.store.save_roster(["Anna", "Ben"])
    dev.play("1 D D #")
    screen = dev.screen()
    assert screen[1].strip("►").startswith("1 ") and screen[2].strip() == "2 Anna"
    assert screen[3].strip() == "3 Ben"
    dev.play("3")
    assert dev.app.screen.names == ["Ben"]


def test_the_rounds_list_is_not_picked_by_hidden_digits():
    dev = device()
    new_game(dev)
    dev.play("A D 1 0 D 2 0 # # B 1")  # a digit on the rounds list does nothing
    assert type(dev.app.screen).__name__ == "Rounds"


def test_about_names_the_glass_on_the_large_board():
    dev = Device(bigboard.PROFILE, flash=FlashDev())
    dev.play("6 wait:100")
    assert any(line.split()[:2] == ["Display", "320x240"] for line in dev.screen()), dev.screen()
