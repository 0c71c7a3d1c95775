# Emulated SPI NOR flash for the simulator and the tests (never deployed).
#
# It speaks MicroPython's extended block protocol, the one vfs.VfsLfs2 uses (sim/blockdev.py):
#   readblocks(n, buf, off=0)   read len(buf) bytes from block n at byte off
#   writeblocks(n, buf, off)    program without erasing (off None: erase first)
#   ioctl(op, arg)              1 init, 2 deinit, 3 sync, 4 block count,
#                               5 block size, 6 erase block arg
# NOR rules are kept: erase sets a block to 0xFF, a program can only clear
# bits (the result is old AND new). A program that wants a 0 bit back to 1
# is counted in `overwrites` (with strict=True it raises), so a storage bug
# that rewrites flash in place shows up instead of passing silently.
#
# An image is a list with one entry per block: None while the block is
# erased, else a bytearray of the block. So a mostly empty 2 MB chip takes
# little RAM, and copying an image allocates block-sized pieces, which the
# unix port's small default heap can always find.
#
# Fault injection: cut_at=N makes the N-th program-or-erase (counting from 0
# over the device's life, see `ops`) fail with PowerCut; with tear=True that
# operation is left half done first. From then on `image` never changes
# again: it is what a reboot finds. Later operations (counted in `after_cut`)
# go to a few scratch blocks instead of failing, because the only code still
# using a dead chip is the garbage collector closing LittleFS files that a
# cut left open: an exception raised there would only be printed as noise,
# and the heap is locked there, so nothing may be allocated either.
#
# Write log: with log=[] every program and erase is appended as
# (block, off, data) (data None for an erase, off then the bytes erased), so
# WriteLog can rebuild the image as it stood before any operation of one run.
from micropython import const

from sim.blockdev import BLOCK_SIZE, BLOCKS, BlockDevice  # noqa: F401  (BLOCK_SIZE, BLOCKS: this module's API too)

_GHOST_BLOCKS = const(8)  # scratch blocks a dead chip lends to late writers


class PowerCut(Exception):
    """The emulated flash lost power; nothing more reaches it."""


