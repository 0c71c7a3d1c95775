# The serial link's wire format, shared by the device and the laptop (docs/protocol.md).
#
# The USB serial is also the MicroPython REPL, so everything on it is a line
# of printable ASCII: no byte is ever 0x00-0x1F except the closing "\n", so
# nothing looks like Ctrl-A..Ctrl-E (raw REPL, paste mode, soft reset) or
# Ctrl-C. A frame is one line:
#   "~" base64(kind u8 | seq u16 LE | body | CRC32 u32 LE) "\n"
# The CRC covers kind, seq and body. Bodies are built from the record codec's
# varints and texts (tafel.records), so both ends share one set of readers.
#
# The handshake is a bare line: the host sends "TAFEL?", the device answers
# "TAFEL! proto=1 id=... fw=... window=... chunk=... rx=...".
# The device imports only what it sends; parse_* and journal_records() are
# for the host (they run on MicroPython too, for the tests).
import struct
from binascii import a2b_base64, b2a_base64, crc32

from .compat import const
from .records import Reader, put_text, put_varint

PROTOCOL = const(1)
HANDSHAKE = b"TAFEL?"
HANDSHAKE_REPLY = b"TAFEL!"
_OVERHEAD = const(7)  # kind, seq, CRC
MAX_REQUEST = const(140)  # body bytes of a host -> device frame: its line is at most 200 bytes
MAX_REQUEST_LINE = const(200)  # "~", base64 of 147 bytes, "\n"
_UPDATE_DATA = const(172)  # bundle bytes in one UPDATE_CHUNK (after the part and offset varints): with them,
#     182 body bytes, a line of 254 bytes that fills the device's 256-byte buffer
# A counted stream (UPDATE_SEND): raw bytes in blocks of u16 part, u32 offset, u16 length (LE),
# the bundle bytes, CRC32 (LE) of all before it in the block; only inside a session, only after the OK.
UPDATE_BLOCK = const(1024)  # the most bundle bytes in one block
_UPDATE_BLOCK_HEAD = const(8)  # part, offset, length
UPDATE_WINDOW = const(256)  # stream bytes a host may send beyond what the device said it took (260-byte ring)
RX_GOING = const(0)  # UPDATE_RX states: still receiving
RX_DONE = const(1)  # every counted byte came and every block is on flash: the stream is over
RX_BAD = const(2)  # a block failed its CRC or its header made no sense: the stream is over
RX_STOPPED = const(3)  # nothing came for RAW_IDLE_MS: the stream is over
MAX_REPLY = const(1200)  # body bytes of a device -> host frame
MAX_LINE = const(1700)  # longest line a host should accept (base64 of MAX_REPLY + 7, with margin)
CLOCK_MAX = const(4102444799)  # the latest CLOCK a device takes (2099-12-31 23:59:59 UTC): years of running stay below 2**32

# Host -> device: requests (each answered by OK or ERR), and ACK (never answered).
HELLO = const(0x01)
INFO = const(0x02)
LIST = const(0x03)
EXPORT = const(0x04)
ACK = const(0x05)
CANCEL = const(0x06)
CLOCK = const(0x07)
ROSTER_PUSH = const(0x08)
ROSTER_PULL = const(0x09)
MARK = const(0x0A)
DELETE = const(0x0B)
WIPE = const(0x0C)
BYE = const(0x0D)
FLASH_READ = const(0x0F)  # [varint first block]: OK, then the raw flash as FLASH_DATA/FLASH_DONE (link/flashread.py)
UPDATE_BEGIN = const(0x10)  # 0x10-0x14: the update transfer (firmware/link/update.py)
UPDATE_CHUNK = const(0x11)
UPDATE_END = const(0x12)
UPDATE_STATUS = const(0x13)
UPDATE_SEND = const(0x14)  # OK, then counted raw bytes in blocks (0x15-0x17 reserved)
# Device -> host: replies carry the request's seq; stream frames count 0, 1, 2 ... per export.
OK = const(0x40)
ERR = const(0x41)
GAME = const(0x42)
DATA = const(0x43)
GEND = const(0x44)
DONE = const(0x45)
UPDATE_RX = const(0x46)  # the UPDATE_SEND's seq: how far its counted stream has come
FLASH_DATA = const(0x47)  # stream: varint block, varint offset, bytes (none: the blocks so far are erased)
FLASH_DONE = const(0x48)  # stream: varint first, varint blocks, u32 LE CRC32 of the blocks read

