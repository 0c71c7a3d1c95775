# The storage code's only door to the file system: files under one folder.
#
# On the device the file system is already mounted at "/" (MicroPython's boot
# does that), so Disk(None, "/data") uses `os` and the built-in open(). The
# simulator and the tests hand in a vfs.VfsLfs2 object instead, used directly
# without mounting it anywhere, so a test can throw a "powered-off" file
# system away and mount the same flash image afresh.
#
# Paths given to Disk are relative to its folder ("live/000001.000").
import os

from tafel.compat import const

_ENOENT = const(2)
_EEXIST = const(17)
# harden(): a metadata block of 4 KB takes about 30 commits of a 100-byte inline file
_HARDEN_WRITES = const(40)
_HARDEN_BYTES = const(100)


class Disk:
    def __init__(self, vol=None, root="/data"):
        self.vol = vol
        self._os = os if vol is None else vol
        self._open = open if vol is None else vol.open
        self.root = root.rstrip("/")

    def path(self, rel):
        return self.root + "/" + rel if rel else (self.root or "/")

    def open(self, rel, mode):
        return self._open(self.path(rel), mode)

    def open_path(self, path, mode):
        """open() of a path path() made once (no path string made at each call)."""
        return self._open(path, mode)

    def mkdir(self, rel):
        """Makes the folder; True if it was made now, False if it was there."""
        try:
            self._os.mkdir(self.path(rel))
            return True
        except OSError as err:
            if err.errno != _EEXIST:
                raise
            return False

    def listdir(self, rel):
        """[(name, size)] of the files in a folder; [] if it does not exist.
        A list: the caller may remove files while it goes through it."""
        return list(self.files(rel))

    def files(self, rel):
        """Yields (name, size) of the files in a folder, none if it does not
        exist: for a large folder (games/), one entry in RAM at a time. Remove
        nothing in the folder until the walk is over."""
        try:
            found = self._os.ilistdir(self.path(rel))
        except OSError as err:
            if err.errno == _ENOENT:
                return
            raise
        prefix = rel + "/" if rel else ""
        for e in found:
            if e[1] == 0x8000:
                # LittleFS gives the size; the unix port's host folders (VfsPosix) do not.
                yield e[0], e[3] if len(e) > 3 else self.size(prefix + e[0])

    def entries(self, rel):
        """[(name, kind)] in a folder, kind 0x4000 for a folder, 0x8000 for a file; [] if it does not exist."""
        try:
            return [(e[0], e[1]) for e in self._os.ilistdir(self.path(rel))]
        except OSError as err:
            if err.errno == _ENOENT:
                return []
            raise

    def size(self, rel):
        """The file's size in bytes, or None if there is no such file."""
        try:
            return self._os.stat(self.path(rel))[6]
        except OSError as err:
            if err.errno == _ENOENT:
                return None
            raise

    def open_existing(self, rel):
        """The file opened for reading, or None if there is no such file."""
        try:
            return self.open(rel, "rb")
        except OSError as err:
            if err.errno == _ENOENT:
                return None
            raise

    def read(self, rel):
        """The whole file, or None if there is no such file."""
        f = self.open_existing(rel)
        if f is None:
            return None
        try:
            return f.read()
        finally:
            f.close()

    def remove(self, rel):
        """Removes a file; a file that is already gone is fine."""
        try:
            self._os.remove(self.path(rel))
        except OSError as err:
            if err.errno != _ENOENT:
                raise

    def rename(self, old, new):
        # LittleFS replaces an existing `new` in one atomic metadata commit.
        self._os.rename(self.path(old), self.path(new))

    def write_new(self, rel, chunks):
        """Write-new-then-rename: `rel` holds either its old or its new bytes,
        never a mix, whatever moment the power goes. `chunks` is bytes or an
        iterable of bytes."""
        tmp = rel + ".new"
        f = self.open(tmp, "wb")
        try:
            if isinstance(chunks, (bytes, bytearray)):
                f.write(chunks)
            else:
                for chunk in chunks:
                    f.write(chunk)
        finally:
            f.close()  # close syncs; an error here leaves only the .new file
        self.rename(tmp, rel)

    def harden(self, rel):
        """Makes LittleFS write the folder's metadata into both blocks of its
        pair. A new folder's metadata lives in one block until that block
        fills and is compacted into the other; until then losing that one
        block loses the folder and LittleFS no longer mounts at all. Commits
        of a small file (inline, in the metadata) fill the block and force
        the compaction: after it either block holds a whole, if older, state.
        About _HARDEN_WRITES commits of 128 bytes: once per folder, not per boot."""
        pad = (rel + "/" if rel else "") + ".pad"
        data = b"\xa5" * _HARDEN_BYTES
        for _ in range(_HARDEN_WRITES):
            f = self.open(pad, "wb")
            try:
                f.write(data)
            finally:
                f.close()
        self.remove(pad)

    def sibling(self, name):
        """A Disk on the folder `name` beside this one's folder, on the same volume."""
        return Disk(self.vol, self.root[:self.root.rfind("/") + 1] + name)

    def parent(self):
        """A Disk on the folder holding this one's folder."""
        return Disk(self.vol, self.root[:self.root.rfind("/")] or "/")

    def unused_name(self, rel):
        """`rel`, or `rel`.1, .2, ... : the first that names no file."""
        out, n = rel, 0
        while self.size(out) is not None:
            n += 1
            out = "%s.%d" % (rel, n)
        return out

    def space(self):
        """(free blocks, total blocks, block size) of the whole file system."""
        st = self._os.statvfs(self.path(""))
        free, total = st[3], st[2]
        if free > total:  # LittleFS counted more in use than exists: wrapped below 0
            free = 0
        return free, total, st[0]
