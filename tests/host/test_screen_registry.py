# The registry of screens (firmware/ui/registry.py) against the sources: every screen, every way into one,
# every language.
#
# Read from the files (CPython's ast and re), so a screen added without its row, a row left
# behind by a removed screen, a name opened that nobody registered or a language without its
# texts fails here; tests/firmware/test_ui_registry.py runs the registry itself on MicroPython.
import ast
import re
from pathlib import Path

from test_screen_texts import constant

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
UI = FIRMWARE / "ui"


SCREENS = constant(UI / "registry.py", "SCREENS")
LANGUAGES = constant(UI / "registry.py", "LANGUAGES")
HELPERS = constant(UI / "registry.py", "TRANSIENT_HELPERS")
NAMES = {row[0]: row for row in SCREENS}


def screen_classes():
    """(module, class) of every class in firmware/ui that is a Screen, by its bases' names (not the
    bases screens are made of: ListScreen, and a module's own private ones such as _Unchanged)."""
    bases = {}
    for path in UI.glob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                names = [getattr(b, "id", getattr(b, "attr", None)) for b in node.bases]
                bases[("ui." + path.stem, node.name)] = names
    by_name = {key[1]: key for key in bases}

    def is_screen(key, seen=()):
        for base in bases[key]:
            if base == "Screen" or (base in by_name and by_name[base] not in seen
                                    and is_screen(by_name[base], seen + (key,))):
                return True
        return False

    return {key for key in bases if is_screen(key) and key != ("ui.screen", "ListScreen") and not key[1].startswith("_")}


def opened_names():
    """Every screen name the firmware opens by name: app.open("...") and the menus' tables."""
    found = {}
    for path in FIRMWARE.rglob("*.py"):
        if "sim" in path.parts:
            continue
        for name in re.findall(r"""\bapp\.open\(\s*["']([a-z0-9_]+)["']""", path.read_text(encoding="utf-8")):
            found.setdefault(name, path.relative_to(ROOT))
    for name in constant(UI / "home.py", "OPENS"):
        if name is not None:
            found.setdefault(name, "ui/home.py OPENS")
    for name in constant(UI / "settings.py", "OPENS").values():
        found.setdefault(name, "ui/settings.py OPENS")
    return found


def test_every_row_is_complete_and_every_name_is_unique():
    for row in SCREENS:
        assert len(row) == 5, row
        name, module, cls, transient, resumes = row
        assert re.fullmatch(r"[a-z0-9_]+", name) and module.startswith("ui.") and cls[:1].isupper(), row
        assert type(transient) is bool and type(resumes) is bool, row
    assert len(NAMES) == len(SCREENS)


def test_every_screen_of_the_ui_is_registered_and_every_row_is_a_screen():
    registered = {(row[1], row[2]) for row in SCREENS}
    found = screen_classes()
    assert len(found) > 15  # the class scan still finds the screens
    assert sorted(found - registered) == []  # a screen without its row
    assert sorted(registered - found) == []  # a row whose screen is gone or moved


def test_a_module_is_transient_or_resident_in_every_row():
    kinds = {}
    for _, module, _, transient, _ in SCREENS:
        kinds.setdefault(module, set()).add(transient)
    assert {module: kind for module, kind in kinds.items() if len(kind) > 1} == {}


def test_the_screens_that_stay_in_ram_are_the_everyday_ones():
    # The evening's screens stay imported (opening them must not cost a compile or a
    # fragmented heap); every other screen's module goes once closed.
    resident = sorted({row[1] for row in SCREENS if not row[3]})
    assert resident == ["ui.confirm", "ui.game_over", "ui.home", "ui.round_entry", "ui.rounds", "ui.standings"]


def test_the_transient_helpers_are_modules_without_screens():
    screen_modules = {row[1] for row in SCREENS}
    for module in HELPERS:
        assert (UI / (module[3:] + ".py")).is_file(), module
        assert module not in screen_modules


def test_home_comes_back_after_a_deep_sleep_and_questions_never_do():
    assert NAMES["home"][4] is True  # a record starts with home (ui/resume.py)
    for name in ("confirm", "delete_confirm", "name_entry", "text_entry", "selftest", "setup"):
        assert NAMES[name][4] is False, name


def test_the_names_kept_in_resume_records_have_not_changed():
    # A record written before an update must still come back after it (renaming one is a plain start).
    resumed = sorted(row[0] for row in SCREENS if row[4])
    assert resumed == ["about", "entry", "hgame", "history", "home", "over", "rounds", "settings", "standings"]


def test_every_screen_opened_by_name_is_registered():
    found = opened_names()
    assert len(found) > 10  # the pattern still finds the calls
    assert {name: str(where) for name, where in found.items() if name not in NAMES} == {}


def test_no_screen_is_pushed_past_the_registry_from_another_module():
    # A registered screen made directly by another module would bypass its row (and its module's
    # import): only a module's own screens are pushed by class.
    classes = {row[2]: row[1] for row in SCREENS}
    stray = []
    for path in FIRMWARE.rglob("*.py"):
        if "sim" in path.parts:
            continue
        module = ".".join(path.relative_to(FIRMWARE).with_suffix("").parts)
        for cls in re.findall(r"\bpush\(\s*([A-Z]\w*)\(", path.read_text(encoding="utf-8")):
            if cls in classes and classes[cls] != module:
                stray.append("%s pushes %s" % (module, cls))
    assert stray == []


def test_every_language_has_its_tables_everywhere():
    assert len(LANGUAGES) >= 2 and LANGUAGES[0] == "de"
    tables = sorted(path.stem[len("texts_"):] for path in UI.glob("texts_*.py"))
    assert tables == sorted(LANGUAGES)
    assert sorted(lang for lang, _ in constant(UI / "wifi_texts.py", "TEXTS")) == sorted(LANGUAGES)  # pairs
    assert constant(UI / "settings.py", "DEFAULTS")["lang"] == LANGUAGES[0]  # the fallback everywhere
    for lang in LANGUAGES:
        texts = dict(constant(UI / ("texts_%s.py" % lang), "TEXTS"))  # (key, text) pairs
        assert ["lang_" + other for other in LANGUAGES if "lang_" + other not in texts] == [], lang
