# The registry of screens on MicroPython: every row imports as a screen, screens open by name,
# transient modules leave RAM once closed, resume records keep the registry's names.
# (tests/host/test_screen_registry.py checks the registry against the sources.)
import sys

import pytest

from ui import registry, resume
from ui.screen import Screen
from uisim import device, new_game


def test_every_registered_screen_imports_as_a_screen_of_its_module():
    for name, module, cls, _, _ in registry.SCREENS:
        screen = registry.load(name)
        assert issubclass(screen, Screen) and screen.__name__ == cls, name
        assert screen.__module__ == module, name


def test_an_unknown_name_opens_nothing():
    dev = device()
    depth = len(dev.app.stack)
    with pytest.raises(KeyError):
        dev.app.open("no_such_screen")
    assert len(dev.app.stack) == depth and registry.resumes("no_such_screen") is False


def test_a_screen_opens_by_name_with_its_arguments():
    dev = device()
    answers = []
    dev.app.open("confirm", "Sicher?", lambda: answers.append("yes"))
    assert registry.name_of(dev.app.screen) == "confirm"
    dev.play("wait:20")  # drawn at the next step
    assert dev.screen()[2].strip() == "Sicher?"
    dev.play("#")
    assert answers == ["yes"] and registry.name_of(dev.app.screen) == "home"
    assert dev.errors == []


def test_a_transient_screens_module_leaves_ram_when_closed_and_a_resident_one_stays():
    dev = device()
    dev.play("4")  # settings
    assert "ui.settings" in sys.modules
    dev.play("*")
    assert "ui.settings" not in sys.modules and "ui.home" in sys.modules
    dev.play("6")  # about, then back: gone too
    assert "ui.about" in sys.modules
    dev.play("*")
    assert "ui.about" not in sys.modules
    assert dev.errors == []


def test_a_transient_module_stays_while_a_screen_from_it_is_open():
    dev = device()
    dev.play("1")  # setup
    dev.play("D D # #")  # + add player: the roster, then a new name (name entry over setup)
    assert registry.name_of(dev.app.screen) == "name_entry"
    assert "ui.setup" in sys.modules and "ui.name_entry" in sys.modules
    dev.play("*")  # back to the roster pick
    assert "ui.setup" in sys.modules
    assert dev.errors == []


def test_the_record_names_the_resumable_screens_and_stops_at_the_first_that_is_not():
    dev = device()
    new_game(dev)
    dev.play("A D 3 6 D 5 0 B 3 # #")  # a round saved: the standings
    dev.play("A")  # undo? a question on top
    names = [entry[0] for entry in resume.record(dev.app)["s"]]
    assert names == ["home", "standings"]
    dev.play("*")  # no
    dev.play("B")  # the rounds
    names = [entry[0] for entry in resume.record(dev.app)["s"]]
    assert names == ["home", "standings", "rounds"]
    assert dev.errors == []
