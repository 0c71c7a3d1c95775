# An export cursor, as a laptop keeps it between exports: "G:S" (the top game and its records) or
# "G:S/N@E" (and the device's change log: N changes in epoch E; docs/protocol.md section 4, EXPORT).


def format_cursor(game_id, records, epoch=None, changes=None):
    """"G:S", or "G:S/N@E" with the device's change log (N changes in epoch E)."""
    if epoch is None:
        return "%d:%d" % (game_id, records)
    return "%d:%d/%d@%d" % (game_id, records, changes, epoch)


def parse_cursor(text):
    """(game id, record count) from "G:S" or "G:S/N@E"; raises ValueError."""
    head, slash, tail = text.partition("/")
    g, sep, s = head.partition(":")
    if not sep or not g.isdigit() or not s.isdigit() or (slash and cursor_changes(tail) is None):
        raise ValueError("a cursor is GAME:RECORDS or GAME:RECORDS/CHANGES@EPOCH, e.g. 12:40/57@31337, not %r" % (text,))
    return int(g), int(s)


def cursor_changes(text):
    """(epoch, changes) of a cursor "G:S/N@E" (or of its "N@E"), None without them."""
    tail = text.rpartition("/")[2] if "@" in text else ""
    n, sep, e = tail.partition("@")
    if not sep or not n.isdigit() or not e.isdigit():
        return None
    return int(e), int(n)
