# Settings and the player roster: small values, changed by write-new-then-rename.
#
# Files "settings" and "roster": one frame (tafel.journal framing, number 0)
# whose payload is JSON text: an object of settings, a list of names. A file
# that fails its CRC is moved to keep/ (bytes kept) and the defaults are used;
# the caller reports it.
import json

from tafel import journal

SETTINGS = "settings"
ROSTER = "roster"
MAX_ROSTER = 64
MAX_NAME = 24


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


def clean_roster(names):
    """The roster as stored: stripped, no blanks, no duplicates (case-blind),
    names cut to MAX_NAME characters, the first MAX_ROSTER kept."""
    out = []
    seen = []
    for name in names:
        name = name.strip()[:MAX_NAME]
        key = name.lower()
        if name and key not in seen:
            out.append(name)
            seen.append(key)
    return out[:MAX_ROSTER]