class FlashDev(BlockDevice):
    """A RAM-backed flash chip. `image` (a list from blank_image() or
    copy_image()) is used as it is, not copied; give `path` to keep the
    image in a file too (the simulator keeps games between runs)."""

    def __init__(self, blocks=BLOCKS, block_size=BLOCK_SIZE, image=None, path=None, strict=False):
        self.block_size = block_size
        self.blocks = blocks
        self._erased = b"\xff" * block_size
        if image is None:
            image = blank_image(blocks)
        elif len(image) != blocks:
            raise ValueError("image has %d blocks, expected %d" % (len(image), blocks))
        self.image = image
        self._file = None
        if path is not None:
            self._file = _open_image(path, self)
        self.strict = strict
        self.cut_at = None  # op index that loses power
        self.tear = False  # leave the cut operation half done
        self.dead = False
        self.after_cut = 0  # operations on the dead chip (they change nothing)
        self.log = None  # a list to record every program/erase into
        self.reset_counters()
        self.ops = 0  # programs + erases over the device's life (cut_at counts these)

    def reset_counters(self):
        self.reads = 0
        self.read_bytes = 0
        self.programs = 0
        self.programmed = 0  # bytes
        self.erases = 0
        self.overwrites = 0

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def used_blocks(self):
        return sum(1 for b in self.image if b is not None)

    # ---- the block protocol ------------------------------------------------

    def readblocks(self, block, buf, off=0):
        n = len(buf)
        self._check(block, off, n)
        if self.dead:
            self._ghost_read(block, off, buf)
            return
        bs = self.block_size
        done = 0
        while done < n:  # more than one block only in the simple protocol
            part = min(n - done, bs - off)
            src = self.image[block]
            if src is None:
                buf[done:done + part] = memoryview(self._erased)[:part]
            else:
                buf[done:done + part] = memoryview(src)[off:off + part]
            done += part
            block += 1
            off = 0
        self.reads += 1
        self.read_bytes += n

    def _sync(self):
        if self._file is not None and not self.dead:
            self._file.flush()

    # ---- the two operations that change flash ------------------------------

    def _program(self, block, off, data):
        n = len(data)
        self._check(block, off, n)
        if self.dead:
            self.after_cut += 1
            self._ghost_write(block, off, data, True)
            return
        cut = self._begin()
        if cut:
            if not self.tear:
                self._lose_power()
            n = n // 2  # the first half reached the cells
            data = memoryview(data)[:n]
        if self.log is not None:
            self.log.append((block, off, bytes(data)))
        self.overwrites += program(self.image, block, off, data, self._erased)
        if self.strict and self.overwrites:
            raise OSError("program over unerased flash in block %d" % block)
        self._persist(block, off, n)
        self.programs += 1
        self.programmed += n
        if cut:
            self._lose_power()

    def _erase(self, block):
        self._check(block, 0, 0)
        if self.dead:
            self.after_cut += 1
            self._ghost_write(block, 0, self._erased, False)
            return
        cut = self._begin()
        n = self.block_size
        if cut:
            if not self.tear:
                self._lose_power()
            n //= 2  # an erase cut short: only part of the sector is reset
        if self.log is not None:
            self.log.append((block, n, None))
        erase(self.image, block, n, self._erased)
        self._persist(block, 0, n)
        self.erases += 1
        if cut:
            self._lose_power()

    def _begin(self):
        # Counts the operation; True if this is the one that loses power.
        index = self.ops
        self.ops += 1
        return index == self.cut_at

    def power_off(self):
        """Pulls the plug between operations (a test's power cut that needs
        no exception): the image is frozen from now on, as after a cut."""
        try:
            self._lose_power()
        except PowerCut:
            pass

    def _lose_power(self):
        self.dead = True
        # Scratch made now: the finalisers that may write later cannot allocate.
        self._ghost = bytearray(_GHOST_BLOCKS * self.block_size)
        self._ghost_map = bytearray(b"\xff" * self.blocks)  # block -> scratch slot
        self._ghost_used = 0
        raise PowerCut("power cut at flash op %d" % (self.ops - 1))

    def _check(self, block, off, n):
        if block < 0 or block >= self.blocks or off < 0 or block * self.block_size + off + n > self.blocks * self.block_size:
            raise OSError("access outside the device: block %d offset %d length %d" % (block, off, n))

    def _persist(self, block, off, n):
        if self._file is not None:
            src = self.image[block]
            self._file.seek(block * self.block_size + off)
            self._file.write(memoryview(self._erased if src is None else src)[off:off + n])

    # ---- the dead chip: a copy-on-write overlay of a few blocks --------------

    def _ghost_slot(self, block, make):
        slot = self._ghost_map[block]
        if slot == 0xFF and make and self._ghost_used < _GHOST_BLOCKS:
            slot = self._ghost_used
            self._ghost_used += 1
            src = self.image[block]
            _copy(self._ghost, slot * self.block_size, self._erased if src is None else src, 0, self.block_size)
            self._ghost_map[block] = slot
        return slot

    def _ghost_read(self, block, off, buf):
        slot = self._ghost_slot(block, False)
        if slot != 0xFF:
            _copy(buf, 0, self._ghost, slot * self.block_size + off, len(buf))
        else:
            src = self.image[block]
            _copy(buf, 0, self._erased if src is None else src, off, len(buf))

    def _ghost_write(self, block, off, data, nor):
        slot = self._ghost_slot(block, True)
        if slot != 0xFF:  # out of scratch: the write is simply lost
            _copy(self._ghost, slot * self.block_size + off, data, 0, len(data), nor)


