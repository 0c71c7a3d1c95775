# Framing of journal records: length, sequence number and CRC around each payload.
#
# One frame on flash or on the wire:
#   u16 LE payload length | u32 LE sequence number | payload | u32 LE CRC32
# The CRC covers length, sequence number and payload, so a torn write, a flipped
# bit or a frame from a stale block is caught before its payload is believed.
import struct
from binascii import crc32

from .errors import RecordError

HEADER_SIZE = 6
FRAME_OVERHEAD = 10
MAX_PAYLOAD = 1024  # records are tens of bytes; anything bigger is garbage


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


def scan(buf):
    """Read every valid frame from the start of `buf`.

    Returns (records, good_end, problem): records is a list of (seq, payload),
    good_end the offset just after the last good frame, problem None for a clean
    end, else a short text saying where and why reading stopped. Sequence numbers
    must rise by one; a frame that breaks the run ends the scan like damage does.
    """
    records = []
    pos = 0
    expected = None
    while pos < len(buf):
        got = read_frame(buf, pos)
        if got is None:
            if _is_erased(buf, pos):
                return records, pos, None
            what = "torn tail" if _tail_is_short(buf, pos) else "bad frame"
            return records, pos, "%s at byte %d" % (what, pos)
        seq, payload, end = got
        if expected is not None and seq != expected:
            return records, pos, "sequence %d after %d at byte %d" % (seq, expected - 1, pos)
        records.append((seq, payload))
        expected = seq + 1
        pos = end
    return records, pos, None


def _is_erased(buf, pos):
    # Space never written (all 0xFF or all zero padding) is a clean end, not damage.
    first = buf[pos]
    if first not in (0, 0xFF):
        return False
    for i in range(pos, len(buf)):
        if buf[i] != first:
            return False
    return True


def _tail_is_short(buf, pos):
    # A frame whose declared length runs past the end was cut while being written.
    if len(buf) - pos < FRAME_OVERHEAD:
        return True
    size = struct.unpack_from("<H", buf, pos)[0]
    return size <= MAX_PAYLOAD and pos + FRAME_OVERHEAD + size > len(buf)