NAMES = {
    HELLO: "hello", INFO: "info", LIST: "list", EXPORT: "export", ACK: "ack", CANCEL: "cancel",
    CLOCK: "clock", ROSTER_PUSH: "roster_push", ROSTER_PULL: "roster_pull", MARK: "mark",
    DELETE: "delete", WIPE: "wipe", BYE: "bye", UPDATE_BEGIN: "update_begin",
    UPDATE_CHUNK: "update_chunk", UPDATE_END: "update_end", UPDATE_STATUS: "update_status",
    UPDATE_SEND: "update_send", OK: "ok", ERR: "err", GAME: "game", DATA: "data", GEND: "gend",
    DONE: "done", UPDATE_RX: "update_rx", FLASH_READ: "flash_read", FLASH_DATA: "flash_data",
    FLASH_DONE: "flash_done",
}

# EXPORT modes
ONE = const(0)
ALL = const(1)
SINCE = const(2)
AFTER = const(3)  # varint epoch, varint N: every game changed after change number N (docs/protocol.md)

# Summary and GAME flags (the index's bits, plus LIVE)
FINISHED = const(1)
EXPORTED = const(2)
DAMAGED = const(4)
LIVE = const(16)  # journal segments in live/: being played, or played on since it was put away
ENDED_EARLY = const(32)  # ended before anybody reached the target (an older device never sets it)

# ROSTER_PUSH flags
FIRST = const(1)
LAST = const(2)

# GEND status
WHOLE = const(0)
CHANGED = const(1)  # a file shrank or vanished while it was sent: export the game again

# GAME file numbers from here on are the game's files in keep/ (bytes the store set
# aside as damaged), KEEP_FILE + k for the k-th by name; below it 0 is the closed
# journal and n + 1 the live segment n (at most 1000 of them).
KEEP_FILE = const(0x10000)


class WireError(ValueError):
    """A line that is not a good frame; `code` is the ERR code the device answers with."""

    def __init__(self, code, detail=""):
        super().__init__(code + (": " + detail if detail else ""))
        self.code = code
        self.detail = detail


# ---- frames ------------------------------------------------------------------------


def encode(kind, seq, body=b""):
    """One frame as a line, "~...\\n"."""
    head = struct.pack("<BH", kind, seq & 0xFFFF)
    crc = crc32(body, crc32(head))
    return b"~" + b2a_base64(head + body + struct.pack("<I", crc))  # b2a_base64 ends with "\n"


def decode(line):
    """(kind, seq, body) of a frame line ("~" base64, "\\r\\n" or "\\n" optional).
    Raises WireError("bad_frame", why) for anything else."""
    end = len(line)
    while end and line[end - 1] in (10, 13):
        end -= 1
    if end < 2 or line[0] != 0x7E:
        raise WireError("bad_frame", "not a frame")
    try:
        raw = a2b_base64(bytes(line[1:end]))
    except ValueError:  # binascii.Error on CPython
        raise WireError("bad_frame", "not base64")
    if len(raw) < _OVERHEAD:
        raise WireError("bad_frame", "too short")
    if crc32(memoryview(raw)[:-4]) != struct.unpack_from("<I", raw, len(raw) - 4)[0]:
        raise WireError("bad_frame", "bad CRC")
    kind, seq = struct.unpack_from("<BH", raw)
    return kind, seq, raw[3:-4]


def encoded_size(body_size):
    """Bytes on the wire of a frame with a body of body_size bytes, "~" and "\\n" included."""
    return 2 + (body_size + _OVERHEAD + 2) // 3 * 4


def update_block(part, offset, data):
    """One block of an UPDATE_SEND stream (host side): header, the bytes, CRC32."""
    head = struct.pack("<HIH", part, offset, len(data)) + bytes(data)
    return head + struct.pack("<I", crc32(head))


