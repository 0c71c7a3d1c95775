# The compact, versioned byte format of game events (create, round, edit, undo, finish).
#
# Every payload starts with the format version and the event kind. Numbers are
# unsigned LEB128 varints, so a typical 4-seat round takes about 8 bytes.
#   create: game id, created (epoch s, 0 = clock unset), variant, target,
#           seat count, names (length + UTF-8), value overrides (count, rank+points),
#           then optional (tag, varint) pairs to the end: tag 1 = the first dealer's
#           seat, written only when it is not seat 1 (a record without it: seat 1)
#   round:  winner seat (0xFF = none), seat count, hand+1 per seat (0 = no hand)
#   edit:   round index, then as round
#   undo:   index of the round taken back
#   finish: when (epoch s, 0 = clock unset)
from .compat import const
from .errors import RecordError

VERSION = const(1)
CREATE = const(1)
_ROUND = const(2)
_EDIT = const(3)
_UNDO = const(4)
_FINISH = const(5)
KINDS = (None, "create", "round", "edit", "undo", "finish")
_NO_WINNER = const(0xFF)
_TAG_DEALER = const(1)  # create record: the seat that deals round 1
MAX_SEATS = const(10)
MAX_NUMBER = const(0xFFFFFFFF)


def put_varint(out, n):
    """Append `n` as an unsigned LEB128 varint to the bytearray `out`."""
    if type(n) is not int or n < 0 or n > MAX_NUMBER:
        raise RecordError("cannot encode %r" % (n,))
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def varints(*numbers):
    """The numbers as consecutive varints: a request or answer body of numbers only."""
    out = bytearray()
    for n in numbers:
        put_varint(out, n)
    return out


def put_text(out, text):
    """Append `text` as a varint length and its UTF-8 bytes."""
    raw = text.encode()
    put_varint(out, len(raw))
    out.extend(raw)


def _head(kind):
    out = bytearray()
    out.append(VERSION)
    out.append(kind)
    return out


def encode_create(players, variant, target, overrides=(), created=0, game_id=0, dealer=0):
    """`variant` is a code (0-2); `overrides` is a sequence of (rank code, points);
    `dealer` the seat index that deals round 1."""
    out = _head(CREATE)
    put_varint(out, game_id)
    put_varint(out, created)
    out.append(variant)
    put_varint(out, target)
    out.append(len(players))
    for name in players:
        put_text(out, name)
    out.append(len(overrides))
    for rank, points in overrides:
        out.append(rank)
        put_varint(out, points)
    if dealer:  # seat 1 is left out: such a record reads the same as one made before dealers
        out.append(_TAG_DEALER)
        put_varint(out, dealer)
    return bytes(out)


def _put_hands(out, winner, hands):
    out.append(_NO_WINNER if winner is None else winner)
    out.append(len(hands))
    for points in hands:
        put_varint(out, 0 if points is None else points + 1)


def encode_round(winner, hands):
    """`winner` is a seat index or None; `hands` one entry per seat (None = no hand)."""
    out = _head(_ROUND)
    _put_hands(out, winner, hands)
    return bytes(out)


def encode_edit(index, winner, hands):
    out = _head(_EDIT)
    put_varint(out, index)
    _put_hands(out, winner, hands)
    return bytes(out)


def encode_undo(index):
    out = _head(_UNDO)
    put_varint(out, index)
    return bytes(out)


def encode_finish(when=0):
    out = _head(_FINISH)
    put_varint(out, when)
    return bytes(out)


class Reader:
    """Walks a payload; every read checks bounds, so garbage raises RecordError."""

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def byte(self):
        if self.pos >= len(self.data):
            raise RecordError("record ends early")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self):
        n = 0
        shift = 0
        while True:
            b = self.byte()
            n |= (b & 0x7F) << shift
            if b < 0x80:
                break
            shift += 7
            if shift > 28:
                raise RecordError("number too long")
        if n > MAX_NUMBER:
            raise RecordError("number too large")
        return n

    def text(self):
        size = self.varint()
        if size > 64 or self.pos + size > len(self.data):
            raise RecordError("bad name length")
        raw = bytes(self.data[self.pos:self.pos + size])
        self.pos += size
        try:
            return raw.decode()
        except Exception:  # UnicodeError on CPython, UnicodeError/ValueError on MicroPython
            raise RecordError("name is not UTF-8")

    def hands(self):
        winner = self.byte()
        seats = self.byte()
        if seats < 2 or seats > MAX_SEATS:
            raise RecordError("bad seat count %d" % seats)
        if winner != _NO_WINNER and winner >= seats:
            raise RecordError("bad winner seat %d" % winner)
        hands = []
        for _ in range(seats):
            n = self.varint()
            hands.append(None if n == 0 else n - 1)
        return (None if winner == _NO_WINNER else winner), tuple(hands)

    def end(self):
        if self.pos != len(self.data):
            raise RecordError("%d stray bytes after record" % (len(self.data) - self.pos))


def decode(payload, full=False):
    """Decode a payload into a tuple that starts with the kind's name.

    ("create", game_id, created, variant, target, players, overrides)
      with full=True one more field: the first dealer's seat index (0 if not named)
    ("round", winner, hands) / ("edit", index, winner, hands)
    ("undo", index) / ("finish", when)
    Raises RecordError for anything that is not a well-formed record.
    """
    if not isinstance(payload, (bytes, bytearray, memoryview)):
        raise RecordError("a record is bytes")
    r = Reader(payload)
    if r.byte() != VERSION:
        raise RecordError("unknown record version %d" % payload[0])
    kind = r.byte()
    if kind == CREATE:
        game_id = r.varint()
        created = r.varint()
        variant = r.byte()
        target = r.varint()
        seats = r.byte()
        if variant > 2 or seats < 2 or seats > MAX_SEATS:
            raise RecordError("bad game header")
        players = tuple(r.text() for _ in range(seats))
        overrides = []
        for _ in range(r.byte()):
            rank = r.byte()
            if rank > 16:
                raise RecordError("bad rank code %d" % rank)
            overrides.append((rank, r.varint()))
        dealer = 0
        while r.pos < len(r.data):
            if r.byte() != _TAG_DEALER:
                raise RecordError("unknown field in create record")
            dealer = r.varint()
            if dealer >= seats:
                raise RecordError("bad first dealer seat %d" % dealer)
        out = ("create", game_id, created, variant, target, players, tuple(overrides))
        if full:
            out += (dealer,)
    elif kind == _ROUND or kind == _EDIT:
        index = r.varint() if kind == _EDIT else None
        winner, hands = r.hands()
        out = ("round", winner, hands) if kind == _ROUND else ("edit", index, winner, hands)
    elif kind == _UNDO:
        out = ("undo", r.varint())
    elif kind == _FINISH:
        out = ("finish", r.varint())
    else:
        raise RecordError("unknown record kind %d" % kind)
    r.end()
    return out
