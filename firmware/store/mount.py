# Mounting the flash: LittleFS2 as MicroPython on the ESP32 formats it.
#
# A device that mounts is used as it is. One that does not is formatted only
# if it is blank (every byte erased); flash holding anything else is left
# untouched and reported, so a bug or a damaged superblock never turns into a
# silently wiped history. (Stock ESP32 MicroPython mounts "/" in its frozen
# _boot.py and formats whenever that mount fails; the device build should
# freeze a _boot.py that calls this instead.)
import vfs

from .errors import StoreError

_IOCTL_BLOCK_COUNT = 4
_IOCTL_BLOCK_SIZE = 5


def mount(dev, mtime=True):
    """(vfs.VfsLfs2 object, formatted?) for the block device `dev`.
    Raises StoreError("fs_unreadable") for a non-blank device that does not mount."""
    try:
        return vfs.VfsLfs2(dev, mtime=mtime), False
    except OSError:
        pass
    if not is_blank(dev):
        raise StoreError("fs_unreadable")
    vfs.VfsLfs2.mkfs(dev)
    return vfs.VfsLfs2(dev, mtime=mtime), True


def is_blank(dev):
    """True if every block of the device reads as erased (0xFF)."""
    size = dev.ioctl(_IOCTL_BLOCK_SIZE, 0)
    erased = b"\xff" * size
    buf = bytearray(size)
    for block in range(dev.ioctl(_IOCTL_BLOCK_COUNT, 0)):
        dev.readblocks(block, buf, 0)
        if buf != erased:
            return False
    return True
