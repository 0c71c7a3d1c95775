# Emulated SPI NOR flash for the simulator and the tests (never deployed).
#
# It speaks MicroPython's extended block protocol, the one vfs.VfsLfs2 uses:
#   readblocks(n, buf, off=0)   read len(buf) bytes from block n at byte off
#   writeblocks(n, buf, off)    program without erasing (off None: erase first)
#   ioctl(op, arg)              1 init, 2 deinit, 3 sync, 4 block count,
#                               5 block size, 6 erase block arg
# NOR rules are kept: erase sets a block to 0xFF, a program can only clear
# bits (the result is old AND new). A program that wants a 0 bit back to 1
# is counted in `overwrites` (with strict=True it raises), so a storage bug
# that rewrites flash in place shows up instead of passing silently.
#
# Fault injection: cut_at=N makes the N-th program-or-erase (counting from 0
# over the device's life, see `ops`) fail with PowerCut; with tear=True that
# operation is left half done first. From then on `mem` never changes again:
# it is the image a reboot finds. Later operations (counted in `after_cut`)
# go to a throw-away copy instead of failing, because the only code still
# using a dead chip is the garbage collector closing LittleFS files that a
# cut left open (an exception raised there would only be printed as noise,
# and writes landing in `mem` would corrupt the image under test).
#
# Write log: with log=[] every program and erase is appended as
# (block, off, data) (data None for an erase), so WriteLog can rebuild the
# image as it stood before any operation of one recorded run.
from micropython import const

ERASE = const(-1)
_IOCTL_INIT = const(1)
_IOCTL_DEINIT = const(2)
_IOCTL_SYNC = const(3)
_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)
_IOCTL_ERASE = const(6)

# An ESP32 4 MB board's file-system partition: 2 MB of 4 KB sectors.
BLOCK_SIZE = const(4096)
BLOCKS = const(512)


class PowerCut(Exception):
    """The emulated flash lost power; nothing more reaches it."""


