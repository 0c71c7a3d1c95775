# The raw flash searched for games, whatever its file system says: journal frames of create records in every block.
#
# A game's journal opens with frame 0, its create record (lib/tafel/journal.py:
# u16 LE length | u32 LE seq | payload | u32 LE CRC32; lib/tafel/records.py: the
# payload starts VERSION 1, CREATE 1, then the game id as a varint). So bytes 2-7
# of that frame always read 00 00 00 00 01 01: bytearray.find looks for them at C
# speed, and a hit counts once the frame around it passes its CRC (random bytes
# pass it once in 4 billion). Every journal file (live/<id>.000, games/<id>.tj,
# their copies in /twin and keep/) begins with such a frame, so LittleFS holds it
# either at offset 0 of the file's first data block or inline inside one commit of
# a metadata block: never across two blocks. A hit whose frame would run past its
# block's end (or begin before it) is therefore not counted, and no block is read
# twice. Stale copies count too (an old metadata commit, a freed block not yet
# reused): the question is whether the flash may hold games, not which are listed.
from binascii import crc32

from tafel.compat import const

CREATE_MARK = b"\x00\x00\x00\x00\x01\x01"  # seq 0, VERSION, CREATE: a create frame's bytes 2-7
_MAX_PAYLOAD = const(1024)  # journal.MAX_PAYLOAD
_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)


def scan(dev):
    """([game ids of the create frames found], blocks not erased) of the block device `dev`."""
    size = dev.ioctl(_IOCTL_BLOCK_SIZE, 0)
    buf = bytearray(size)
    erased = b"\xff" * size
    ids = []
    used = 0
    for block in range(dev.ioctl(_IOCTL_BLOCK_COUNT, 0)):
        dev.readblocks(block, buf, 0)
        if buf == erased:
            continue
        used += 1
        creates(buf, ids)
    return ids, used


def holds_games(dev):
    """How many games (distinct ids) the raw flash holds a create frame of; 0: none anywhere."""
    return len(scan(dev)[0])


def creates(buf, ids):
    """Adds to `ids` the game id of every whole, CRC-checked create frame in `buf` (one block)."""
    mv = memoryview(buf)
    end = len(buf)
    at = buf.find(CREATE_MARK, 2)  # a mark at 0 or 1 would be a frame begun in the block before
    while at >= 0:
        start = at - 2
        size = buf[start] | buf[start + 1] << 8
        stop = start + 10 + size
        if 2 < size <= _MAX_PAYLOAD and stop <= end and crc32(mv[start:stop - 4]) == _u32(buf, stop - 4):
            game_id = _varint(buf, at + 6, stop - 4)
            if game_id is not None and game_id not in ids:
                ids.append(game_id)
            at = buf.find(CREATE_MARK, stop)  # frames do not overlap
        else:
            at = buf.find(CREATE_MARK, at + 1)


def _u32(buf, at):
    return buf[at] | buf[at + 1] << 8 | buf[at + 2] << 16 | buf[at + 3] << 24


def _varint(buf, at, stop):
    n = shift = 0
    while at < stop and shift <= 28:
        b = buf[at]
        n |= (b & 0x7F) << shift
        if b < 0x80:
            return n
        at += 1
        shift += 7
    return None
