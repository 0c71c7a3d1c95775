# A device's or the bundle reader's refusal (UpdateError key and detail) as one plain sentence, in the laptop's language.
#
#   sentence("downgrade", ("0.2.0", "0.3.0"))
#   -> "The bundle holds 0.2.0, older than the 0.3.0 the device runs; a downgrade must be signed
#      with --allow-downgrade."
# The key stays stable (tests, scripts: err.key); the sentence is for people (texts_*_update.py,
# "rf_" + the key's words, lang.py chooses the language). Details arrive as
# the device's reader gives them (a tuple, a number, a path) or as the text the link carries them
# in ("0.2.0 0.3.0"): both are taken.
from ..lang import grouped, say


def _words(detail):
    if detail is None or detail == "":
        return []
    if isinstance(detail, (tuple, list)):
        return [str(d) for d in detail]
    return str(detail).split()


def _at(words, i, default="?"):
    return words[i] if i < len(words) else default


def _kb(n):
    try:
        return grouped(int(n)) + " KB"
    except ValueError:
        return n


def _truncated(w):
    part = _at(w, 0, "")
    if part in ("header", "manifest", "signature"):
        return say("rf_truncated_" + part, say("rf_again"))
    if part:
        return say("rf_truncated_body", part, say("rf_again"))
    return say("rf_truncated", say("rf_again"))


def _bad_file(w):
    how = {"sha256": "rf_how_sha256", "size": "rf_how_size", "inflate": "rf_how_inflate",
           "length": "rf_how_length"}.get(_at(w, 1, ""), "rf_how_other")
    return say("rf_bad_file", _at(w, 0), say(how))


def _incomplete_app(w):
    if not w or _at(w, 0) in ("None", "files"):
        return say("rf_no_files", say("rf_rebuild"))
    path = _at(w, 0)
    why = {"main.py": "rf_why_main", "update/trusted.mpy": "rf_why_trusted",
           "lib/tafel/version.mpy": "rf_why_version"}.get(path, "rf_why_other")
    return say("rf_lacks", path, say(why), say("rf_rebuild"))


def _version_mismatch(w):
    found, manifest = _at(w, 0), _at(w, 1)
    if found == "None":
        return say("rf_version_unreadable", manifest, say("rf_rebuild"))
    return say("rf_version_mismatch", found, manifest, say("rf_rebuild"))


_SENTENCES = {
    "not_bundle": lambda w: say("rf_not_bundle"),
    "format": lambda w: say("rf_format", _at(w, 0)),
    "too_large": lambda w: say("rf_too_large_of", _at(w, 0), _at(w, 1)) if w else say("rf_too_large"),
    "truncated": _truncated,
    "foreign_key": lambda w: say("rf_foreign_key", _at(w, 0)),
    "bad_signature": lambda w: say("rf_bad_signature"),
    "bad_manifest": lambda w: (say("rf_bad_manifest_line", _at(w, 0)) if w and _at(w, 0) != "0"
                               else say("rf_bad_manifest")),
    "wrong_mpy": lambda w: say("rf_wrong_mpy", _at(w, 0), _at(w, 1)),
    "needs_boot": lambda w: say("rf_needs_boot", _at(w, 0), _at(w, 1)),
    "downgrade": lambda w: say("rf_downgrade", _at(w, 0), _at(w, 1)),
    "same_version": lambda w: say("rf_same_version", _at(w, 0)),
    "bad_file": _bad_file,
    "trailing_data": lambda w: say("rf_trailing_data"),
    "incomplete_app": _incomplete_app,
    "version_mismatch": _version_mismatch,
    "no_space": lambda w: say("rf_no_space", _kb(_at(w, 0)), _kb(_at(w, 1))),
    "on_trial": lambda w: say("rf_on_trial", _at(w, 0)),
    "incomplete": lambda w: say("rf_incomplete", _at(w, 0)),
    "no_transfer": lambda w: say("rf_no_transfer"),
    "no_network": lambda w: say("rf_no_network", _at(w, 0)),
    "no_server": lambda w: say("rf_no_server"),
    "server_gone": lambda w: say("rf_server_gone"),
    "bad_offer": lambda w: say("rf_bad_offer"),
}


def sentence(key, detail=None):
    """The refusal `key` (an UpdateError key) with its detail as one plain sentence."""
    make = _SENTENCES.get(key)
    if make is None:
        words = _words(detail)
        return say("rf_other", key, (": " + " ".join(words)) if words else "")
    return make(_words(detail))
