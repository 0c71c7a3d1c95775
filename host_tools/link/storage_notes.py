# The device's storage report (INFO: what the boot check found and did) in plain English, a sentence a note.
#
# A note is {"key", "game", "detail"} (wire.parse_info). The device sends a
# game's id in "game" when the note is about one game; an older firmware
# sent it as the detail text for notes whose whole detail is a game id
# (game_lost, torn_tail_repaired, ...): named() moves it to "game". Keys this
# table does not know are still told, in words.

_GAME = {  # notes about one game: what happened to it, after "game 7"
    "game_damaged": "had damaged records: set aside, their bytes kept and exported",
    "game_unreadable": "cannot be read: its bytes are kept and exported",
    "game_lost": "is listed, but its journal is gone from both copies",
    "rounds_missing": "has fewer rounds than the device had confirmed as saved: check the paper or "
                      "another laptop's copy for the rest",
    "game_mended": "was damaged in one copy and rebuilt from its second copy: nothing lost",
    "game_rebuilt": "rebuilt from its second copy",
    "copy_mended": "had a copy that lagged behind (a power cut between its two writes): made whole",
    "torn_tail_repaired": "had a save cut short by a power cut: removed, nothing confirmed was lost",
    "game_set_aside": "exists only as set-aside bytes: tafel export takes them home",
}
_OTHER = {  # notes about the flash as a whole; {} is the detail
    "index_damaged": "the history index was damaged ({}); it was rebuilt from the journals",
    "index_rebuilt": "{} history entries rebuilt from the journals",
    "settings_damaged": "the settings were damaged: defaults are in use (the bytes are kept)",
    "roster_damaged": "the player roster was damaged: it is empty now (the bytes are kept)",
    "flash_low": "the flash is nearly full: {} KB free",
    "flash_full": "the flash is full ({} KB free): new games are refused",
    "flash_formatted": "the flash was blank or its first format was cut short; it was formatted",
    "more": "{} more notes did not fit",
}


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
        what = _GAME.get(key) or key.replace("_", " ")
        extra = detail if detail and not (detail.isdigit() and int(detail) == game) else None
        return "game %s %s%s" % (game if game is not None else "?", what, " (%s)" % extra if extra else "")
    if key in _OTHER:
        text = _OTHER[key]
        return text.format(detail or "?") if "{}" in text else text + (" (%s)" % detail if detail else "")
    return key.replace("_", " ") + (": %s" % detail if detail else "")


# What the table must know after an export: something is lost, damaged or set aside (the rest of
# the report, such as a copy made whole again, is for `tafel info`).
LOSSES = ("game_lost", "rounds_missing", "game_damaged", "game_unreadable", "game_set_aside", "mend_failed",
          "index_damaged", "settings_damaged", "roster_damaged", "flash_full", "more")


def losses(report):
    """The report's notes that tell of loss or damage, each as a sentence; [] for none (or no report)."""
    return [say(note) for note in report or () if note.get("key") in LOSSES]
