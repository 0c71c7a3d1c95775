# Settings and the player roster: small values, changed by write-new-then-rename.
#
# Files "settings", "roster" and "setup": one frame (tafel.journal framing, number 0)
# whose payload is JSON text: an object of settings, a list of names. A file
# that fails its CRC is moved to keep/ (bytes kept) and the defaults are used;
# the caller reports it.
import json

from tafel import journal
from tafel.compat import const
from tafel.names import MAX_NAME, bad_char, folded, name_problem, undrawable

SETTINGS = "settings"
ROSTER = "roster"
SETUP = "setup"  # a new game's setup while it is typed (ui/setup.py): a list, gone once it is a game
MAX_ROSTER = const(64)


def load(disk, name, default):
    """(value, problem): the stored value, or `default` and why not."""
    data = disk.read(name)
    if data is None:
        return default, None
    got = journal.read_frame(data)
    value = None
    if got is not None and got[2] == len(data):
        try:
            value = json.loads(got[1].decode())
        except Exception:  # ValueError, UnicodeError: not our JSON
            value = None
    if value is None or type(value) is not type(default):
        disk.mkdir("keep")
        disk.rename(name, disk.unused_name("keep/" + name))
        return default, "%s unreadable, defaults used" % name
    return value, None


def save(disk, name, value):
    payload = json.dumps(value).encode()
    disk.write_new(name, journal.frame(0, payload))


def roster_problem(names):
    """None for a roster that may be stored as given, else (code, short message): a name that
    is not printable or longer than MAX_NAME (name_bad, name_long, with its place
    in the list), or more than MAX_ROSTER names once blanks and duplicates are dropped
    (roster_long). Blanks are no problem: they are dropped."""
    for i in range(len(names)):
        name = names[i]
        if isinstance(name, str) and not name.strip():
            continue
        problem = name_problem(name)
        if problem:  # short: an ERR's detail carries 60 characters
            if problem[0] == "name_bad" and bad_char(name.strip()) >= 0:
                why = "control character at position %d" % (bad_char(name.strip()) + 1)
            elif problem[0] == "name_bad":
                why = "no letter to show at position %d" % (undrawable(name.strip()) + 1)
            elif problem[0] == "name_long":
                why = "over %d characters or 64 bytes" % MAX_NAME
            else:
                why = "not a name"
            return problem[0], "name %d: %s" % (i + 1, why)
    if len(clean_roster(names, MAX_ROSTER + 1)) > MAX_ROSTER:
        return "roster_long", "more than %d names" % MAX_ROSTER
    return None


def clean_roster(names, most=MAX_ROSTER):
    """The roster as stored: stripped, letters the device has no glyph for in their plain
    form (tafel.names.folded: Zoë -> Zoe), no blanks, no duplicates (case-blind), no
    name a game would refuse (not printable, too long: never cut), the first `most` kept."""
    out = []
    seen = []
    for name in names:
        if name_problem(name):
            continue
        name = folded(name.strip())
        key = name.lower()
        if key not in seen:
            out.append(name)
            seen.append(key)
            if len(out) >= most:
                break
    return out
