# Framing of journal records: length, sequence number and CRC around each payload.
#
# One frame on flash or on the wire:
#   u16 LE payload length | u32 LE sequence number | payload | u32 LE CRC32
# The CRC covers length, sequence number and payload, so a torn write, a flipped
# bit or a frame from a stale block is caught before its payload is believed.
import struct
from binascii import crc32
from io import BytesIO

from .compat import const
from .errors import RecordError

HEADER_SIZE = const(6)
FRAME_OVERHEAD = const(10)
MAX_PAYLOAD = const(1024)  # records are tens of bytes; anything bigger is garbage


def frame(seq, payload):
    """Wrap one record payload for the journal."""
    if len(payload) > MAX_PAYLOAD:
        raise RecordError("record of %d bytes is too large" % len(payload))
    head = struct.pack("<HI", len(payload), seq)
    return head + payload + struct.pack("<I", crc32(payload, crc32(head)))


def read_frame(buf, pos=0):
    """The frame starting at `pos`: (seq, payload, end), or None if it is not whole and valid."""
    if len(buf) - pos < FRAME_OVERHEAD:
        return None
    size, seq = struct.unpack_from("<HI", buf, pos)
    end = pos + FRAME_OVERHEAD + size
    if size > MAX_PAYLOAD or end > len(buf):
        return None
    body = memoryview(buf)[pos:end - 4]
    if crc32(body) != struct.unpack_from("<I", buf, end - 4)[0]:
        return None
    return seq, bytes(body[HEADER_SIZE:]), end


class FrameReader:
    """Iterates (seq, payload) over the good frames of a stream, one frame at a
    time (a long journal read whole, or as a list, would cost more RAM than
    the game it holds). Afterwards `problem` says why it stopped (None at a
    clean end) and `pos` where: the length of the good part. Sequence numbers
    must rise by one; a frame that breaks the run ends it like damage does."""

    def __init__(self, stream):
        self.stream = stream
        self.pos = 0
        self.problem = None

    def __iter__(self):
        last = None
        read = self.stream.read
        while True:
            head = read(HEADER_SIZE)
            if not head:
                return
            size = head[0] | head[1] << 8 if len(head) > 1 else 0
            if size > MAX_PAYLOAD:
                self.problem = "bad frame at byte %d" % self.pos
                return
            rest = read(size + 4) if len(head) == HEADER_SIZE else b""
            if len(head) < HEADER_SIZE or len(rest) < size + 4:
                self.problem = "torn tail at byte %d" % self.pos
                return
            got = read_frame(head + rest)
            if got is None:
                self.problem = "bad frame at byte %d" % self.pos
                return
            seq, payload, end = got
            if last is not None and seq != last + 1:
                self.problem = "sequence %d after %d at byte %d" % (seq, last, self.pos)
                return
            last = seq
            self.pos += end
            yield seq, payload


def scan(buf):
    """Read every valid frame from the start of `buf`.

    Returns (records, good_end, problem): records is a list of (seq, payload),
    good_end the offset just after the last good frame, problem None for a
    clean end, else a short text saying where and why reading stopped.
    Erased flash (0xFF) or zero padding after the last frame is a clean end.
    """
    reader = FrameReader(BytesIO(buf))
    records = list(reader)
    problem = reader.problem
    if problem is not None and _is_erased(buf, reader.pos):
        problem = None
    return records, reader.pos, problem


def _is_erased(buf, pos):
    # Space never written (all 0xFF or all zero padding) is a clean end, not damage.
    first = buf[pos]
    if first not in (0, 0xFF):
        return False
    for i in range(pos, len(buf)):
        if buf[i] != first:
            return False
    return True
