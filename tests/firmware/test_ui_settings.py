# Settings and About on the simulated device: language, display sleep and
# contrast apply at once and survive a reboot; a failed save says so; the
# about page; wrong keys; the texts of these screens fit the display.
from store.errors import StoreError
from tafel.version import VERSION
from ui import texts_de, texts_en
from uisim import device, power_cut

DE, EN = dict(texts_de.TEXTS), dict(texts_en.TEXTS)  # (key, text) pairs, looked up here as dicts

SETTINGS = "4"  # from the home menu: its entries keep their digits
ABOUT = "6"


def fresh_home(dev):
    dev.app.home()
    dev.play("wait:10")


def settings(dev):
    fresh_home(dev)
    dev.play(SETTINGS)


def test_settings_show_the_current_values():
    dev = device()
    settings(dev)
    screen = dev.screen()
    assert screen[0] == "Einstellungen"
    assert screen[1] == "Sprache/Language" and screen[2].strip() == "Deutsch"
    assert screen[3] == "Display aus nach" and screen[4].strip() == "1 min"
    assert screen[5] == "Kontrast" and screen[6].strip() == "normal"
    assert screen[7] == "#+ B- *=zurück"  # # and A the next value, B the previous


def test_language_switch_applies_at_once_and_survives_a_reboot():
    dev = device()
    settings(dev)
    dev.play("#")
    screen = dev.screen()
    assert screen[0] == "Settings" and screen[2].strip() == "English"
    assert screen[-1] == "Saved"
    dev.play("*")
    assert dev.screen()[1:7] == [" 1 New game", " 2 (no game)", " 3 History", "►4 Settings", " 5 Rules", " 6 About"]
    assert dev.app.store.settings["lang"] == "en"
    dev = power_cut(dev)
    assert dev.screen()[1] == "►1 New game"
    settings(dev)
    dev.play("B")  # and back
    assert dev.screen()[0] == "Einstellungen"
    dev = power_cut(dev)
    assert dev.screen()[1] == "►1 Neues Spiel"
    assert dev.errors == []


def test_b_takes_the_previous_value_of_every_setting():
    dev = device()
    settings(dev)
    dev.play("D B")  # display sleep: 1 min -> 30 s
    assert dev.screen()[4].strip() == "30 s" and dev.app.settings["sleep"] == 30
    dev.play("B B")  # -> never -> 5 min: round the other way
    assert dev.app.settings["sleep"] == 300
    dev.play("#")  # and forward again
    assert dev.app.settings["sleep"] == 0


def test_sleep_setting_applies_and_survives_a_reboot():
    dev = device()
    settings(dev)
    dev.play("D #")  # 1 min -> 5 min
    assert dev.screen()[4].strip() == "5 min" and dev.app.settings["sleep"] == 300
    dev.play("# #")  # never -> 30 s
    assert dev.screen()[4].strip() == "30 s"
    dev.play("wait:29000")
    assert not dev.app.asleep
    dev.play("wait:1500")
    assert dev.app.asleep  # the display went dark after 30 s without a key
    dev.play("D")  # a key only wakes it
    assert not dev.app.asleep and dev.screen()[3] == "Display aus nach"
    dev.play("B")  # 30 s -> never
    assert dev.screen()[4].strip() == "nie"
    dev.play("wait:61000")  # longer than any other choice but 5 min
    assert not dev.app.asleep
    dev = power_cut(dev)
    assert dev.app.settings["sleep"] == 0
    settings(dev)
    assert dev.screen()[4].strip() == "nie"
    assert dev.errors == []


def test_contrast_applies_at_once_and_is_kept():
    dev = device()
    settings(dev)
    assert dev.chip.contrast == 127
    dev.play("D D #")
    assert dev.screen()[6].strip() == "hell" and dev.chip.contrast == 255
    dev.play("# #")  # wraps round to the dimmest, then one up
    assert dev.screen()[6].strip() == "mittel" and dev.chip.contrast == 64
    dev.play("CW CW CW CW CW CW CW CW PUSH")  # the rotary: down eight times (round to contrast), push = next
    assert dev.screen()[6].strip() == "normal" and dev.chip.contrast == 127
    dev.play("B")
    dev = power_cut(dev)
    assert dev.app.settings["contrast"] == 64
    assert dev.chip.contrast == 64  # applied again at start-up
    settings(dev)
    assert dev.screen()[6].strip() == "mittel"


def test_a_failed_save_says_so_and_the_change_holds_until_restart():
    dev = device()
    settings(dev)

    def refuse(values):
        raise StoreError("flash_full", 3)

    dev.app.store.save_settings = refuse
    dev.play("#")
    assert dev.screen()[0] == "Settings"  # in force anyway
    assert dev.screen()[-1] == "Flash full"
    dev.play("wait:3000")
    assert dev.screen()[-1] == "Only till reboot"
    dev.play("D")  # the note goes with the next key
    assert dev.screen()[-1] == "#+ B- *=back"
    dev = power_cut(dev)
    assert dev.screen()[1] == "►1 Neues Spiel"


def test_about_shows_version_display_flash_games_and_ram():
    dev = device()
    dev.app.session.start(("Anna", "Ben"), "standard", 500)
    fresh_home(dev)
    dev.play(ABOUT)
    screen = dev.screen()
    assert screen[0] == "Info"
    assert screen[1].split() == ["Version", VERSION]
    assert screen[2].split() == ["Display", "128x64"]
    assert screen[3].split() == ["Flash", "2048", "KB"]
    free = screen[4].split()
    assert free[0] == "frei" and 0 < int(free[1]) < 2048
    assert screen[5].split() == ["Spiele", "1"]
    assert screen[6].startswith("RAM frei") and screen[6].endswith(" KB")
    dev.play("wait:5000 #")
    assert dev.screen()[0] == "Tafel"
    assert dev.errors == []


def test_wrong_keys_change_nothing():
    dev = device()
    settings(dev)
    before = dev.screen()
    kept = dict(dev.app.settings)
    dev.play("0 1 5 9 wait:3000")
    assert dev.screen() == before and dev.app.settings == kept
    assert dev.app.store.settings == {}  # nothing written either
    fresh_home(dev)
    dev.play(ABOUT)
    before = dev.screen()
    dev.play("0 7 A B C D CW CCW")
    assert dev.screen()[:6] == before[:6] and dev.screen()[0] == "Info"
    assert dev.errors == []


MINE = ("h_", "set_", "lang_", "sleep_", "contrast_", "ab_")


def test_the_texts_of_these_screens_exist_in_both_languages_and_fit():
    mine = [k for k in DE if k.startswith(MINE)]
    assert len(mine) > 30
    assert sorted(mine) == sorted(k for k in EN if k.startswith(MINE))
    for table in (DE, EN):
        for k in mine:
            text = table[k]
            if "{" in text:
                text = text.format(d=31, m=12, y=2099)
            elif "%d" in text:
                text = text % 99999
            assert len(text) <= 16, (k, text)
