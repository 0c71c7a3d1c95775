# The extended block protocol vfs.VfsLfs2 speaks, shared by the simulator's two flash chips.
#
#   readblocks(n, buf, off=0)   the chip's own
#   writeblocks(n, buf, off)    program without erasing (off None: erase first, whole blocks)
#   ioctl(op, arg)              1 init, 2 deinit, 3 sync, 4 block count, 5 block size, 6 erase block arg
# A chip supplies _program(block, off, data), _erase(block) and _sync(), and the fields
# blocks and block_size (sim/flashdev.py: in RAM with fault injection; sim/fileflash.py:
# in its image file).
from micropython import const

# An ESP32 4 MB board's file-system partition: 2 MB of 4 KB sectors.
BLOCK_SIZE = const(4096)
BLOCKS = const(512)

_IOCTL_SYNC = const(3)
_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)
_IOCTL_ERASE = const(6)


class BlockDevice:
    def writeblocks(self, block, buf, off=None):
        if off is None:  # the simple protocol: whole blocks, erased first
            bs = self.block_size
            mv = memoryview(buf)
            for i in range(len(buf) // bs):
                self._erase(block + i)
                self._program(block + i, 0, mv[i * bs:(i + 1) * bs])
            return
        self._program(block, off, buf)

    def ioctl(self, op, arg):
        if op == _IOCTL_BLOCK_COUNT:
            return self.blocks
        if op == _IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == _IOCTL_ERASE:
            self._erase(arg)
            return 0
        if op == _IOCTL_SYNC:
            self._sync()
        return 0  # init, deinit, sync