# ---- handshake ---------------------------------------------------------------------


def hello_line(device_id, firmware, window, chunk):
    """The device's answer to "TAFEL?"; values never hold spaces."""
    return ("TAFEL! proto=%d id=%s fw=%s window=%d chunk=%d rx=%d\n" % (
        PROTOCOL, device_id, firmware, window, chunk, MAX_REQUEST)).encode()


def parse_hello(line):
    """The handshake answer as a dict (numbers as int); raises WireError if it is none."""
    if isinstance(line, (bytes, bytearray)):
        line = bytes(line).decode("ascii", "replace")
    words = line.split()
    if not words or words[0] != "TAFEL!":
        raise WireError("bad_hello", line[:40])
    out = {}
    for word in words[1:]:
        key, _, value = word.partition("=")
        out[key] = int(value) if value.isdigit() else value
    for key in ("proto", "id", "fw", "window", "chunk", "rx"):
        if key not in out:
            raise WireError("bad_hello", "no " + key)
    return out


# ---- bodies ------------------------------------------------------------------------


class Body(Reader):
    """Reads a frame body: byte(), varint(), text() (from tafel.records.Reader), rest()."""

    def rest(self):
        out = bytes(self.data[self.pos:])
        self.pos = len(self.data)
        return out

    def texts(self):
        return [self.text() for _ in range(self.byte())]


def error_body(code, detail=""):
    out = bytearray()
    put_text(out, code)
    put_text(out, detail[:60])
    return bytes(out)


def parse_error(body):
    """(code, detail) of an ERR body."""
    r = Body(body)
    return r.text(), r.text()


def put_summary(out, e, flags, size):
    """A game's summary as LIST sends it: e is the store's index.Entry (or alike)."""
    put_varint(out, e.id)
    out.append(flags)
    for n in (e.created, e.target, e.rounds, e.winner_mask, size):
        put_varint(out, n)
    put_text(out, e.variant)
    out.append(len(e.players))
    for name in e.players:
        put_text(out, name)


def read_summary(r):
    """The next summary from a Body, as a dict (host side)."""
    game_id = r.varint()
    flags = r.byte()
    created, target, rounds, mask, size = [r.varint() for _ in range(5)]
    variant = r.text()
    players = r.texts()
    return {
        "id": game_id, "created": created, "variant": variant, "target": target,
        "players": players, "rounds": rounds, "size": size,
        "winners": [players[s] for s in range(len(players)) if mask >> s & 1],
        "finished": bool(flags & FINISHED), "exported": bool(flags & EXPORTED),
        "damaged": bool(flags & DAMAGED), "live": bool(flags & LIVE),
        "ended_early": bool(flags & ENDED_EARLY),
    }


def parse_list(body):
    """(more, [summary dict]) of a LIST reply."""
    r = Body(body)
    more = r.byte()
    return bool(more), [read_summary(r) for _ in range(r.varint())]


# INFO's update fields after `flash` (docs/protocol.md), with what a firmware that ends
# its INFO at `flash` means: confirmed, no trial, bootsel.py's 3 tries and 60 s watchdog.
_UPDATE_FIELDS = (("state", 0), ("tries", 0), ("tries_max", 3), ("wdt_ms", 60000),
                  ("confirm_ms", 0), ("confirm_left_ms", 0))


def parse_info(body):
    """INFO's OK as a dict: flash, games, clock, firmware, and the update state
    (state 0 confirmed, 1 on trial, 2 on probation; "rollbacks" newest first, each
    {"version", "why", "at", "count"}); "storage_report": the boot check's notes,
    each {"key", "game" (id or None), "detail" (text or None)}."""
    r = Body(body)
    out = {}
    for key in ("free_kb", "total_kb", "games", "running", "clock", "next_id"):
        out[key] = r.varint()
    out["firmware"] = r.text()
    out["flash"] = r.text()
    out["clock_set"] = out["clock"] != 0
    more = r.pos < len(r.data)  # an older firmware ends here
    for key, default in _UPDATE_FIELDS:
        out[key] = r.varint() if more else default
    out["bundle_id"] = r.text() if more else ""
    rollbacks = []
    for _ in range(r.varint() if more else 0):
        rec = {"version": r.text()}
        rec["why"] = r.text()
        rec["at"] = r.varint()
        rec["count"] = r.varint()
        rollbacks.append(rec)
    out["rollbacks"] = rollbacks
    out["storage_report"] = report = []  # the boot check's notes; older firmware sends none
    for _ in range(r.varint() if r.pos < len(r.data) else 0):
        key = r.text()
        game = r.varint()
        detail = r.text()
        report.append({"key": key, "game": game or None, "detail": detail or None})
    return out


