# The device's storage report (INFO: what the boot check found and did) in plain words, a sentence a note.
#
# A note is {"key", "game", "detail"} (wire.parse_info). The device sends a
# game's id in "game" when the note is about one game; an older firmware
# sent it as the detail text for notes whose whole detail is a game id
# (game_lost, torn_tail_repaired, ...): named() moves it to "game". Keys this
# table does not know are still told, in words.

from ..lang import say as _say
from ..lang import text as _text

# Notes about one game (told after "game 7": the texts' note_<key>), and about the flash as a
# whole ({} is the detail); the sentences are in texts_en.py / texts_de.py.
_GAME = ("game_damaged", "game_unreadable", "game_lost", "rounds_missing", "game_mended", "game_rebuilt",
         "copy_mended", "torn_tail_repaired", "game_set_aside")
_OTHER = ("index_damaged", "index_rebuilt", "settings_damaged", "roster_damaged", "flash_low", "flash_full",
          "flash_formatted", "more")


def game_of(note):
    """The game a note is about, or None."""
    if note.get("game"):
        return note["game"]
    detail = note.get("detail") or ""
    return int(detail) if note["key"] in _GAME and detail.isdigit() else None


def named(note):
    """The note as the export writes it: {"key", "game", "detail"}, the game's id in "game" whatever
    firmware sent it (and not again as the detail)."""
    game, detail = game_of(note), note.get("detail")
    if game is not None and detail is not None and detail.isdigit() and int(detail) == game:
        detail = None
    return {"key": note["key"], "game": game, "detail": detail}


def say(note):
    """One note as a sentence: 'game 7 rebuilt from its second copy'."""
    key, detail, game = note["key"], note.get("detail"), game_of(note)
    if key in _GAME or game is not None:
        what = _text("note_" + key) if key in _GAME else key.replace("_", " ")
        extra = detail if detail and not (detail.isdigit() and int(detail) == game) else None
        return _say("note_game", game if game is not None else "?", what) + (" (%s)" % extra if extra else "")
    if key in _OTHER:
        text = _text("note_" + key)
        return text.format(detail or "?") if "{}" in text else text + (" (%s)" % detail if detail else "")
    return key.replace("_", " ") + (": %s" % detail if detail else "")


# What the table must know after an export: something is lost, damaged or set aside (the rest of
# the report, such as a copy made whole again, is for `tafel info`).
LOSSES = ("game_lost", "rounds_missing", "game_damaged", "game_unreadable", "game_set_aside", "mend_failed",
          "index_damaged", "settings_damaged", "roster_damaged", "flash_full", "more")


def losses(report):
    """The report's notes that tell of loss or damage, each as a sentence; [] for none (or no report)."""
    return [say(note) for note in report or () if note.get("key") in LOSSES]
