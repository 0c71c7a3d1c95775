# Deep sleep on the simulated device: it comes after the idle time (display
# slow: sleeps and wakes through reboots
# already dark), a key wakes it through a reboot, and the same screen comes
# back: standings with the same totals, round entry with what was typed, the
# history, a stored game, the settings, game over, a game continued from the
# history. A question on top comes back as the screen below it. A deep sleep
# never loses a saved round and writes nothing to flash; a power cut in deep
# sleep is a plain power-on; a record that does not fit is a plain start.
from power import encode
from sim.device import Device
from sim.flashdev import FlashDev
from ui import resume
from uisim import PROFILE, device, new_game, power_cut, text

WORKED = "A D 3 6 D 5 0 B 3"  # round entry of the worked example, not yet checked
IDLE = "wait:61000"  # a minute and a bit: the display goes dark, then the device sleeps


def sleepy(dev, minutes=1):
    """Deep sleep after `minutes` (saved, so it holds after a wake)."""
    dev.app.settings["deep_sleep"] = minutes
    dev.app.store.save_settings(dev.app.settings)


def game_with_a_round(dev):
    new_game(dev)
    dev.play(WORKED + " # #")
    assert dev.screen()[1].split()[:2] == ["Anna", "89"]


def sleep_and_wake(dev, key="7"):
    before = dev.screen()
    dev.play(IDLE)
    assert dev.asleep, text(dev)
    app = dev.app
    dev.play(key)
    assert not dev.asleep and dev.app is not app  # woken by a reboot
    assert dev.power.woke
    return before


def test_it_sleeps_after_the_idle_time_and_a_key_brings_back_the_standings():
    dev = device()
    game_with_a_round(dev)
    sleepy(dev)
    before = dev.screen()
    dev.play("wait:59000")
    assert not dev.asleep and not dev.app.asleep
    dev.play("wait:2000")
    assert dev.asleep and dev.app.asleep  # the display went dark first
    assert dev.chip.glass() == bytearray(1024)
    dev.play("CW CCW wait:600000")  # a turn of the knob is no wake source
    assert dev.asleep
    dev.play("7")
    assert not dev.asleep and dev.power.woke
    assert dev.screen()[:7] == before[:7]  # the same standings; the 7 only woke it
    assert dev.app.session.game.total(0) == 89 and len(dev.app.session.game.rounds) == 1
    dev.play("#")  # and on with the game
    assert dev.screen()[0].startswith("R2")
    assert dev.errors == []


def test_the_keys_and_the_push_button_wake_it_and_turns_do_not():
    dev = device()
    assert sorted(dev.power.wakes) == sorted(list("0123456789ABCD*#") + ["PUSH"])
    sleepy(dev)
    for key in ("PUSH", "#", "*"):
        before = sleep_and_wake(dev, key)
        assert dev.screen() == before  # home, the cursor where it was; the key did nothing
    assert dev.power.sleeps == 3
    assert dev.errors == []


def test_round_entry_comes_back_with_what_was_typed_and_it_is_not_saved():
    dev = device()
    new_game(dev)
    sleepy(dev)
    dev.play(WORKED)
    before = sleep_and_wake(dev, "PUSH")
    assert dev.screen()[:7] == before[:7]
    assert dev.screen()[7] in ("Anna +89", "")
    assert len(dev.app.session.game.rounds) == 0  # typed, still not saved
    dev.play("# #")  # the result, then saved
    assert dev.screen()[1].split()[:2] == ["Anna", "89"] and len(dev.app.session.game.rounds) == 1
    assert dev.errors == []


def test_an_edit_comes_back_as_the_edit():
    dev = device()
    game_with_a_round(dev)
    sleepy(dev)
    dev.play("B #")  # the rounds, edit round 1
    dev.play("D D *")  # Cleo's hand: 53 -> 5
    before = sleep_and_wake(dev)
    assert dev.screen()[0] == before[0] == "Runde ändern 1"
    assert dev.screen()[1:4] == before[1:4] and dev.screen()[3].split()[:2] == ["►Cleo", "5"]
    dev.play("0 # #")  # 50: the result, saved
    assert dev.screen()[1].split()[:2] == ["Anna", "86"]
    assert dev.errors == []


def test_the_history_and_a_stored_game_come_back():
    dev = device()
    game_with_a_round(dev)
    sleepy(dev)
    dev.play("*")  # home
    dev.play("3")  # history
    assert dev.screen()[0].startswith("Verlauf")
    dev.play("# D D D")  # the game, scrolled down
    before = sleep_and_wake(dev)
    assert dev.screen()[:7] == before[:7]
    dev.play("*")
    assert dev.screen()[0].startswith("Verlauf") and dev.screen()[1].startswith("►")
    dev.play("*")
    assert dev.screen()[0] == "Tafel" and dev.screen()[3] == "►3 Verlauf"
    assert dev.errors == []


def test_the_settings_come_back_scrolled_as_they_were():
    dev = device()
    sleepy(dev)
    dev.play("4 D D D")  # settings, down to deep sleep
    before = sleep_and_wake(dev)
    assert dev.screen() == before and before[1] == "Display aus nach"
    assert before[3] == "Kontrast" and before[5] == "Tiefschlaf nach"  # scrolled, the cursor on it
    dev.play("*")
    assert dev.screen()[0] == "Tafel"
    assert dev.errors == []


def test_a_question_on_top_comes_back_as_the_screen_below():
    dev = device()
    game_with_a_round(dev)
    sleepy(dev)
    dev.play("A")  # undo the round? (not answered)
    assert "1" in dev.screen()[2]
    sleep_and_wake(dev, "#")  # a # that only wakes: it does not say yes
    assert dev.screen()[0].startswith("Stand R1")
    assert len(dev.app.session.game.rounds) == 1
    assert dev.errors == []


