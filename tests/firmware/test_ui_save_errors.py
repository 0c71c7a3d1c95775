# What each screen says when a change is not saved, on the simulated device: the flash's refusal
# slow: every save path, three errors each, on whole devices
# (the store's StoreError, an OSError of the file system) shows its reason and is logged; any
# other exception is a bug, which the screen does not catch: the app's guard logs it, brings the
# game back from flash and says "Fehler! Spiel ok", never "Speicher voll".
from store.errors import StoreError
from test_ui_history import history
from test_ui_wifi import KEY, SETTINGS, SSID, WLAN
from uisim import device, new_game

WORKED = "A D 3 6 D 5 0 B 3"  # round entry of the worked example (Anna 89), not yet checked
FULL = StoreError("flash_full", 12)
CRASHED = "Fehler! Spiel ok"


def raising(err):
    def fail(*args, **kwargs):
        raise err
    return fail


def a_round_saved():
    dev = device()
    new_game(dev)
    dev.play(WORKED + " # #")
    assert dev.screen()[1].split()[:2] == ["Anna", "89"]
    return dev


def said(dev):
    return dev.app.message[0] if dev.app.message is not None else None


def round_entry(err):
    dev = device()
    new_game(dev)
    dev.app.session.save_round = raising(err)
    dev.play(WORKED + " # #")
    return dev


def undo(err):
    dev = a_round_saved()
    dev.app.session.undo_round = raising(err)
    dev.play("A #")
    return dev


def end_game(err):
    dev = a_round_saved()
    dev.app.session.finish = raising(err)
    dev.play("B D # #")  # the rounds, "end the game", yes
    return dev


def start_game(err):
    dev = device()
    dev.app.session.start = raising(err)
    new_game(dev)
    return dev


def display_sleep(err):
    dev = a_round_saved()
    dev.app.store.save_settings = raising(err)
    dev.play("* " + SETTINGS + " D #")  # home, settings, the display's sleep: the next choice
    return dev


def wifi_network(err):
    dev = a_round_saved()
    dev.app.store.save_settings = raising(err)
    dev.play("* " + SETTINGS + " " + WLAN + " " + SSID + " " + KEY + " # #")
    return dev


def delete_game(err):
    dev = a_round_saved()
    dev.app.store.delete_game = raising(err)
    history(dev)
    dev.play("# # D # #")  # the game, its menu, delete, yes
    return dev


SAVE_PATHS = (round_entry, undo, end_game, start_game, display_sleep, wifi_network, delete_game)
NOT_SAVED = (round_entry, undo, end_game)  # these say "not saved" before the reason


def expected(path, reason):
    return "Nicht gesichert!: " + reason if path in NOT_SAVED else reason


def test_a_full_flash_is_said_as_full_and_logged_on_every_save_path():
    for path in SAVE_PATHS:
        dev = path(FULL)
        assert said(dev) == expected(path, "Speicher voll"), (path.__name__, said(dev))
        assert dev.errors == [FULL], path.__name__


def test_a_file_system_error_is_a_flash_error_and_no_space_left_is_a_full_flash():
    for path in SAVE_PATHS:
        dev = path(OSError(5))
        assert said(dev) == expected(path, "Flash-Fehler"), (path.__name__, said(dev))
        assert len(dev.errors) == 1 and type(dev.errors[0]) is OSError, path.__name__
    dev = round_entry(OSError(28))
    assert said(dev) == expected(round_entry, "Speicher voll")


def test_a_bug_in_a_save_path_is_logged_and_recovered_never_called_a_full_flash():
    for path in SAVE_PATHS:
        bug = TypeError("a bug, not the flash")
        dev = path(bug)
        assert said(dev) == CRASHED, (path.__name__, said(dev))
        assert bug in dev.errors, path.__name__
        session = dev.app.session
        if session.game is not None:  # the game as the flash has it, on its standings
            assert dev.screen()[0].startswith("Stand"), (path.__name__, dev.screen())
