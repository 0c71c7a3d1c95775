# CLUB_PAIR and CLUB_UNPAIR (docs/protocol.md): a club's hub, table and secret onto the flash, or off it.
#
# `tafel club pair` sends the pairing in parts (the whole does not fit one request), as a roster
# push does: FIRST forgets what came before, LAST checks the whole and stores it with a fresh hub
# cursor (store/pairing.py), and the table's club link (re)starts (club/table.py restart(): once
# a Wi-Fi network is set too). Unpairing removes both files and stops the link. Nothing of
# a game changes. Imported only when such a request comes (link/commands.py).
from binascii import unhexlify

from tafel import club, wire
from tafel.wire import WireError
from unload import forget

_NAMES = {club.PAIR_HOST: "host", club.PAIR_PORT: "port", club.PAIR_CLUB: "club", club.PAIR_TABLE: "table",
          club.PAIR_SECRET: "secret"}


def run(link, kind, r):
    if kind == club.UNPAIR:
        r.end()
        return _unpair(link)
    flags = r.byte()
    parts = getattr(link, "pair_parts", None)  # set only while a pairing comes in (no room taken otherwise)
    if flags & wire.FIRST:
        parts = {}
    elif parts is None:
        raise WireError("bad_request", "no FIRST part")
    link.pair_parts = parts
    while r.pos < len(r.data):
        tag = r.byte()
        name = _NAMES.get(tag)
        if name is None:
            link.pair_parts = None
            raise WireError("bad_request", "field %d" % tag)
        parts[name] = r.varint() if tag == club.PAIR_PORT else r.text()
    if not flags & wire.LAST:
        return b""
    link.pair_parts = None
    return _pair(link, parts)


def _pair(link, parts):
    for name in ("host", "port", "club", "table", "secret"):
        if name not in parts:
            raise WireError("bad_request", "no " + name)
    try:
        secret = unhexlify(parts["secret"])
    except ValueError:
        raise WireError("bad_request", "secret not hex")
    problem = club.pairing_problem(parts["host"], parts["port"], parts["club"], parts["table"], secret)
    if problem:
        raise WireError("bad_request", problem)
    parts["table"] = parts["table"].strip()
    store = link.app.store
    from store import pairing

    # the hub learns only what it is sent: its cursor starts at the game on the table (from its
    # create record), else at the next game
    pairing.save(store, link.app.settings, parts, {"low": store.running_game() or store.next_game_id(),
                                                   "acked": {}})
    link.app.device_id = link.device_id
    from club.table import restart

    restart(link.app)
    forget(("link.pair", "tafel.club"))  # needed again only to pair again (the link: tafel/club_table.py)
    return b""


def _unpair(link):
    from store import pairing

    was = pairing.forget(link.app.store, link.app.settings)
    if link.app.club is not None:
        from club.table import restart

        restart(link.app)
    forget(("store.pairing", "tafel.club", "link.pair"))  # nothing of the club stays
    return bytes((1 if was else 0,))
