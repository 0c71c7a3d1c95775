# The totals stay lit while a game runs: on the standings and the table view the display dims after
# the "sleep" setting's time but never goes dark while the table plays; home, menus and a finished
# game sleep as before; once nobody has pressed a key for the deep sleep's time (at most 30 min)
# the table has left and the display goes dark there too.
# slow: two tests run half an hour of the device's time (about 25 s)
from uisim import device, new_game

WORKED = "A D 3 6 D 5 3 # #"  # a round saved: Anna 89


def playing(dev):
    new_game(dev)
    dev.play(WORKED)
    assert dev.app.session.game.total(0) == 89


def test_the_totals_dim_after_a_minute_and_stay_readable():
    dev = device()
    playing(dev)
    dev.play("wait:61000")  # the table view has opened by itself and a minute has gone by
    assert type(dev.app.screen).__name__ == "TableView"
    assert not dev.app.asleep and dev.chip.on and dev.chip.contrast == 127 // 2
    dev.play("wait:600000")  # ten minutes of a long round: still lit
    assert not dev.app.asleep and dev.chip.on
    assert dev.app.screen.totals[0] == "89"


def test_a_key_on_the_dimmed_totals_counts_and_brings_the_contrast_back():
    dev = device()
    playing(dev)
    dev.play("wait:61000 #")  # the key is not swallowed: round 2 opens at once
    assert dev.chip.contrast == 127
    assert dev.screen()[0].startswith("R2")


def test_the_dimmed_level_follows_the_contrast_setting():
    dev = device()
    dev.app.settings["contrast"] = 255
    dev.app.display.contrast(255)
    playing(dev)
    dev.play("wait:61000")
    assert dev.chip.contrast == 127
    dev.play("D")
    assert dev.chip.contrast == 255


def test_home_and_menus_go_dark_as_before():
    dev = device()
    dev.play("wait:61000")  # home
    assert dev.app.asleep and not dev.chip.on
    dev.play("7")  # the first key only wakes it
    assert not dev.app.asleep
    playing(dev)
    dev.play("# wait:61000")  # round entry is a menu of its own: it sleeps (what was typed is kept)
    assert dev.app.asleep


def test_a_finished_game_sleeps_as_before():
    dev = device()
    new_game(dev, target="A")  # 200
    dev.play("A D 1 0 0 D 1 0 0 # # * wait:61000")  # the final standings
    assert type(dev.app.screen).__name__ == "Standings" and dev.app.session.game.finished
    assert dev.app.asleep


def test_the_table_has_left_after_half_an_hour_without_a_key():
    dev = device()
    playing(dev)
    dev.play("wait:1790000")
    assert not dev.app.asleep and dev.chip.on
    dev.play("wait:11000")  # 30 minutes without a key: dark, and a key only wakes it
    assert dev.app.asleep and not dev.chip.on
    dev.play("#")  # (the deep sleep came at the same moment: the key woke it through a reboot)
    assert not dev.app.asleep and type(dev.app.screen).__name__ in ("Standings", "TableView")
    assert dev.app.session.game.total(0) == 89


def test_a_short_deep_sleep_setting_ends_the_lit_time_sooner():
    dev = device()
    dev.app.settings["deep_sleep"] = 10
    playing(dev)
    dev.play("wait:599000")
    assert not dev.app.asleep
    dev.play("wait:2000")
    assert dev.app.asleep


def test_never_sleeping_keeps_everything_lit_and_undimmed():
    dev = device()
    dev.app.settings["sleep"] = 0
    playing(dev)
    dev.play("wait:1810000")
    assert not dev.app.asleep and dev.chip.on and dev.chip.contrast == 127
