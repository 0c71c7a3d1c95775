# The last resort: journal frames in flash no file accounts for, as runs, joined across CTZ block seams.
#
# Every written block is scanned (frames.scan); frames that lie in bytes a
# file read already covers are left out (that file brought them). What is
# left lies in blocks no readable metadata points to any more: a folder whose
# metadata is gone, or stale copies. A closed journal longer than a block is
# a CTZ file: block k > 0 starts with skip pointers, the first to block k-1,
# so a frame cut by a block's end continues after the pointers of a block
# whose first pointer names this one; such joins are tried (1 to 10
# pointers) and believed only if the joined frame's CRC holds.
import struct

from tafel import journal

from ..lang import Phrase
from .frames import Frame, runs, scan

_MAX_POINTERS = 10  # ctz(k) + 1 pointers: 10 reach past any file this flash can hold


class RawRun:
    """A run of frames found outside every file (where: block, offset), or in
    a file whose name is uncertain (label), and the frames."""

    __slots__ = ("block", "pos", "frames", "blocks", "label")

    def __init__(self, block, frames, label=None):
        self.block, self.pos, self.frames = block, frames[0].pos, frames
        self.blocks = [block]
        self.label = label

    def first(self):
        return self.frames[0].seq

    def last(self):
        return self.frames[-1].seq

    def where(self):
        if self.label is not None:
            return Phrase("rs_uncertain", self.label, self.pos)
        return Phrase("rs_block_offset", "+".join(str(b) for b in self.blocks), self.pos)


def raw_runs(volume, progress=None):
    """[RawRun] of every frame outside the files' bytes, runs joined across block seams."""
    covered = volume.covered()
    found = {}  # block -> [RawRun]
    for b in range(volume.count):
        if b in volume.erased:
            continue
        buf = volume.block(b)
        frames = [f for f in scan(buf) if not _inside(f, covered.get(b, ()))]
        if frames:
            found[b] = [RawRun(b, run) for run in runs(frames)]
        if progress is not None and b % 32 == 31:
            progress((b + 1) * volume.block_size, volume.count * volume.block_size)
    return _join(volume, found)


def file_runs(copies):
    """[RawRun] of the frames in file versions whose names cannot be trusted."""
    out = []
    for copy in copies:
        for off, data in copy.pieces:
            for run in runs(scan(data, off)):
                out.append(RawRun(None, run, copy.path))
    return out


def _inside(frame, spans):
    for start, end in spans:
        if start <= frame.pos and frame.end <= end:
            return True
    return False


def _join(volume, found):
    """The runs, each run that a block's end cut carried on into the next block."""
    after = {}  # block -> blocks whose first word (a CTZ pointer) names it
    for b in found:
        if volume.unusable(b) is None:
            prev = struct.unpack_from("<I", volume.image, b * volume.block_size)[0]
            if prev in found and prev != b:
                after.setdefault(prev, []).append(b)
    link = {}  # (block, run index) -> (joined frame, next block, index of the run going on there or None)
    for b in found:
        last = found[b][-1]
        rest = volume.block(b)[last.frames[-1].end:]
        if not rest.strip(b"\xff"):
            continue
        for nxt in after.get(b, ()):
            got = _seam(last, rest, volume.block(nxt))
            if got is not None:
                frame, resumes = got
                on = [j for j, r in enumerate(found[nxt]) if r.pos == resumes and r.first() == frame.seq + 1]
                link[(b, len(found[b]) - 1)] = (frame, nxt, on[0] if on else None)
                break
    targets = set((nxt, j) for _, nxt, j in link.values() if j is not None)
    out = []
    for b in sorted(found):
        for i, run in enumerate(found[b]):
            if (b, i) in targets:
                continue
            key, seen = (b, i), set()
            while key in link and key not in seen:
                seen.add(key)
                frame, nxt, j = link[key]
                run.frames.append(frame)
                run.blocks.append(nxt)
                if j is None:
                    break
                run.frames.extend(found[nxt][j].frames)
                key = (nxt, j)
            out.append(run)
    return out


def _seam(run, rest, data):
    """(the frame cut by the block's end, where it ends in the next block) or None."""
    for pointers in range(1, _MAX_POINTERS + 1):
        skip = 4 * pointers
        got = journal.read_frame(rest + data[skip:skip + journal.MAX_PAYLOAD + journal.FRAME_OVERHEAD], 0)
        if got is None or got[0] != run.last() + 1:
            continue
        seq, payload, end = got
        pos = run.frames[-1].end
        return Frame(pos, pos + end, seq, payload), skip + end - len(rest)
    return None