# ---- recovery mode and the raw flash (firmware/recovery/) ------------------------------

RECOVERY = "recovery"  # the handshake's mode=, INFO's state and the ERR code of what recovery does not serve


def parse_recovery_info(body):
    """INFO's OK from a device in recovery mode (its handshake says mode=recovery) as a dict:
    state "recovery", why ("unmountable": no file system; "games_unlisted": one without the
    store's folders), games (create records the raw scan found), blocks, block_size,
    read_done (a whole raw read reached a laptop in this boot), firmware."""
    r = Body(body)
    out = {"state": r.text(), "why": r.text()}
    for key in ("games", "blocks", "block_size", "read_done"):
        out[key] = r.varint()
    out["read_done"] = bool(out["read_done"])
    out["firmware"] = r.text()
    return out


def parse_flash_data(body):
    """(block, offset, bytes) of a FLASH_DATA frame."""
    r = Body(body)
    return r.varint(), r.varint(), r.rest()


def parse_flash_done(body):
    """(first block, blocks, CRC32) of a FLASH_DONE frame."""
    r = Body(body)
    first, blocks = r.varint(), r.varint()
    crc = r.rest()
    if len(crc) != 4:
        raise WireError("bad_frame", "FLASH_DONE without its CRC")
    return first, blocks, struct.unpack("<I", crc)[0]


def parse_game(body):
    """(game id, flags, [(file number, size)]) of a GAME frame; file 0 is the closed
    journal games/<id>.tj, file n + 1 the live segment live/<id>.<n>, file
    KEEP_FILE + k the game's k-th file in keep/ (damaged bytes set aside)."""
    r = Body(body)
    game_id = r.varint()
    flags = r.byte()
    files = [(r.varint(), r.varint()) for _ in range(r.varint())]
    return game_id, flags, files


def parse_data(body):
    """(game id, file number, offset, bytes) of a DATA frame."""
    r = Body(body)
    return r.varint(), r.varint(), r.varint(), r.rest()


def parse_gend(body):
    """(game id, status) of a GEND frame: WHOLE, or CHANGED while it was sent."""
    r = Body(body)
    return r.varint(), r.byte()


def parse_done(body):
    """(games sent, cursor game, cursor records) of a DONE frame."""
    return tuple(parse_numbers(body, 3))


def done_changes(body):
    """(epoch, changes) of a DONE frame, None from a firmware without a change log."""
    r = Body(body)
    for _ in range(3):
        r.varint()
    if r.pos >= len(r.data):
        return None
    return r.varint(), r.varint()


def parse_numbers(body, count):
    """The first `count` varints of a body (GEND, DONE, EXPORT's OK, ...)."""
    r = Body(body)
    return [r.varint() for _ in range(count)]


def journal_records(files):
    """(payloads, problems) of one game from its files' bytes, in the order GAME
    lists them: the closed journal first, then the live segments. As on the
    device, a frame whose number was seen in an earlier file is skipped, and
    the game stops at the first gap in the numbers."""
    from io import BytesIO

    from .journal import FrameReader

    payloads = []
    problems = []
    for data in files:
        walk = FrameReader(BytesIO(bytes(data)))
        for seq, payload in walk:
            if seq < len(payloads):
                continue
            if seq > len(payloads):
                problems.append("records %d to %d are missing" % (len(payloads), seq - 1))
                return payloads, problems
            payloads.append(payload)
        if walk.problem is not None:
            problems.append(walk.problem)
    return payloads, problems

