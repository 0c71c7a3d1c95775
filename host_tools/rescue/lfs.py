# A tolerant reader of LittleFS v2 structures in a raw flash image: metadata logs and CTZ files, no library.
#
# The geometry is what MicroPython v1.28's vfs.VfsLfs2 formats on the ESP32
# (extmod/vfs_lfs.c defaults): 4 KB blocks, read and prog size 32, so a
# cache of 128 bytes and files up to 128 bytes inline in their directory's
# metadata. Everything below follows littlefs's SPEC.md ("Metadata pairs",
# "CTZ skip-lists") and lfs2.c's fetch, but trusts nothing it cannot check:
#  - a metadata block is a 32-bit revision count and a log of commits; each
#    tag is 32 bits big-endian, XORed with the tag before it (0xffffffff
#    before the first), valid bit 31 clear; a commit ends with a CRC tag
#    whose CRC32 (littlefs's: no final inversion) covers the commit;
#  - every valid commit is kept, not just the newest: replaying them one by
#    one gives every state the directory went through;
#  - after a commit that fails its CRC (a flipped bit) the log is searched for
#    later commits that still check out ("resynced"), since LittleFS itself
#    would stop there and lose them;
#  - a CTZ file is read backwards from its head over every skip pointer, so
#    a block that is gone costs only its own bytes where another pointer
#    still reaches past it.
import struct
import zlib

from ..lang import Phrase

BLOCK_SIZE = 4096
BLOCKS = 512
PROG_SIZE = 32  # commits are padded to this (vfs_lfs.c: progsize=32)
NO_ID = 0x3FF

# tag types (lfs2.h enum lfs2_type)
REG, DIR, SUPERBLOCK = 0x001, 0x002, 0x0FF
NAME, STRUCT, USERATTR, SPLICE, CRC, TAIL, GLOBALS = 0x000, 0x200, 0x300, 0x400, 0x500, 0x600, 0x700
CREATE, DELETE = 0x401, 0x4FF
DIRSTRUCT, INLINESTRUCT, CTZSTRUCT = 0x200, 0x201, 0x202
SOFTTAIL, HARDTAIL = 0x600, 0x601
FCRC = 0x5FF
_KNOWN_FIRST = {CREATE, DELETE, FCRC, SOFTTAIL, HARDTAIL, 0x7FF}  # types that can open a commit