def test_game_over_comes_back():
    dev = device()
    new_game(dev, target="A")  # target 200: the first round ends it
    sleepy(dev)
    dev.play("A D 9 9 9 D 9 9 # #")  # saved: game over shows at once
    assert dev.screen()[0] == "Spielende"
    before = sleep_and_wake(dev)
    assert dev.screen()[:7] == before[:7]
    dev.play("#")  # to the home menu: no game left to continue
    assert dev.screen()[0] == "Tafel" and "Weiter" not in text(dev)
    assert dev.errors == []


def test_a_game_continued_from_the_history_comes_back_not_the_newest():
    dev = device()
    game_with_a_round(dev)  # game 1
    dev.play("*")
    new_game(dev, names=("2 2 # ", "3 3 # "))  # game 2 (game 1 put away)
    dev.play("*")  # leave round entry: standings of game 2
    dev.play("* D D #")  # home, history
    dev.play("D # # #")  # the older game, its menu, continue
    assert dev.screen()[1].split()[:2] == ["Anna", "89"]
    sleepy(dev)
    sleep_and_wake(dev)
    assert dev.screen()[1].split()[:2] == ["Anna", "89"] and dev.app.session.game_id == 1
    assert dev.errors == []


def test_a_deep_sleep_never_loses_a_saved_round_and_writes_nothing():
    dev = device()
    game_with_a_round(dev)
    sleepy(dev)
    dev.play("wait:59000")
    ops = dev.flash.ops
    dev.play("wait:2000")
    assert dev.asleep and dev.flash.ops == ops  # the record is in the RTC memory, not on flash
    dev = power_cut(dev)  # the plug pulled in deep sleep: a plain power-on
    assert not dev.power.woke
    assert dev.screen()[0].startswith("Stand R1") and dev.screen()[1].split()[:2] == ["Anna", "89"]
    dev.play("* D D #")  # into the history, and asleep again
    sleep_and_wake(dev)
    assert dev.screen()[0].startswith("Verlauf")
    dev = power_cut(dev)  # awake again, then the plug: standings, as after any power-on
    assert dev.screen()[0].startswith("Stand R1") and dev.screen()[1].split()[:2] == ["Anna", "89"]
    assert dev.errors == []


def test_never_means_never():
    dev = device()
    sleepy(dev, 0)
    dev.play("wait:121000")
    assert dev.app.asleep and not dev.asleep  # display dark, device awake
    dev.play("D")
    sleepy(dev, 1)
    dev.app.settings["sleep"] = 0  # the display never goes dark: no deep sleep either
    dev.play("wait:121000")
    assert not dev.app.asleep and not dev.asleep
    dev.app.settings["deep_sleep"] = "1"  # damaged: the default (30 min) holds
    dev.app.settings["sleep"] = 60
    dev.play("D wait:121000")
    assert not dev.asleep
    assert dev.errors == []


def test_the_wall_clock_goes_on_through_the_sleep():
    dev = Device(PROFILE, flash=FlashDev(), epoch=1700000000)
    dev.errors = []
    dev.app.log = dev.errors.append
    sleepy(dev)
    dev.play(IDLE)
    assert dev.asleep
    dev.play("wait:3600000 5")
    now = dev.app.clock.time()
    assert 1700000000 + 3660 <= now <= 1700000000 + 3662
    assert dev.errors == []


def test_a_record_that_does_not_fit_is_a_plain_start():
    dev = device()
    game_with_a_round(dev)
    errors = dev.errors
    for bad in ({"g": 1, "t": 0, "s": [["home", 0], ["standings", None], ["nonsense", 1]]},
                {"g": 99, "t": 0, "s": [["home", 0], ["standings", None]]},
                {"g": 1, "t": 0, "s": [["standings", None]]},
                {"g": 1, "t": 0, "s": [["home", 0], ["entry", [7, [], None, 0]]]}):
        dev.power.memory = encode(bad)
        dev.power.sleeping = True
        dev.play("5")
        assert dev.screen()[0].startswith("Stand R1"), bad  # as after any power-on
        dev.play("wait:10")
    assert len(errors) == 3  # logged: the screens that failed to come back
    errors[:] = []
    dev.power.memory = b"\x00garbage"
    dev.power.sleeping = True
    dev.play("5")
    assert dev.screen()[0].startswith("Stand R1")
    dev.play("B")
    assert dev.screen()[0].startswith("Runden")  # it works on as always
    assert errors == []


def test_the_record_is_small():
    dev = device()
    new_game(dev, names=[k + " #" for k in "23456789"] + ["2 2 #"])  # nine seats
    dev.play(" ".join((["8 0 0 0 B"] * 7 + ["8 0 0 0 D"]) * 9))  # the longest hands there are
    rec = resume.record(dev.app)
    assert rec["s"][-1][0] == "entry" and rec["s"][-1][1][1] == ["8000+" * 7 + "8000"] * 9
    assert len(encode(rec)) < 600
    sleepy(dev)
    before = sleep_and_wake(dev)
    assert dev.screen()[:7] == before[:7] and dev.app.screen.entry == ["8000+" * 7 + "8000"] * 9
    assert dev.errors == []


def test_a_power_that_cannot_sleep_leaves_the_device_awake_and_working():
    dev = device()
    game_with_a_round(dev)
    sleepy(dev)

    def refuse(record):
        raise OSError(22)

    dev.power.deep_sleep = refuse
    dev.play(IDLE)
    assert not dev.asleep and dev.app.asleep and len(dev.errors) == 1  # logged
    dev.play("7 #")  # the first key only lights the display
    assert dev.screen()[0].startswith("R2")
