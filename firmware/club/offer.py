# The hub's tournament round (TABLE, tafel/club.py) as the table's offer: which one is offered, and its answer kept.
#
# The newest signed TABLE is held (club/table.py's `table`); it is offered (`offer`) unless this very
# message was started or declined before. Its mark, the first bytes of its MAC, goes into the
# pairing when it is (store/pairing.py keep_handled): the broker delivers the retained TABLE again
# at every connection, after a reboot too, and the same round is not offered twice; a new pairing
# or unpairing forgets it. A new evening's round 1 is another message, offered again.
# Imported only once a signed TABLE came, so an unpaired table, or one never sent a round, holds
# none of this; ui/tournament.py shows the offer and answers it.
from binascii import hexlify

from micropython import const

from tafel.names import MAX_NAME, folded, name_problem

_MARK = const(8)  # bytes of the MAC: tell one TABLE from another
_MAX_TARGET = const(99999)  # as the setup takes (ui/setup.py)
_MAX_SEATS = const(10)
_VARIANTS = const(3)  # tafel/variants.py NAMES


def arrived(table, got, mac):
    """A signed TABLE, `got` as decode_table gives it, and its MAC came to the club link `table`."""
    held = table.table
    if held is not None and got[0] <= held[0]:
        return  # the same round again (every connection brings it) or an older one replayed
    table.table = got
    table.table_mark = hexlify(bytes(mac[:_MARK])).decode()
    table.offer = got if table.table_mark != table.handled and playable(got) else None


def playable(got):
    """Whether the table can start the round as sent: a variant it knows, a target the setup takes,
    2 to 10 seats (a round it cannot play is not offered)."""
    variant, target, names = got[2], got[3], got[4]
    return 0 <= variant < _VARIANTS and 0 < target <= _MAX_TARGET and 2 <= len(names) <= _MAX_SEATS


def answered(table):
    """The offer was started or declined: not offered again, on flash too (a StoreError or OSError
    of the flash is the caller's; the offer is gone meanwhile, until the next reboot)."""
    table.offer = None
    table.handled = table.table_mark
    from store import pairing

    pairing.keep_handled(table.store, table.table_mark)


def seats(names, seat):
    """The names as a game takes them: folded to letters the device draws (Zoë -> Zoe), at most
    MAX_NAME letters; one still refused (a script it has no glyphs for, a blank, a twin of an
    earlier seat) is `seat` with its number ("Platz 3"), so the round can still be played."""
    out = []
    for i in range(len(names)):
        name = folded(names[i].strip())[:MAX_NAME].strip()
        if name_problem(name) is not None or _twin(out, name):
            name = seat % (i + 1)
        out.append(name)
    return out


def _twin(names, name):
    key = name.lower()
    for other in names:
        if other.lower() == key:
            return True
    return False