def _copy(dst, at, src, start, n, nor=False):
    # Byte by byte on purpose: this runs inside garbage-collector finalisers,
    # where the heap is locked and a slice (a new object) cannot be made.
    i = 0
    while i < n:
        if nor:
            dst[at + i] &= src[start + i]
        else:
            dst[at + i] = src[start + i]
        i += 1


# ---- images ----------------------------------------------------------------


def blank_image(blocks):
    return [None] * blocks


def program(image, block, off, data, erased):
    """Programs `data` into the image (AND into the cells); returns how many
    bytes asked for a 1 where the cell already held a 0."""
    n = len(data)
    cells = image[block]
    if cells is None:
        if data == erased[:n]:
            return 0  # all ones: nothing changes, the block stays erased
        cells = image[block] = bytearray(erased)
    end = off + n
    if cells[off:end] == erased[:n]:  # the normal case: programming erased cells
        cells[off:end] = data
        return 0
    bad = 0
    for i in range(n):
        old = cells[off + i]
        new = data[i]
        if new & ~old & 0xFF:
            bad += 1
        cells[off + i] = old & new
    return bad


def erase(image, block, n, erased):
    if n >= len(erased):
        image[block] = None
    elif image[block] is not None:
        image[block][:n] = erased[:n]


def copy_image(src, dst=None):
    """A copy of an image; pass `dst` (an image of the same size) to reuse
    its block buffers."""
    if dst is None:
        dst = [None] * len(src)
    for i in range(len(src)):
        s = src[i]
        if s is None:
            dst[i] = None
        elif dst[i] is None:
            dst[i] = bytearray(s)
        else:
            dst[i][:] = s
    return dst


def same_image(a, b):
    if len(a) != len(b):
        return False
    for i in range(len(a)):
        x, y = a[i], b[i]
        if x is None and y is None:
            continue
        if x is None or y is None:
            z = x if y is None else y
            if z != b"\xff" * len(z):
                return False
        elif x != y:
            return False
    return True


def _open_image(path, dev):
    # Loads an existing image file into dev.image, or creates an erased one.
    bs = dev.block_size
    try:
        f = open(path, "r+b")
    except OSError:
        f = open(path, "w+b")
        for _ in range(dev.blocks):
            f.write(dev._erased)
        f.flush()
        return f
    buf = bytearray(bs)
    for block in range(dev.blocks):
        if f.readinto(buf) != bs:
            f.close()
            raise OSError("flash image %s is smaller than %d blocks" % (path, dev.blocks))
        dev.image[block] = None if buf == dev._erased else bytearray(buf)
    if f.read(1):
        f.close()
        raise OSError("flash image %s is larger than %d blocks" % (path, dev.blocks))
    return f


class WriteLog:
    """Rebuilds a flash image as it stood before each operation of a logged run.

    `base` is the image before the run (copied), `log` the device's log list.
    Walk forward with image_before(index); indexes must not go backwards.
    """

    def __init__(self, base, log, block_size=BLOCK_SIZE):
        self.image = copy_image(base)
        self.log = log
        self.applied = 0
        self._erased = b"\xff" * block_size

    def __len__(self):
        return len(self.log)

    def image_before(self, index, tear=False, out=None):
        """A copy of the image with operations 0..index-1 done (and, with tear,
        operation `index` half done, as FlashDev(tear=True) leaves it). Pass
        `out` (an image) to reuse its block buffers."""
        if index < self.applied:
            raise ValueError("the log only walks forward")
        while self.applied < index:
            self._apply(self.log[self.applied], False, self.image)
            self.applied += 1
        out = copy_image(self.image, out)
        if tear and index < len(self.log):
            self._apply(self.log[index], True, out)
        return out

    def _apply(self, op, half, image):
        block, off, data = op
        if data is None:  # erase: `off` holds how much of the sector was reset
            erase(image, block, off // 2 if half else off, self._erased)
        else:
            if half:
                data = data[:len(data) // 2]
            program(image, block, off, data, self._erased)
