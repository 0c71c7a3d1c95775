# The device's words: both languages have every text the firmware asks for, and every text fits a row.
#
# Read from the sources (CPython's ast and re): every t("key") and app.t("key") in firmware/, the keys
# built from names (the core's refusal codes, card ranks, home entries, boot notes), checked against
# the text table of every language ui/registry.py names; then every text, its placeholders filled with
# the widest thing they carry on screen, against the narrowest display's 16 columns (every board shows
# at least 16 x 8 text cells).
import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
COLS = 16


def constant(path, name):
    """The literal value of a module-level assignment `name = ...` in `path` (read, not imported)."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name:
            return ast.literal_eval(node.value)
    raise AssertionError("no %s in %s" % (name, path))


def table(lang):
    return dict(constant(FIRMWARE / "ui" / ("texts_%s.py" % lang), "TEXTS"))  # (key, text) pairs


LANGUAGES = constant(FIRMWARE / "ui" / "registry.py", "LANGUAGES")
TABLES = {lang: table(lang) for lang in LANGUAGES}
DE = TABLES["de"]  # the reference: every other table has its keys

# Texts that are not one row of a screen: date formats (filled by str.format) and the recovery
# screen's two-part lines are checked by their own screens' tests.
FORMATS = {"h_date", "h_date_long"}


def asked_for():
    """Every literal key the firmware passes to a t() of the app's tables."""
    keys = {}
    pattern = re.compile(r"""\bt\(\s*["']([a-z0-9_]+)["']\s*\)""")  # a whole key, not a prefix
    for path in FIRMWARE.rglob("*.py"):
        if "sim" in path.parts or path.name in ("wifi_texts.py", "wifi_update.py", "wifi_entry.py"):
            continue  # the Wi-Fi screens have their own table (ui/wifi_texts.py), checked there
        for key in pattern.findall(path.read_text(encoding="utf-8")):
            keys.setdefault(key, path.relative_to(ROOT))
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_the_same_keys(lang):
    assert sorted(set(DE) - set(TABLES[lang])) == [] and sorted(set(TABLES[lang]) - set(DE)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_firmware_asks_for_is_in_every_table(lang):
    keys = asked_for()
    assert len(keys) > 50  # the pattern still finds the calls
    missing = {key: str(where) for key, where in keys.items() if key not in TABLES[lang]}
    assert missing == {}


def test_every_refusal_of_the_core_has_words_in_both_languages():
    source = (ROOT / "lib" / "tafel" / "game.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'ScoreError\([^\n]*?,\s*"([a-z_]+)"\)', source.replace("\n                             ", " ")))
    assert {"game_ended", "edit_conflict", "no_undo", "pick_winner"} <= codes
    assert sorted(code for code in codes | {"refused"} if "err_" + code not in DE) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_names_built_in_code_have_texts(lang):
    built = []
    for ranks, label in constant(FIRMWARE / "ui" / "standings.py", "_GROUPS"):  # the card values' labels
        built += [label] + ["v_" + rank for rank in ranks]
    from tafel.cards import RANKS

    built += ["cv_" + rank for rank in RANKS if not rank.isdigit()]  # ui/card_values.py: a card's name
    home = (FIRMWARE / "ui" / "home.py").read_text(encoding="utf-8")
    built += re.findall(r'"([a-z_]+)"', re.search(r"ACTIONS = \(([^)]*)\)", home).group(1))
    startup = (FIRMWARE / "startup.py").read_text(encoding="utf-8")
    built += re.findall(r'"([a-z_]+)"', re.search(r"_SHOWN = \(([^)]*)\)", startup, re.S).group(1))
    history = (FIRMWARE / "ui" / "history.py").read_text(encoding="utf-8")
    built += re.findall(r'"([a-z_]+)"', re.search(r"STATES = \(([^)]*)\)", history).group(1))
    assert len(built) > 25
    assert sorted(key for key in built if key not in TABLES[lang]) == []


def _filled(text):
    # %d: four digits (a round, a count of games), a percentage 100; %s: a short word (names are cut
    # to fit by their screens before they are put in)
    return text.replace("%d%%", "100%").replace("%d", "9999").replace("%%", "%").replace("%s", "Ab")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_fits_the_narrowest_display(lang):
    texts = TABLES[lang]
    too_long = {key: _filled(text) for key, text in texts.items()
                if key not in FORMATS and len(_filled(text)) > COLS}
    assert too_long == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_is_a_key_or_english_in_the_german_table(lang):
    texts = TABLES[lang]
    assert sorted(key for key, text in texts.items() if re.fullmatch(r"[a-z]+(_[a-z0-9]+)+", text)) == []
    if lang == "de":  # the words the issue saw leak into German screens
        for word in ("this change", "the game", "no_network", "no_server", "winner"):
            assert [key for key, text in DE.items() if word in text.lower()] == []
