# Mounting the flash: what a boot does with it, the same code on the chip (port/_boot.py) and in the simulator.
#
#   mounts, /data or /twin there                  used as it is
#   mounts, neither there, no game in the raw     used as it is (a first boot: the store makes them)
#   mounts, neither there, raw flash holds games  RECOVERY games_unlisted: a damaged root fell back to
#                                                 an old revision; nothing is created on it
#   does not mount, every block erased            formatted (a new chip)
#   does not mount, no game frame anywhere        formatted again, noted "flash_formatted" (a first
#                                                 format cut short, a half-formatted or foreign flash)
#   does not mount, game frames found             RECOVERY unmountable: never formatted here
# "Game frames" are journal frames of create records found by a raw scan of
# every block (store/rawscan.py), whatever the file system says. Recovery
# (firmware/recovery/) shows what is wrong, lets the laptop read the raw flash
# and formats only when the user asks on the device (format_all). Stock
# MicroPython on the ESP32 mounts "/" in its frozen _boot.py and formats or loops
# on its own when that fails; the Tafel image freezes port/_boot.py, which calls this.
import vfs

from tafel.compat import const

from .errors import StoreError

_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)
_IOCTL_ERASE = const(6)

MOUNTED = "mounted"
BLANK = "blank"
NO_GAMES = "no_games"
UNMOUNTABLE = "unmountable"  # recovery: no file system, games in the raw flash
UNLISTED = "games_unlisted"  # recovery: a file system without /data and /twin, games in the raw flash
RECOVERY = (UNMOUNTABLE, UNLISTED)
STORE_DIRS = ("data", "twin")  # the store's two trees (store.py); either one means it is ours

_notes = []  # what mount() did that the boot check reports (take_notes)


def decide(dev, mtime=True):
    """(vfs.VfsLfs2 or None, what, games): what the boot must do with the block device `dev`.

    what: MOUNTED (the file system, to use), BLANK or NO_GAMES (to format), or one of
    RECOVERY (no file system to use; games: how many the raw flash holds). Changes nothing."""
    try:
        vol = vfs.VfsLfs2(dev, mtime=mtime)
    except OSError:
        vol = None
    if vol is not None:
        for name in STORE_DIRS:
            try:
                vol.stat(name)
                return vol, MOUNTED, 0
            except OSError:
                pass
    from store.rawscan import scan

    ids, used = scan(dev)
    if ids:
        return None, UNLISTED if vol is not None else UNMOUNTABLE, len(ids)
    if vol is not None:
        return vol, MOUNTED, 0
    return None, BLANK if not used else NO_GAMES, 0


def mount(dev, mtime=True):
    """(vfs.VfsLfs2 object, formatted?) for the block device `dev`, by decide()'s rules.

    Raises StoreError("fs_unreadable", (what, games)) when the flash needs recovery."""
    vol, what, games = decide(dev, mtime)
    if what == MOUNTED:
        return vol, False
    if what in RECOVERY:
        raise StoreError("fs_unreadable", (what, games))
    if what == NO_GAMES:
        _notes.append(("flash_formatted", None))
    vfs.VfsLfs2.mkfs(dev)
    return vfs.VfsLfs2(dev, mtime=mtime), True


def take_notes():
    """[(key, detail)] of what mounting did since the last call (the boot check's notes)."""
    out = _notes[:]
    del _notes[:]
    return out


def format_all(dev, progress=None):
    """Recovery's format, asked for by the user: every block that is not erased is erased (so no
    stale game comes back into a raw scan), then an empty file system. progress(done, blocks)."""
    size = dev.ioctl(_IOCTL_BLOCK_SIZE, 0)
    count = dev.ioctl(_IOCTL_BLOCK_COUNT, 0)
    buf = bytearray(size)
    erased = b"\xff" * size
    for block in range(count):
        dev.readblocks(block, buf, 0)
        if buf != erased:
            dev.ioctl(_IOCTL_ERASE, block)
        if progress is not None:
            progress(block + 1, count)
    vfs.VfsLfs2.mkfs(dev)


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
