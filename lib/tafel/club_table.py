# What a table needs of the club's messages (tafel/club.py is the whole protocol, and has these too).
#
# A paired table keeps this module while its club link runs (firmware/club/table.py): its
# topics, the STATE it sends, the ACK and TABLE it reads. The hub's side (signing, opening,
# the other bodies, pairing) stays in tafel/club.py, which the device imports only while being
# paired: every function a module holds is a few bytes of the chip's heap for as long as it is
# loaded. The formats are described in tafel/club.py's header.
from .compat import const
from .errors import RecordError
from .records import Reader, put_text, put_varint

VERSION = const(1)
RECORD = const(1)
ACK = const(2)
STATE = const(3)
TABLE = const(4)
MAC_SIZE = const(32)
FINISHED = const(1)  # STATE's flags


def topic(club, device, what):
    """b"tafel/CLUB/DEVICE/what"."""
    return ("tafel/%s/%s/%s" % (club, device, what)).encode()


def _head(kind):
    out = bytearray()
    out.append(VERSION)
    out.append(kind)
    return out


def _reader(body, kind):
    r = Reader(body)
    if r.byte() != VERSION:
        raise RecordError("club message of another version")
    if r.byte() != kind:
        raise RecordError("club message of another kind")
    return r


def encode_state(game_id, rounds, dealer, finished, names, totals):
    out = _head(STATE)
    for n in (game_id, rounds, dealer, FINISHED if finished else 0):
        put_varint(out, n)
    out.append(len(names))
    for name, total in zip(names, totals):
        put_text(out, name)
        put_varint(out, total)
    return out


def decode_ack(body):
    """(game id, next sequence number)."""
    r = _reader(body, ACK)
    got = r.varint(), r.varint()
    r.end()
    return got


def decode_table(body):
    """(tournament round, table number, variant code, target, names)."""
    r = _reader(body, TABLE)
    got = r.varint(), r.varint(), r.varint(), r.varint()
    names = [r.text() for _ in range(r.byte())]
    r.end()
    return got + (names,)
