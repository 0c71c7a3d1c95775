# The new slot is a whole application before the pointer switches to it (update/switch.py, last step).
#
#   complete.check(st)     # st: the Stager; UpdateError incomplete_app or version_mismatch
#
# A signed bundle can still be one no device should boot: without main.py MicroPython starts its
# REPL, without update/trusted.mpy the new version can take no further update, and a version
# module (lib/tafel/version.mpy) that lacks or names another version than the manifest makes the
# pointer, `tafel info` and the version rules disagree with what runs. Each must be in the target
# slot (st._staged) or held by the firmware image (st._in_image, frozen builds); the version is
# then read from the slot's module, or is the image's (appimage.VERSION) if the image holds it.
# The manifest's names were checked at the head already (parts.check_app: nothing transferred
# for a bundle without them); this checks what the slot really holds, just before bootsel.write.
#
# Reading VERSION: only the interpreter reads an .mpy reliably (parsing its bytecode here would tie
# this to the bytecode's details). So the slot's lib/tafel is mounted as a small read-only view
# (_View: stat and open forwarded to the flash, or to the simulator's volume, which is mounted
# nowhere) at _MOUNT, sys.path is that folder alone for one __import__("version"), and sys.path,
# sys.modules and the mount table are put back whatever happens. The running application's
# tafel.version is another module ("tafel.version") and is not touched. __import__ is looked up in
# builtins, so on the frozen build it is port/overlay.py's: that holds no top-level "version" and
# hands the look-up to the interpreter's own import, which searches sys.path (no ".frozen" on it).
# MicroPython 1.28's loader hangs on an .mpy cut short (a number read into the end never ends), so
# framed() walks the file's framing first (not its bytecode) and such a file reads as None: refused,
# never imported. A file that is framed but holds nonsense bytecode is as dangerous here as at boot;
# only a broken builder makes one (the signature and SHA-256 stand before this), and
# `tafel bundle show` imports it on the laptop first, with a timeout.
# Heap: imported by switch.py only (a few hundred bytes for this and the module read, dropped).
import sys

from micropython import const

from tafel.bundle.errors import UpdateError
from tafel.bundle.parts import APP_FILES

_VERSION_FILE = const("lib/tafel/version.mpy")
_MOUNT = const("/.tafel-check")
_MAX_SIZE = const(4096)  # bytes: a version module is a line or two (55 bytes today)


def check(st):
    """Refuse the switch unless the target slot (or the image) holds main.py, the trust store and a
    version module whose VERSION is the manifest's version."""
    m = st.manifest
    for path in APP_FILES:
        entry = m.file(path)
        if entry is None or not (st._in_image(entry) or st._staged(entry)):
            raise UpdateError("incomplete_app", path)
    if st._in_image(m.file(_VERSION_FILE)):
        found = getattr(st.image, "VERSION", None)
    else:
        found = slot_version(st.disk, "app/%s/lib/tafel" % st.target)
    if found != m.version:
        raise UpdateError("version_mismatch", (found, m.version))


def slot_version(disk, folder):
    """VERSION of folder/version.mpy through the Disk (store/fsys.py), or None if it cannot be read."""
    size = disk.size(folder + "/version.mpy")
    if size is None or size > _MAX_SIZE or not framed(disk.read(folder + "/version.mpy")):
        return None
    import vfs

    vfs.mount(_View(disk, folder), _MOUNT)
    saved_path = sys.path[:]
    saved = sys.modules.pop("version", None)
    sys.path[:] = [_MOUNT]
    try:
        return getattr(__import__("version"), "VERSION", None)
    except MemoryError:
        raise
    except Exception:  # no such module, not importable (another .mpy version), raised on import
        return None
    finally:
        sys.path[:] = saved_path
        sys.modules.pop("version", None)
        if saved is not None:
            sys.modules["version"] = saved
        vfs.umount(_MOUNT)


def framed(data):
    """False for an .mpy of format 6 whose tables and code do not end exactly at its end.

    MicroPython's loader (py/persistentcode.c) reads past a file's end as 0xff bytes, and a number
    that runs into them never ends: a cut or malformed file would hang the import (and the boot).
    So the framing is walked first: header, qstr table, constant objects, the module's code and
    its children (bytecode only, as bundles carry). Other formats are left to the import."""
    if data[:1] != b"M" or len(data) < 4:
        return False
    if data[1] != 6:
        return True  # not the framing known here: the import checks the version itself
    try:
        if data[2] & 0xFC:
            raise ValueError  # native code or architecture flags
        n_qstr, at = _uint(data, 4)
        n_obj, at = _uint(data, at)
        for _ in range(n_qstr):
            n, at = _uint(data, at)
            if not n & 1:  # else a static qstr: its number only
                at += (n >> 1) + 1  # the text and its NUL
        for _ in range(n_obj):
            at = _obj(data, at)
        return _code(data, at) == len(data)
    except (IndexError, ValueError):
        return False


def _uint(data, at):
    # A variable-length number: 7 bits a byte, high bit set on all but the last. (value, next offset)
    n = 0
    while True:
        b = data[at]
        at += 1
        n = (n << 7) | (b & 0x7F)
        if not b & 0x80:
            return n, at


def _obj(data, at):
    kind = data[at]
    if kind <= 4:  # fun table, None, False, True, Ellipsis: the kind alone
        return at + 1
    if kind > 10:
        raise ValueError
    n, at = _uint(data, at + 1)
    if kind == 10:  # a tuple of n objects
        for _ in range(n):
            at = _obj(data, at)
        return at
    return at + n + (1 if kind <= 6 else 0)  # str and bytes end in a NUL; int, float, complex not


def _code(data, at):
    # A raw code: kind and length, the bytecode, then its children (functions, classes).
    kind_len, at = _uint(data, at)
    if kind_len & 3:
        raise ValueError  # native code: bundles carry bytecode only
    at += kind_len >> 3
    if at > len(data):
        raise IndexError
    if kind_len & 4:
        n, at = _uint(data, at)
        for _ in range(n):
            at = _code(data, at)
    return at


class _View:
    # A folder of a Disk as a read-only file system MicroPython can mount (the VFS protocol: the
    # import machinery calls stat and open with paths below the mount point, "/version.mpy").
    def __init__(self, disk, folder):
        self.disk = disk
        self.folder = folder

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def stat(self, path):
        return self.disk._os.stat(self.disk.path(self.folder + path))

    def open(self, path, mode):
        if "w" in mode or "a" in mode or "+" in mode:
            raise OSError(30)  # EROFS
        return self.disk.open(self.folder + path, mode)
