# Club evenings' messages over MQTT: topics, the signed bodies a table and the hub exchange, and their HMAC.
#
# The part a paired table keeps loaded is tafel/club_table.py (its names are here too).
#
# Topics (CLUB the club's name, DEVICE the device id such as esp32-a1b2c3d4e5f6;
# both plain ASCII letters, digits, '-' and '_'):
#   tafel/CLUB/DEVICE/records  table -> hub, QoS 1: one journal record (RECORD)
#   tafel/CLUB/DEVICE/ack      hub -> table, QoS 1: a game's records stored so far (ACK)
#   tafel/CLUB/DEVICE/status   table, retained: b"online", or b"offline" as its last will (not signed)
#   tafel/CLUB/DEVICE/state    table, retained: the running game at a glance (STATE)
#   tafel/CLUB/DEVICE/table    hub -> table, retained: this table's tournament round (TABLE)
#
# Every signed message is   body | HMAC-SHA256(secret, topic + body)   (32 bytes),
# the secret being the 32 random bytes `tafel club pair` gave the device and
# the hub. The topic is in the MAC, so a message copied onto another device's
# topic does not verify. Bodies start with VERSION and their kind; numbers
# are varints (tafel.records):
#   RECORD: game id, then the journal frame exactly as on flash (tafel.journal:
#           length, sequence number, payload, CRC): the sequence number is the frame's
#   ACK:    game id, next sequence number (every record before it is stored)
#   STATE:  game id, rounds, dealer seat, flags (1 = finished), seat count, then per
#           seat its name (length + UTF-8) and total
#   TABLE:  tournament round, table number, variant code, target, seat count, names
# Replays: the hub stores each (device, game, sequence) once and refuses a
# sequence beyond the next one; a table keeps the highest ACK it has had, so
# an old ACK replayed changes nothing; a TABLE whose round is not newer than
# the one the table has is ignored.
import hashlib

from .club_table import (  # noqa: F401 (the table's part, here too: the whole protocol in one module)
    ACK,
    FINISHED,
    MAC_SIZE,
    RECORD,
    STATE,
    TABLE,
    VERSION,
    _head,
    _reader,
    decode_ack,
    decode_table,
    encode_state,
    topic,
)
from .compat import const
from .errors import RecordError
from .journal import read_frame
from .records import put_text, put_varint

SECRET_SIZE = const(32)
_BLOCK = const(64)  # SHA-256's block, as HMAC pads the key to it


def topic_parts(name):
    """(club, device, what) of a Tafel topic (bytes or str), or None for any other."""
    if not isinstance(name, str):
        name = bytes(name).decode()
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != "tafel" or not all(parts[1:]):
        return None
    return parts[1], parts[2], parts[3]


def valid_name(name):
    """True for a club or device name a topic can carry (1-40 letters, digits, '-', '_')."""
    if not 0 < len(name) <= 40:
        return False
    for ch in name:
        if not (ch.isalpha() or ch.isdigit() or ch in "-_") or ord(ch) > 127:
            return False
    return True


def mac(secret, data):
    """HMAC-SHA256 (RFC 2104) of `data` under `secret`: hashlib's SHA-256 is in the chip's C code."""
    key = secret if len(secret) <= _BLOCK else hashlib.sha256(secret).digest()
    key = bytes(key) + bytes(_BLOCK - len(key))
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
    inner.update(data)
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))
    outer.update(inner.digest())
    return outer.digest()


def sign(secret, name, body):
    """The message for topic `name`: body and its MAC."""
    return bytes(body) + mac(secret, bytes(name) + bytes(body))


def open_signed(secret, name, message):
    """The body of a signed message, or None if its MAC is not this secret's for this topic."""
    if len(message) < MAC_SIZE + 2:
        return None
    body = bytes(message[:-MAC_SIZE])
    want = mac(secret, bytes(name) + body)
    got = message[-MAC_SIZE:]
    diff = 0
    for i in range(MAC_SIZE):  # every byte compared, so the time does not tell how much matched
        diff |= want[i] ^ got[i]
    return None if diff else body


