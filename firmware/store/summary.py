# A stored game's summary, as the index keeps it: the entry, its flags and its bytes (store/index.py
# holds the file of them).
#
# An entry (one frame of the index file, after the header frame):
#   u8 version | varint id | u8 flags | varint journal bytes | varint created
#   | varint target | varint rounds | varint winners (bit per seat)
#   | text variant | u8 seats | text per seat        (text = varint length + UTF-8)
#   | [varint changed: the change number of the write that last changed the game]
# The bracketed field came later; an older firmware ignores it and writes none
# (it then reads as changed 0).
# flags: 1 finished, 2 exported, 4 damaged, 8 deleted (a tombstone, so a cut
# in the middle of deleting never brings the game back half), 16 lost (its
# journal is gone from both copies: the summary is all that is left).
from micropython import const

from tafel.errors import RecordError
from tafel.records import Reader, put_text, put_varint

VERSION = const(1)
FINISHED = const(1)
EXPORTED = const(2)
DAMAGED = const(4)
DELETED = const(8)
LOST = const(16)  # the journal is gone from both copies: listed, reported once (bootcheck.py)


class Entry:
    def __init__(self, game_id, flags=0, size=0, created=0, target=0, rounds=0,
                 winners=0, variant="", players=(), changed=None):
        self.id = game_id
        self.changed = changed  # change number; None: a new change (the write stamps it)
        self.flags = flags
        self.size = size  # bytes of games/<id>.tj when this entry was written
        self.created = created
        self.target = target
        self.rounds = rounds
        self.winner_mask = winners
        self.variant = variant
        self.players = players
        self.live = False  # set by the store for the game in live/

    @property
    def finished(self):
        return bool(self.flags & FINISHED)

    @property
    def exported(self):
        return bool(self.flags & EXPORTED)

    @property
    def damaged(self):
        return bool(self.flags & DAMAGED)

    @property
    def lost(self):
        return bool(self.flags & LOST)

    def winners(self):
        return [self.players[s] for s in range(len(self.players)) if self.winner_mask >> s & 1]


def position(ids, game_id):
    """Where `game_id` is in `ids` (ascending, as the index keeps them), or -1."""
    lo, hi = 0, len(ids)
    while lo < hi:
        mid = (lo + hi) // 2
        if ids[mid] < game_id:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < len(ids) and ids[lo] == game_id else -1


def entry_for(game, game_id, size=0, flags=0):
    """The summary of a replayed tafel.Game; `flags` may add EXPORTED/DAMAGED."""
    mask = 0
    for name in game.winners():
        mask |= 1 << game.players.index(name)
    if game.finished:
        flags |= FINISHED
    return Entry(game_id, flags, size, game.created, game.target, len(game.rounds),
                 mask, game.variant, game.players)


def encode(e):
    out = bytearray((VERSION,))
    put_varint(out, e.id)
    out.append(e.flags)
    for n in (e.size, e.created, e.target, e.rounds, e.winner_mask):
        put_varint(out, n)
    put_text(out, e.variant)
    out.append(len(e.players))
    for name in e.players:
        put_text(out, name)
    put_varint(out, e.changed or 0)
    return bytes(out)


def decode(payload):
    r = _Reader(payload)
    if r.byte() != VERSION:
        raise RecordError("unknown index entry version")
    game_id = r.varint()
    flags = r.byte()
    size, created, target, rounds, winners = [r.varint() for _ in range(5)]
    variant = r.text()
    players = tuple(r.text() for _ in range(r.byte()))
    changed = r.varint() if r.pos < len(payload) else 0
    return Entry(game_id, flags, size, created, target, rounds, winners, variant, players, changed)


def entry_head(payload):
    # (id, flags, size, changed) without decoding the texts: what boot needs.
    r = _Reader(payload)
    if r.byte() != VERSION:
        raise RecordError("unknown index entry version")
    head = (r.varint(), r.byte(), r.varint())
    for _ in range(4):
        r.varint()
    r.skip_text()
    for _ in range(r.byte()):
        r.skip_text()
    return head + (r.varint() if r.pos < len(payload) else 0,)


def flags_at(payload):
    # The flags byte's place: after the version byte and the id's varint.
    pos = 1
    while payload[pos] & 0x80:
        pos += 1
    return pos + 1


def with_flag(payload, flag):
    out = bytearray(payload)
    out[flags_at(out)] |= flag
    return out


class _Reader(Reader):
    def skip_text(self):
        size = self.varint()
        if self.pos + size > len(self.data):
            raise RecordError("bad name length")
        self.pos += size
