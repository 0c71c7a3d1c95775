# Journal frames wherever they lie: every valid frame in damaged bytes, runs of them, game file names.
#
# A journal frame (tafel.journal) is u16 length | u32 seq | payload | u32
# CRC32, and every payload starts with the record format's version (1) and
# a kind (1-5). So a frame can start only where those bytes fit; each such
# place is checked with the CRC, and a frame found is believed only if its
# payload decodes as a record. Frames that follow each other byte for byte
# with rising numbers form a run: one piece of one journal.
import re
from functools import lru_cache

from tafel import journal, records
from tafel.errors import RecordError

from ..lang import Phrase

# length (<= 1024: second byte <= 4), sequence number, then version 1 and a kind 1-5
_START = re.compile(rb"(?=[\x00-\xff][\x00-\x04][\x00-\xff]{4}\x01[\x01-\x05])", re.DOTALL)


class Frame:
    """A valid frame: where it lies (pos, end), seq, payload, rec (decoded record or None)."""

    __slots__ = ("pos", "end", "seq", "payload")

    def __init__(self, pos, end, seq, payload):
        self.pos, self.end, self.seq, self.payload = pos, end, seq, payload

    @property
    def rec(self):
        return decode(self.payload)

    def seats(self):
        """The seat count this record implies, or None (undo, finish)."""
        rec = self.rec
        if rec is None:
            return None
        if rec[0] == "create":
            return len(rec[5])
        if rec[0] == "round":
            return len(rec[2])
        if rec[0] == "edit":
            return len(rec[3])
        return None


@lru_cache(maxsize=1 << 16)  # the same records turn up in every stale copy
def decode(payload):
    try:
        return records.decode(payload)
    except RecordError:
        return None


def scan(buf, base=0):
    """Every valid frame in `buf`, left to right, not overlapping; positions
    are offsets in `buf` plus `base`."""
    out = []
    pos = 0
    for m in _START.finditer(buf):
        at = m.start()
        if at < pos:
            continue
        got = journal.read_frame(buf, at)
        if got is None:
            continue
        seq, payload, end = got
        out.append(Frame(base + at, base + end, seq, payload))
        pos = end
    return out


def runs(frames):
    """Frames grouped into runs: each follows the one before byte for byte, numbered one more."""
    out = []
    for f in frames:
        if out and out[-1][-1].end == f.pos and out[-1][-1].seq + 1 == f.seq:
            out[-1].append(f)
        else:
            out.append([f])
    return out


def damage(buf, frames, base=0):
    """Texts for the stretches of `buf` that are neither frames nor erased space
    (a journal file is frames only: anything else there is damage)."""
    out = []
    pos = base
    for f in frames + [None]:
        end = base + len(buf) if f is None else f.pos
        if end > pos:
            gap = buf[pos - base:end - base]
            if gap.strip(b"\xff") and gap.strip(b"\x00"):
                out.append(Phrase("rs_torn_tail" if f is None else "rs_unreadable_bytes", pos, end - pos))
        if f is not None:
            pos = f.end
    return out


def _parse(name):
    # as firmware/store/gamelog.parse: "000007.003" -> (7, 3), "000007.tj" -> (7, None)
    dot = name.find(".")
    stem, ext = name[:dot], name[dot + 1:]
    if dot != 6 or not stem.isdigit():
        return None
    if ext == "tj" or (len(ext) == 3 and ext.isdigit()):
        return int(stem)
    return None


def game_file(name):
    """The game id a file name stands for, or None: live segments "000007.003",
    closed games "000007.tj", both also as a write-new ("….new") and as set
    aside in keep/ ("live-000007.003", "games-000007.tj", maybe with ".1")."""
    if name.endswith(".new"):
        name = name[:-4]
    tries = [name]
    if "-" in name:
        tries.append(name.split("-", 1)[1])
    for text in list(tries):
        head, dot, tail = text.rpartition(".")
        if dot and tail.isdigit() and head.count(".") == 1:
            tries.append(head)
    for text in tries:
        got = _parse(text)
        if got is not None:
            return got
    return None