def kind_of(body):
    """The kind of a body (RECORD, ACK, ...), or None if it is not one of ours."""
    if len(body) < 2 or body[0] != VERSION:
        return None
    return body[1]


def encode_record(game_id, frame):
    out = _head(RECORD)
    put_varint(out, game_id)
    out.extend(frame)
    return out


def decode_record(body):
    """(game id, sequence number, record payload, frame); raises RecordError on anything but one whole good frame."""
    r = _reader(body, RECORD)
    game_id = r.varint()
    frame = bytes(body[r.pos:])
    got = read_frame(frame)
    if got is None or got[2] != len(frame):
        raise RecordError("not one whole journal frame")
    return game_id, got[0], got[1], frame


def encode_ack(game_id, next_seq):
    out = _head(ACK)
    put_varint(out, game_id)
    put_varint(out, next_seq)
    return out


def decode_state(body):
    """(game id, rounds, dealer seat, finished, names, totals)."""
    r = _reader(body, STATE)
    game_id, rounds, dealer, flags = r.varint(), r.varint(), r.varint(), r.varint()
    names = []
    totals = []
    for _ in range(r.byte()):
        names.append(r.text())
        totals.append(r.varint())
    r.end()
    return game_id, rounds, dealer, bool(flags & FINISHED), names, totals


def encode_table(round_no, table_no, variant, target, names):
    out = _head(TABLE)
    for n in (round_no, table_no, variant, target):
        put_varint(out, n)
    out.append(len(names))
    for name in names:
        put_text(out, name)
    return out


# ---- pairing over the USB link (docs/protocol.md, CLUB_PAIR and CLUB_UNPAIR) --------------------
# Here rather than in tafel.wire: the device imports this module only once it is paired or being
# paired, and wire's names fill the one table a device without a club keeps for them.
PAIR = const(0x18)  # request: u8 flags (wire.FIRST, wire.LAST), then fields (u8 tag, value); OK: empty
UNPAIR = const(0x19)  # request: empty; OK: u8 1 if the device was paired, else 0
PAIR_HOST = const(1)  # text: the broker's host name or IPv4 address (1 to 64 bytes)
PAIR_PORT = const(2)  # varint: its TCP port (1 to 65535)
PAIR_CLUB = const(3)  # text: the club (valid_name)
PAIR_TABLE = const(4)  # text: the table as the hub shows it (1 to MAX_TABLE printable characters, 64 bytes)
PAIR_SECRET = const(5)  # text: the secret, SECRET_SIZE bytes as lowercase hex digits
MAX_TABLE = const(40)
DEFAULT_PORT = const(1883)  # MQTT's


def pair_fields(host, port, club, table, secret):
    """[(tag, value)] of a pairing, in the order the device takes them."""
    return [(PAIR_HOST, host), (PAIR_PORT, port), (PAIR_CLUB, club), (PAIR_TABLE, table),
            (PAIR_SECRET, "".join("%02x" % b for b in secret))]


def put_field(out, tag, value):
    out.append(tag)
    if tag == PAIR_PORT:
        put_varint(out, value)
    else:
        put_text(out, value)


def pairing_problem(host, port, club, table, secret):
    """None for a pairing the device stores, else a short English reason (an ERR's detail)."""
    if not 0 < len(host.encode()) <= 64 or not _plain(host):
        return "bad host"
    if type(port) is not int or not 0 < port < 65536:
        return "bad port"
    if not valid_name(club):
        return "bad club name"
    if not 0 < len(table.strip()) <= MAX_TABLE or len(table.encode()) > 64 or not _printable(table):
        return "bad table name"
    if len(secret) != SECRET_SIZE:
        return "secret of %d bytes, not %d" % (len(secret), SECRET_SIZE)
    return None


def _plain(text):
    # a host: ASCII letters, digits, '.', '-', '_', ':' (no spaces, nothing to confuse a resolver)
    for ch in text:
        if ord(ch) > 127 or not (ch.isalpha() or ch.isdigit() or ch in ".-_:"):
            return False
    return True


def _printable(text):
    for ch in text:
        if ord(ch) < 32 or 127 <= ord(ch) < 160:
            return False
    return True
