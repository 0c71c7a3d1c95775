# The registry of screens and languages: each screen's name, where it lives, whether its module is
# transient, whether it comes back after a deep sleep; the languages every text table must have.
#
# A new screen is its file, its texts (texts_<lang>.py for every language) and a row here;
# tests/host/test_screen_registry.py fails when any of them is missing. Screens are
# opened by name (app.open), their modules imported only then: nothing here imports a
# screen, the table is constant data that stays in flash.
#
# transient: once no open screen comes from its module, the app forgets the module
# (sys.modules and the ui package), so its code, several KB of heap each, can be
# collected; the next open imports it again. Every row of one module says the same.
# resumes: the screen comes back after a deep sleep with its Screen.resume_state()
# (ui/resume.py, which keeps its name in the record: renaming one makes old records a
# plain start); the stack is kept up to the first screen that does not, so the
# table sees that screen's parent. Questions, typing and the self-test never come back.

LANGUAGES = ("de", "en")  # texts_de.py, texts_en.py; ui/wifi_texts.py has a table for each too

#          name          module              class         transient resumes
SCREENS = (
    ("home", "ui.home", "Home", False, True),
    ("standings", "ui.standings", "Standings", False, True),
    ("entry", "ui.round_entry", "RoundEntry", False, True),
    ("rounds", "ui.rounds", "Rounds", False, True),
    ("over", "ui.game_over", "GameOver", False, True),
    ("confirm", "ui.confirm", "Confirm", False, False),
    ("history", "ui.history", "History", True, True),
    ("hgame", "ui.history_game", "HistoryGame", True, True),
    ("game_menu", "ui.history_game", "GameMenu", True, False),
    ("delete_confirm", "ui.history_game", "DeleteConfirm", True, False),
    ("settings", "ui.settings", "Settings", True, True),
    ("about", "ui.about", "About", True, True),
    ("setup", "ui.setup", "Setup", True, False),
    ("card_values", "ui.card_values", "CardValues", True, False),
    ("name_entry", "ui.name_entry", "NameEntry", True, False),
    ("roster_pick", "ui.roster_pick", "RosterPick", True, False),
    ("rules", "ui.rules", "Rules", True, False),
    ("table_view", "ui.table_view", "TableView", True, False),
    ("selftest", "ui.selftest", "SelfTest", True, False),
    ("text_entry", "ui.wifi_entry", "TextEntry", True, False),
    ("wifi_update", "ui.wifi_update", "WifiUpdate", True, False),
    ("tournament", "ui.tournament", "Offer", True, False),
)

# Modules of the ui package that hold no screen but are transient too: name entry's
# multi-tap and the Wi-Fi screens' texts go at every close (an open screen keeps what
# it imported from them).
TRANSIENT_HELPERS = ("ui.t9", "ui.wifi_texts")


def row(name):
    """The registry row of screen `name`; KeyError if there is none."""
    for entry in SCREENS:
        if entry[0] == name:
            return entry
    raise KeyError(name)


def load(name):
    """The class of screen `name`, its module imported now if it is not."""
    entry = row(name)
    return getattr(__import__(entry[1], None, None, (entry[2],)), entry[2])


def name_of(screen):
    """The registry name of an open screen, or None for one that is not registered."""
    cls = type(screen)
    module, cls_name = cls.__module__, cls.__name__
    for entry in SCREENS:
        if entry[2] == cls_name and entry[1] == module:
            return entry[0]
    return None


def resumes(name):
    """Whether screen `name` comes back after a deep sleep (False for a name not registered)."""
    for entry in SCREENS:
        if entry[0] == name:
            return entry[4]
    return False


def forget_closed(open_modules, resident=False):
    """Drop every transient module that no screen in `open_modules` (their __module__s) comes from;
    resident=True: the resident screens' modules too (while an update needs their heap)."""
    import sys

    modules = sys.modules
    for entry in SCREENS:
        if entry[3] or resident:
            _forget(modules, entry[1], open_modules)
    for name in TRANSIENT_HELPERS:
        _forget(modules, name, open_modules)


def _forget(modules, name, open_modules):
    if name in modules and name not in open_modules:
        del modules[name]
        ui = modules.get("ui")
        if ui is not None and hasattr(ui, name[3:]):
            delattr(ui, name[3:])
