# The simulator's flash chip kept only in its image file: no copy of the flash in the heap.
#
# The simulator runs the firmware in the heap of the board it simulates (a
# board profile's "python_heap"), so the emulated chip must not hold the 2 MB
# of flash, or even the blocks in use, in that heap: every read and program
# goes to the image file (an ESP32's flash is outside its RAM too). The chip
# keeps NOR rules as sim/flashdev.py does: an erase sets a block to 0xFF, a
# program can only clear bits (old AND new). It speaks the same extended
# block protocol as FlashDev and takes the same image files.
#
# Power cuts: the launcher kills the process; every program and erase reached
# the file as one write() before it returned, so the file holds what a chip
# would. Fault injection (cut at the N-th write, torn writes, the write log)
# stays with FlashDev, which the storage tests use.
from micropython import const

from sim.blockdev import BLOCK_SIZE, BLOCKS, BlockDevice

_CHUNK = const(256)  # a program is merged with the old cells this many bytes at a time


class FileFlash(BlockDevice):
    """A flash chip of `blocks` x `block_size` bytes whose cells are the file at `path`
    (created erased if missing; an existing file must have exactly that size)."""

    def __init__(self, path, blocks=BLOCKS, block_size=BLOCK_SIZE):
        self.blocks = blocks
        self.block_size = block_size
        self.path = path
        self._erased = b"\xff" * _CHUNK
        self._old = bytearray(_CHUNK)  # the cells under a program, read before it
        self._file = _open(path, blocks * block_size, self._erased)
        self.reads = 0
        self.read_bytes = 0
        self.programs = 0
        self.programmed = 0  # bytes
        self.erases = 0

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def readblocks(self, block, buf, off=0):
        self._check(block, off, len(buf))
        f = self._file
        f.seek(block * self.block_size + off)
        if f.readinto(buf) != len(buf):
            raise OSError("flash image %s ends early" % self.path)
        self.reads += 1
        self.read_bytes += len(buf)

    def _sync(self):
        if self._file is not None:
            self._file.flush()

    def _program(self, block, off, data):
        n = len(data)
        self._check(block, off, n)
        f = self._file
        at = block * self.block_size + off
        old = self._old
        mv = memoryview(data)
        done = 0
        while done < n:  # old AND new, a chunk at a time: a NOR cell never goes back to 1
            part = min(_CHUNK, n - done)
            cells = memoryview(old)[:part]
            f.seek(at + done)
            f.readinto(cells)
            f.seek(at + done)
            if part == _CHUNK and old == self._erased:  # erased cells, the usual case: take the data
                f.write(mv[done:done + part])
            else:
                for i in range(part):
                    cells[i] &= mv[done + i]
                f.write(cells)
            done += part
        self.programs += 1
        self.programmed += n

    def _erase(self, block):
        self._check(block, 0, 0)
        f = self._file
        f.seek(block * self.block_size)
        for _ in range(self.block_size // _CHUNK):
            f.write(self._erased)
        self.erases += 1

    def _check(self, block, off, n):
        if block < 0 or block >= self.blocks or off < 0 or block * self.block_size + off + n > self.blocks * self.block_size:
            raise OSError("access outside the device: block %d offset %d length %d" % (block, off, n))


def _open(path, size, erased):
    # The image file, made erased when missing; a file of another size is refused.
    try:
        f = open(path, "r+b")
    except OSError:
        f = open(path, "w+b")
        for _ in range(size // len(erased)):
            f.write(erased)
        f.flush()
        return f
    end = f.seek(0, 2)
    if end != size:
        f.close()
        raise OSError("flash image %s has %d bytes, expected %d" % (path, end, size))
    return f
