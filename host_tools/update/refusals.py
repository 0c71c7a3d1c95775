# A device's or the bundle reader's refusal (UpdateError key and detail) as one plain English sentence.
#
#   sentence("downgrade", ("0.2.0", "0.3.0"))
#   -> "The bundle holds 0.2.0, older than the 0.3.0 the device runs; a downgrade must be signed
#      with --allow-downgrade."
# The key stays stable (tests, scripts: err.key); the sentence is for people. Details arrive as
# the device's reader gives them (a tuple, a number, a path) or as the text the link carries them
# in ("0.2.0 0.3.0"): both are taken.


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
        return "{:,} KB".format(int(n))
    except ValueError:
        return n


def _truncated(w):
    part = _at(w, 0, "")
    if part in ("header", "manifest", "signature"):
        return "The bundle ends early, inside its %s: the file is incomplete (copy or download it again)." % part
    if part:
        return "The bundle ends early, inside the body of %s: the file is incomplete (copy or download it again)." % part
    return "The bundle ends early: the file is incomplete (copy or download it again)."


def _bad_file(w):
    how = {"sha256": "its SHA-256 differs", "size": "its size differs", "inflate": "it does not unpack",
           "length": "its stored length differs"}.get(_at(w, 1, ""), "it differs")
    return "The file %s in the bundle does not match the signed manifest (%s): the bundle was altered or damaged." % (_at(w, 0), how)


def _incomplete_app(w):
    if not w or _at(w, 0) in ("None", "files"):
        return "The bundle holds no files at all: it is no application (rebuild it with tafel bundle build)."
    path = _at(w, 0)
    why = {"main.py": "the file MicroPython starts the application by",
           "update/trusted.mpy": "the trust store the new version needs to accept the next update",
           "lib/tafel/version.mpy": "the module that says which version runs"}.get(path, "a file every version needs")
    return "The bundle lacks %s, %s: it is no whole application (rebuild it with tafel bundle build)." % (path, why)


def _version_mismatch(w):
    found, manifest = _at(w, 0), _at(w, 1)
    if found == "None":
        return ("The bundle's lib/tafel/version.mpy cannot be read for its VERSION, while the manifest says %s "
                "(rebuild it with tafel bundle build)." % manifest)
    return ("The bundle's lib/tafel/version.mpy says version %s, its manifest %s: the two must agree "
            "(rebuild it with tafel bundle build)." % (found, manifest))


_SENTENCES = {
    "not_bundle": lambda w: "This is not a Tafel update bundle (it does not start with TAFELUPD).",
    "format": lambda w: "The bundle is in format %s, which this version cannot read." % _at(w, 0),
    "too_large": lambda w: ("The bundle is too large: %s bytes where at most %s fit." % (_at(w, 0), _at(w, 1))
                            if w else "The bundle is too large."),
    "truncated": _truncated,
    "foreign_key": lambda w: ("The bundle is signed with key %s, which the device does not trust "
                              "(its firmware's trust store lacks it)." % _at(w, 0)),
    "bad_signature": lambda w: "The bundle's signature does not match its contents: it was altered after signing.",
    "bad_manifest": lambda w: ("The bundle's manifest is damaged (line %s cannot be read)." % _at(w, 0)
                               if w and _at(w, 0) != "0" else "The bundle's manifest or header is damaged."),
    "wrong_mpy": lambda w: ("The bundle is compiled for MicroPython bytecode version %s; the device runs version %s."
                            % (_at(w, 0), _at(w, 1))),
    "needs_boot": lambda w: ("The bundle needs boot code version %s; the device has version %s "
                             "(reinstall it with tafel flash)." % (_at(w, 0), _at(w, 1))),
    "downgrade": lambda w: ("The bundle holds %s, older than the %s the device runs; a downgrade must be signed "
                            "with --allow-downgrade." % (_at(w, 0), _at(w, 1))),
    "same_version": lambda w: "The device runs %s already." % _at(w, 0),
    "bad_file": _bad_file,
    "trailing_data": lambda w: "The bundle has bytes after its last file: it was altered or two files were joined.",
    "incomplete_app": _incomplete_app,
    "version_mismatch": _version_mismatch,
    "no_space": lambda w: ("There is not enough free flash for the new version beside the running one and the games' "
                           "reserve (needs %s, %s free)." % (_kb(_at(w, 0)), _kb(_at(w, 1)))),
    "on_trial": lambda w: ("The last update (%s) is still on trial: let it run until it confirms itself, "
                           "then update again." % _at(w, 0)),
    "incomplete": lambda w: "Files are missing on the device (%s): the transfer did not finish; run tafel update again." % _at(w, 0),
    "no_transfer": lambda w: "No update is being transferred (the device restarted?): run tafel update again.",
    "no_network": lambda w: "The device cannot join the Wi-Fi (%s)." % _at(w, 0),
    "no_server": lambda w: "The device found no update server.",
    "server_gone": lambda w: "The update server stopped answering.",
    "bad_offer": lambda w: "The update server's offer cannot be read.",
}


def sentence(key, detail=None):
    """The refusal `key` (an UpdateError key) with its detail as one plain sentence."""
    make = _SENTENCES.get(key)
    if make is None:
        words = _words(detail)
        return "Refused (%s%s)." % (key, (": " + " ".join(words)) if words else "")
    return make(_words(detail))