def lfs_crc(crc, data):
    """littlefs's CRC32: the reflected 0x04c11db7 polynomial without the final inversion."""
    return zlib.crc32(data, crc ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


def type3(tag):
    return (tag >> 20) & 0x7FF


def tag_id(tag):
    return (tag >> 10) & 0x3FF


def tag_size(tag):
    return tag & 0x3FF


def dsize(tag):
    # A size of 0x3ff marks a deleted attribute: no data follows.
    size = tag & 0x3FF
    return 4 + (0 if size == 0x3FF else size)


def _is_crc(tag):
    return (tag >> 20) & 0x780 == CRC  # a commit CRC (0x500-0x57f), not an FCRC


class Commit:
    """One commit of a metadata log: its byte range and its tags as (tag, data, offset of data)."""

    __slots__ = ("start", "end", "tags", "resynced")

    def __init__(self, start, end, tags, resynced):
        self.start, self.end, self.tags, self.resynced = start, end, tags, resynced


def _walk(buf, off, ptag, crc, resynced, out):
    """Parses commits from `off`, appending each valid one to `out`. Returns
    (the start of the commit that failed, or None if the log simply ended in
    erased flash or at the block's end; the tag chain's state there)."""
    size = len(buf)
    start, tags = off, []
    while True:
        if off + 4 > size:
            return (start if tags else None), ptag
        raw = buf[off:off + 4]
        tag = struct.unpack(">I", raw)[0] ^ ptag
        if tag & 0x80000000:  # the next commit was never programmed (or is damaged)
            return (None if raw == b"\xff\xff\xff\xff" and not tags else start), ptag
        n = dsize(tag)
        if off + n > size:
            return start, ptag
        crc = lfs_crc(crc, raw)
        if _is_crc(tag):
            if n < 8 or struct.unpack_from("<I", buf, off + 4)[0] != crc:
                return start, ptag
            off += n
            out.append(Commit(start, off, tags, resynced))
            ptag = tag ^ (((tag >> 20) & 1) << 31)  # the next commit's valid bit
            crc = 0xFFFFFFFF
            start, tags = off, []
            continue
        data = buf[off + 4:off + n]
        crc = lfs_crc(crc, data)
        tags.append((tag, data, off + 4))
        ptag = tag
        off += n


def parse_block(buf, known=False):
    """(revision, [Commit]) of a metadata block, or None if no commit in it
    checks out. known: a block some metadata names as a directory's, so even
    with its first commit damaged later ones are looked for."""
    if len(buf) < 16 or buf[4:8] == b"\xff\xff\xff\xff":
        return None
    out = []
    failed, _ = _walk(buf, 4, 0xFFFFFFFF, lfs_crc(0xFFFFFFFF, buf[:4]), False, out)
    if not out and (not known or failed is None):
        return None
    while failed is not None:  # damage inside the log: look for commits after it
        failed = _resync(buf, failed, out)
    if not out:
        return None
    return struct.unpack_from("<I", buf, 0)[0], out


def lost(buf, commits):
    """[(start, end)]: the stretches of a metadata log no valid commit covers,
    before, between and after the commits found (erased space excluded)."""
    out, pos = [], 4
    for c in commits:
        if c.start > pos:
            out.append((pos, c.start))
        pos = c.end
    if buf[pos:].strip(b"\xff"):
        out.append((pos, len(buf.rstrip(b"\xff"))))
    return out


def _resync(buf, after, out):
    # A later commit starts at a prog-aligned offset, right after a CRC tag
    # of type 0x500/0x501 and id 0x3ff whose size (the padding) is small and
    # unknown; with it the first tag decodes, and the commit's own CRC says
    # whether the guess was right. Returns where to look again, or None.
    first = (after // PROG_SIZE + 1) * PROG_SIZE
    for off in range(first, len(buf) - 8, PROG_SIZE):
        raw = struct.unpack_from(">I", buf, off)[0]
        if raw == 0xFFFFFFFF:
            continue
        c = raw >> 31  # the valid bit of the first tag must come out clear
        for pad in range(4, PROG_SIZE + 8):
            ptag = (((CRC | c) << 20) | (NO_ID << 10) | pad) ^ (c << 31)
            tag = raw ^ ptag
            t = type3(tag)
            if t not in _KNOWN_FIRST and (t & 0x700) not in (NAME, STRUCT, USERATTR):
                continue
            found = []
            failed, _ = _walk(buf, off, ptag, 0xFFFFFFFF, True, found)
            if found:  # its CRC checked out: the guess was right
                out.extend(found)
                return failed
    return None


def newer(rev_a, rev_b):
    """Revision counts compared as littlefs does (sequence arithmetic)."""
    return ((rev_a - rev_b) & 0xFFFFFFFF) < 0x80000000 and rev_a != rev_b


# ---- replaying a log into directory states ------------------------------------------


class State:
    """A directory's content after one commit: entries by id (None for a
    hole), each a dict {NAME: (type, bytes, offset), STRUCT: (type, bytes,
    offset), attr type: (type, bytes, offset)}, and the tail pair."""

    __slots__ = ("entries", "tail", "hard", "resynced")

    def __init__(self, entries, tail, hard, resynced):
        self.entries, self.tail, self.hard, self.resynced = entries, tail, hard, resynced


UNSURE = "unsure"  # an entry key: its id may have moved in commits that were lost


def states(commits):
    """The directory states after each commit, in log order. Commits found
    after a damaged one (resynced) are replayed on the last good state, but
    what that state held is marked UNSURE: the lost commit may have created
    or deleted entries, moving ids. Entries created after it are exact."""
    entries, tail, hard, out, end = [], None, False, [], None
    for commit in commits:
        if commit.resynced and commit.start != end:
            entries = [None if e is None else dict(e, **{UNSURE: True}) for e in entries]
        for tag, data, off in commit.tags:
            tail, hard = _apply(entries, tag, data, off, tail, hard)
        out.append(State([None if e is None else dict(e) for e in entries], tail, hard, commit.resynced))
        end = commit.end
    return out


def _apply(entries, tag, data, off, tail, hard):
    t, i = type3(tag), tag_id(tag)
    group = t & 0x700
    if group == SPLICE:
        if t == CREATE and i != NO_ID:
            while len(entries) < i:
                entries.append(None)
            entries.insert(i, {})
        elif t == DELETE and i < len(entries):
            del entries[i]
    elif group == TAIL:
        if len(data) == 8:
            tail, hard = struct.unpack("<II", data), t == HARDTAIL
    elif group in (NAME, STRUCT, USERATTR) and i != NO_ID:
        while len(entries) <= i:
            entries.append(None)
        if entries[i] is None:
            entries[i] = {}
        key = t if group == USERATTR else group
        if tag_size(tag) == 0x3FF:
            entries[i].pop(key, None)
        else:
            entries[i][key] = (t, bytes(data), off)
    return tail, hard


# ---- CTZ files -------------------------------------------------------------------------


def _ctz(n):
    return (n & -n).bit_length() - 1


def ctz_index(off, block_size=BLOCK_SIZE):
    """(block index, offset in that block) of file position `off` (lfs2_ctz_index)."""
    b = block_size - 8
    i = off // b
    if i == 0:
        return 0, off
    i = (off - 4 * (bin(i - 1).count("1") + 2)) // b
    return i, off - b * i - 4 * bin(i).count("1")


def read_ctz(read_block, head, size, unusable, block_size=BLOCK_SIZE):
    """A CTZ file's bytes as far as they can be read: (pieces, where, problem).
    pieces: [(file offset, bytes)], contiguous runs; where: [(block, offset in
    block, length)] the bytes came from; problem: None or a short text.
    read_block(n) gives a block's bytes; unusable(n) says why block n cannot
    hold file data (outside the flash, erased, a metadata block), or None."""
    if size == 0:
        return [], [], None
    why = unusable(head)
    if why is not None:
        return [], [], Phrase("rs_last_block", head, why)
    last, last_end = ctz_index(size - 1, block_size)
    found = {last: head}
    for k in range(last, 0, -1):  # every block reached so far offers its pointers
        block = found.get(k)
        if block is None:
            continue
        data = read_block(block)
        for i in range(_ctz(k) + 1):
            target = k - (1 << i)
            ptr = struct.unpack_from("<I", data, 4 * i)[0]
            if target not in found and unusable(ptr) is None:
                found[target] = ptr
    pieces, where, missing = [], [], []
    run_at, run = None, []
    pos = 0
    for k in range(last + 1):
        start = 0 if k == 0 else 4 * (_ctz(k) + 1)
        end = last_end + 1 if k == last else block_size
        length = end - start
        block = found.get(k)
        if block is None:
            missing.append(k)
            if run:
                pieces.append((run_at, b"".join(run)))
                run_at, run = None, []
        else:
            if not run:
                run_at = pos
            run.append(bytes(read_block(block)[start:end]))
            where.append((block, start, length))
        pos += length
    if run:
        pieces.append((run_at, b"".join(run)))
    problem = None
    if missing:
        problem = Phrase("rs_unreachable", len(missing), last + 1)
    return pieces, where, problem