class FlashDev:
    """A RAM-backed flash chip; give `path` to keep the image in a file too."""

    def __init__(self, blocks=BLOCKS, block_size=BLOCK_SIZE, image=None, path=None, strict=False):
        self.block_size = block_size
        self.blocks = blocks
        size = blocks * block_size
        if image is None:
            image = bytearray(b"\xff" * size)
        elif len(image) != size:
            raise ValueError("image is %d bytes, expected %d" % (len(image), size))
        self.mem = image
        self._mv = memoryview(image)
        self._erased = b"\xff" * block_size
        self._file = None
        if path is not None:
            self._file = _open_image(path, image)
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

    def counters(self):
        return {
            "reads": self.reads,
            "read_bytes": self.read_bytes,
            "programs": self.programs,
            "programmed": self.programmed,
            "erases": self.erases,
            "overwrites": self.overwrites,
        }

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    # ---- the block protocol ------------------------------------------------

    def readblocks(self, block, buf, off=0):
        addr = block * self.block_size + off
        n = len(buf)
        self._check(addr, n)
        if self.dead:
            _ghost_copy(buf, 0, self._ghost, addr, n)
            return
        buf[:] = self._mv[addr:addr + n]
        self.reads += 1
        self.read_bytes += n

    def writeblocks(self, block, buf, off=None):
        if off is None:  # the simple protocol: whole blocks, erased first
            for i in range(len(buf) // self.block_size):
                self._erase(block + i)
            off = 0
        self._program(block * self.block_size + off, buf)

    def ioctl(self, op, arg):
        if op == _IOCTL_BLOCK_COUNT:
            return self.blocks
        if op == _IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == _IOCTL_ERASE:
            self._erase(arg)
            return 0
        if op == _IOCTL_SYNC and self._file is not None and not self.dead:
            self._file.flush()
        return 0  # init, deinit, sync

    # ---- the two operations that change flash ------------------------------

    def _program(self, addr, data):
        n = len(data)
        self._check(addr, n)
        if self.dead:
            self.after_cut += 1
            _ghost_copy(self._ghost, addr, data, 0, n, True)
            return
        cut = self._begin()
        if cut:
            if not self.tear:
                self._lose_power()
            n = n // 2  # the first half reached the cells
            data = memoryview(data)[:n]
        if self.log is not None:
            self.log.append((addr // self.block_size, addr % self.block_size, bytes(data)))
        self.overwrites += _nor_program(self.mem, addr, data, self._erased)
        if self.strict and self.overwrites:
            raise OSError("program over unerased flash at %d" % addr)
        self._persist(addr, n)
        self.programs += 1
        self.programmed += n
        if cut:
            self._lose_power()

    def _erase(self, block):
        if not 0 <= block < self.blocks:
            raise OSError("erase of block %d outside the device" % block)
        addr = block * self.block_size
        n = self.block_size
        if self.dead:
            self.after_cut += 1
            _ghost_copy(self._ghost, addr, self._erased, 0, n)
            return
        cut = self._begin()
        if cut:
            if not self.tear:
                self._lose_power()
            n //= 2  # an erase cut short: only part of the sector is reset
        if self.log is not None:
            self.log.append((block, n, None))
        self.mem[addr:addr + n] = self._erased[:n]
        self._persist(addr, n)
        self.erases += 1
        if cut:
            self._lose_power()

    def _begin(self):
        # Counts the operation; True if this is the one that loses power.
        index = self.ops
        self.ops += 1
        return index == self.cut_at

    def _lose_power(self):
        self.dead = True
        self._ghost = bytearray(self.mem)
        raise PowerCut("power cut at flash op %d" % (self.ops - 1))

    def _check(self, addr, n):
        if addr < 0 or addr + n > len(self.mem):
            raise OSError("access outside the device at %d+%d" % (addr, n))

    def _persist(self, addr, n):
        if self._file is not None:
            self._file.seek(addr)
            self._file.write(self._mv[addr:addr + n])


def _nor_program(mem, addr, data, erased):
    # Programs `data` at `addr` (AND into the cells); returns how many bytes
    # asked for a 1 where the cell already held a 0.
    n = len(data)
    end = addr + n
    if mem[addr:end] == erased[:n]:  # the normal case: programming erased cells
        mem[addr:end] = data
        return 0
    bad = 0
    for i in range(n):
        old = mem[addr + i]
        new = data[i]
        if new & ~old & 0xFF:
            bad += 1
        mem[addr + i] = old & new
    return bad


def _ghost_copy(dst, at, src, start, n, nor=False):
    # Byte by byte on purpose: it runs inside garbage-collector finalisers,
    # where the heap is locked and a slice (a new object) cannot be made.
    i = 0
    while i < n:
        if nor:
            dst[at + i] &= src[start + i]
        else:
            dst[at + i] = src[start + i]
        i += 1


def _open_image(path, image):
    # Loads an existing image file into `image`, or creates an erased one.
    try:
        f = open(path, "r+b")
    except OSError:
        f = open(path, "w+b")
        f.write(image)
        f.flush()
        return f
    got = f.readinto(image)
    if got != len(image):
        f.close()
        raise OSError("flash image %s is %d bytes, expected %d" % (path, got or 0, len(image)))
    return f


class WriteLog:
    """Rebuilds a flash image as it stood before each operation of a logged run.

    `base` is the image before the run (copied), `log` the device's log list.
    Walk forward with image_before(index); indexes must not go backwards.
    """

    def __init__(self, base, log, block_size=BLOCK_SIZE):
        self.image = bytearray(base)
        self.log = log
        self.block_size = block_size
        self.applied = 0
        self._erased = b"\xff" * block_size

    def __len__(self):
        return len(self.log)

    def image_before(self, index, tear=False, out=None):
        """A copy of the image with operations 0..index-1 done (and, with tear,
        operation `index` half done, as FlashDev(tear=True) leaves it). Pass
        `out` (a bytearray of the image's size) to reuse one buffer."""
        if index < self.applied:
            raise ValueError("the log only walks forward")
        while self.applied < index:
            self._apply(self.log[self.applied], False, self.image)
            self.applied += 1
        if out is None:
            out = bytearray(self.image)
        else:
            out[:] = self.image
        if tear and index < len(self.log):
            self._apply(self.log[index], True, out)
        return out

    def _apply(self, op, half, image):
        block, off, data = op
        if data is None:  # erase: `off` holds how much of the sector was reset
            n = off // 2 if half else off
            addr = block * self.block_size
            image[addr:addr + n] = self._erased[:n]
        else:
            if half:
                data = data[:len(data) // 2]
            _nor_program(image, block * self.block_size + off, data, self._erased)
