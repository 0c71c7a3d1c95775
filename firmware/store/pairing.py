# The club pairing and the hub's cursor: two small files in /data, there only while the device is paired.
#
#   club     {"host": str, "port": int, "club": str, "table": str, "secret": 64 hex digits}
#            what `tafel club pair` wrote over the link (link/pair.py); "handled": str too once the
#            table took or declined a tournament round (club/offer.py): that TABLE's mark
#   hubmark  {"low": int, "acked": {"<game id>": next sequence}}: how far the hub has acknowledged
#            each game that is not done (club/outbox.py says what that means); written in batches
# Both framed as keyval's files (one frame of JSON), changed by write-new-then-rename; a damaged
# one is moved to keep/ (keyval.load) and reads as no pairing, or as a cursor that starts again
# (the hub answers a record it has with its own cursor, so nothing is lost either way).
# The settings' "club" (True) says a pairing is there: set after both files are written, taken
# away before they go, so a device that is not paired asks nothing of the flash and imports
# nothing of the club (assemble.py, club/table.py restart()); the flag without the file is no
# pairing. (A method of the Store for it would be a function object in every device's heap.)
from . import keyval

FLAG = "club"
PAIRING = "club"
CURSOR = "hubmark"
HANDLED = "handled"


def load(store):
    """The pairing (a dict with every key above), or None."""
    value, _ = keyval.load(store.disk, PAIRING, {})
    for key in ("host", "port", "club", "table", "secret"):
        if key not in value:
            return None
    return value


def save(store, settings, pairing, cursor):
    """Pair: the pairing and a fresh cursor, then the flag in `settings` (the app's, changed in
    place as the settings screens do); StoreError when the flash refuses."""
    store._small(CURSOR, cursor)
    store._small(PAIRING, pairing)
    settings[FLAG] = True
    store.save_settings(settings)


def forget(store, settings):
    """Unpair: the flag, then both files go; True if the device was paired."""
    was = settings.pop(FLAG, None) is not None or store.disk.size(PAIRING) is not None
    store.save_settings(settings)
    store.forget_space()
    for name in (PAIRING, CURSOR):
        store.disk.remove(name)
    return was


def keep_handled(store, mark):
    """The TABLE with `mark` was started or declined: kept in the pairing, so the broker's retained
    copy is not offered again after a reboot, and gone with it at unpairing. StoreError as save."""
    value = load(store)
    if value is not None:
        value[HANDLED] = mark
        store._small(PAIRING, value)


def load_cursor(store):
    """(low, {game id: next sequence}) as last saved; (None, {}) when there is none to be read."""
    value, _ = keyval.load(store.disk, CURSOR, {})
    low = value.get("low")
    acked = {}
    got = value.get("acked")
    if type(got) is dict:
        for key in got:
            n = got[key]
            if key.isdigit() and type(n) is int and n >= 0:
                acked[int(key)] = n
    return (low if type(low) is int and low > 0 else None), acked


def save_cursor(store, low, acked):
    store._small(CURSOR, {"low": low, "acked": {str(k): acked[k] for k in acked}})
