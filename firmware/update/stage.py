# Staging an update into the slot beside the running one, then switching to it.
#
#   st = Stager(vol, TRUSTED_KEYS)           # vol: None on the device, the VfsLfs2 in the simulator
#   st = stager(vol)                         # the same with the running version's trust store
#   st.begin(bundle_id, head_len)            # a new bundle, or the same one resumed
#   st.put(0, offset, bytes)                 # the bundle's head: header, manifest, signature
#   st.status()                              # what is there: head bytes, then files still wanted
#   st.put(i + 1, offset, bytes)             # file i's stored body (as in the bundle)
#   st.finish()                              # verify everything, switch the pointer (bootsel.py)
#
# Layout under /app (bootsel.py has the whole picture):
#   stage/id        the bundle being staged: 8 bytes of id, then its head length (text)
#   stage/head      the bundle's head as received so far
#   stage/<i>.part  the stored (maybe compressed) body of file i as received so far
#   <slot>/<path>   a file once its body was whole and checked (write-new-then-rename)
# Every put() returns only after its bytes are on flash (a closed file is
# committed by LittleFS), so an acknowledged chunk survives a power cut, and
# a transfer resumes from what status() finds: the head's length, each
# part's length, and each staged file whose SHA-256 matches the manifest.
# Files the new version shares with the running one are copied on the device
# in finish(), never sent. In a Tafel firmware image (the application frozen
# in, firmware/port) files the image holds, by the SHA-256 its frozen
# appimage module lists, are neither sent nor stored: the slot keeps only what
# differs, and bootsel lays it over the image (port/overlay.py). Nothing
# here touches /data, and nothing switches before finish() has checked the
# signature again and every file's hash.
# All flash writes go through store.fsys.Disk (the storage code's door).
# Heap (bench/update_speed.py --heap): the reader's parts (tafel/bundle/parts.py, in the core) and
# the manifest format are imported when needed (_parts()) and dropped while the signature is
# checked, so Ed25519 and SHA-512 have the heap with only this module and
# tafel/bundle/header.py beside them. The manifest keeps the head open and reads an
# entry from it when asked (tafel/bundle/manifest.py, Files). feed() and the switch
# in finish() live in update/feed.py and update/switch.py, imported when used.
import gc

from micropython import const

import bootsel
import reserve
from store.fsys import Disk
from tafel.bundle import header
from tafel.bundle.errors import UpdateError
from tafel.version import VERSION
from update import image

# Private constants are const(): no global and no interned name on the device.
_STAGE = const("app/stage")
_ID_FILE = const("app/stage/id")
HEAD = "app/stage/head"
_MAX_HEAD = const(20 + 16384 + 64)  # header, MAX_MANIFEST, signature
PIECE = const(256)  # bytes of one block piece (pieces()) and of the Stager's own buffer
_PIECES = const(4)  # pieces of a block: 1 KB, wire.UPDATE_BLOCK and update/fetch.py's CHUNK
_RUNNING_MPY = const(-1)  # Stager's mpy: this interpreter's (parts.RUNNING_MPY), looked up when needed

# What status() says of the transfer.
_NONE = const(0)  # nothing staged (or another bundle: begin() again)
_HEAD_PART = const(1)  # the head is coming
_READY = const(2)  # the head is whole and verified: files are wanted


class Stager:
    def __init__(self, vol, trusted_keys, running_version=VERSION, boot_version=bootsel.BOOT_VERSION,
                 mpy=_RUNNING_MPY):
        """vol: None on the device (the flash at /), else the VfsLfs2 object
        (the simulator, tests); trusted_keys: update/trusted.py's; mpy: the .mpy
        version bundles must carry (None: any)."""
        self.disk = Disk(vol, "")
        fs = vol
        self.trusted = trusted_keys
        self.running_version = running_version
        self.boot_version = boot_version
        self.mpy = mpy
        self.fs = fs
        st = bootsel.read(fs)
        self.current = st["slot"] if st is not None else ""  # "" = flat at /
        self.target = "b" if self.current == "a" else "a"
        self.manifest = None
        self._head = None  # the head, open while the manifest reads its entries from it
        self.buf = bytearray(PIECE)  # reading, hashing, inflating, copying: a piece at a time
        self._pieces = None  # pieces(): made when a transfer first needs them
        self.image = image.load()  # None on stock MicroPython
        self._id = None
        self._head_len = 0
        self._load_id()

    # ---- paths ----------------------------------------------------------------------

    def _slot(self, name, path):
        # A file of a slot, from the root; slot "" = the flat install at /.
        return ("app/%s/%s" % (name, path)) if name else path

    def _part(self, index):
        return "%s/%d.part" % (_STAGE, index)

    # ---- the transfer ------------------------------------------------------------------

    def _load_id(self):
        data = self.disk.read(_ID_FILE)
        if data is not None and len(data) > 8:
            try:
                self._head_len = int(data[8:])
                self._id = bytes(data[:8])
            except ValueError:
                self._id = None

    def begin(self, bundle_id, head_len):
        """Start staging the bundle named bundle_id (8 bytes), or resume it; status() after."""
        if len(bundle_id) != 8:
            raise UpdateError("bad_manifest", 0)
        self._may_begin(head_len)
        if self._id != bytes(bundle_id) or self._head_len != head_len:
            self._fresh_stage()
            self._name(bundle_id, head_len)
        self._drop_manifest()
        if self.disk.size(HEAD) == head_len:
            self._open_head()

    def _may_begin(self, head_len):
        if not 20 < head_len <= _MAX_HEAD:
            raise UpdateError("bad_manifest", 0)
        st = bootsel.read(self.fs)
        if st is not None and st.get("tries") is not None:
            raise UpdateError("on_trial", st.get("version"))  # confirm (or roll back) the last one first

    def _fresh_stage(self):
        self._clear_stage()
        st = bootsel.read(self.fs)
        if st is not None and st.get("prev") is not None:  # its slot is about to be written over:
            st["prev"] = st["prev_version"] = st["prev_id"] = None  # no going back to it (bootsel.py)
            bootsel.write(self.fs, st)
        self.disk.mkdir("app")
        self.disk.mkdir(_STAGE)

    def _name(self, bundle_id, head_len):
        self.disk.write_new(_ID_FILE, bytes(bundle_id) + str(head_len).encode())
        self._id = bytes(bundle_id)
        self._head_len = head_len

    def status(self):
        """(state, head bytes there, [(file index, body bytes there)] of the files still wanted)."""
        if self._id is None:
            return _NONE, 0, []
        with reserve.room:  # the head's check and the running slot's files are opened here
            have = self.disk.size(HEAD) or 0
            m = self._checked()
            if m is None:
                return _HEAD_PART, have, []
            wanted = []
            for i in range(len(m.files)):
                entry = m.files[i]
                if self._in_image(entry) or self._staged(entry) or self._local(entry):
                    continue
                got = self.disk.size(self._part(i)) or 0
                if got == entry.stored:  # whole, but cut off before it was unpacked
                    self._unpack(entry, self._part(i))
                    continue
                wanted.append((i, got))
            return _READY, have, wanted

    def pieces(self):
        """The buffers a transfer gathers one block (1 KB) in before put() takes it: _PIECES
        bytearrays of PIECE bytes, made once. Not one bytearray of 1 KB: after hours of play the
        heap has free runs of a few hundred bytes, seldom one of a kilobyte."""
        if self._pieces is None:
            with reserve.room:  # its run of heap for them, where a long-running app has few such runs
                self._pieces = [bytearray(PIECE) for _ in range(_PIECES)]
        return self._pieces

    def put(self, what, offset, data):
        """Append bytes at `offset` to the head (what 0) or to file what-1's body; data is a
        bytes-like object or a tuple of them (a block in pieces, written one after the other).

        Returns the bytes now there (durable). A chunk already there is not
        written again; one beyond the end writes nothing (the answer says where
        to go on from)."""
        if self._id is None:
            raise UpdateError("no_transfer")
        entry = None
        if what == 0:
            name, size = HEAD, self._head_len
        else:
            m = self._checked()
            if m is None or what > len(m.files):
                raise UpdateError("no_transfer")
            entry = m.files[what - 1]
            name, size = self._part(what - 1), entry.stored
            if self._staged(entry):
                return size
        with reserve.room:  # the files this opens need runs of heap a long-running app seldom has
            return self._put(what, name, size, entry, offset, data)

    def _put(self, what, name, size, entry, offset, data):
        have = self.disk.size(name) or 0
        pieces = data if type(data) is tuple else (data,)
        n = 0
        for piece in pieces:
            n += len(piece)
        if offset != have or not n:
            return have
        if have + n > size:
            raise UpdateError("too_large", (have + n, size))
        f = self.disk.open(name, "ab")
        try:
            for piece in pieces:
                f.write(piece)
        finally:
            f.close()  # committed on flash: the ACK may go
        have += n
        if have == size:
            if what == 0:
                self._open_head()
            else:
                self._unpack(entry, name)
        return have

    def _checked(self):
        # The checked manifest, or None while the head is not whole. A Stager made anew (the link
        # lets it go when a session ends; the next session's requests make another) reads and
        # checks it again from the head on flash, as begin() does.
        if self.manifest is None and self._id is not None and self.disk.size(HEAD) == self._head_len:
            self._open_head()
        return self.manifest

    def _open_head(self):
        # The whole head is there: check it as the device's bundle reader does. A manifest held
        # from before goes first: the check needs its heap (two would not fit beside the crypto).
        self._drop_manifest()
        header.forget(("tafel.bundle.parts", "tafel.bundle.manifest"))
        f = self.disk.open(HEAD, "rb")
        try:
            checked = header.check(f, self.trusted, self.buf)  # before _parts(): not beside the crypto
            m = _parts().parse_checked(f, checked)
            checked = None
            mpy = _parts().RUNNING_MPY if self.mpy == _RUNNING_MPY else self.mpy
            _parts().check_install(m, self.running_version, self.boot_version, mpy)
            _parts().check_app(m)  # main.py, trust store, version module: before anything is sent
            from update import room

            room.check(self, m)  # or no_space, before anything is sent
            room = None
            header.forget(("update.room",))  # once a head: not held through the transfer
        except Exception as err:
            f.close()
            if isinstance(err, UpdateError):
                self._clear_stage()
            raise
        self.manifest = m
        self._head = f

    def _drop_manifest(self):
        self.manifest = None
        if self._head is not None:
            self._head.close()
            self._head = None

    def _unpack(self, entry, part):
        # A body is whole: inflate and check it into the target slot, then drop the body.
        path = self._slot(self.target, entry.path)
        self._mkdirs(path)
        window = self.manifest.window
        rested = self._rest_head()  # two files open beside it: three file objects' heap at once
        gc.collect()  # the body's file just closed, and the head's: their runs for the two opened now
        try:
            src = self.disk.open(part, "rb")
            out = self.disk.open(path + ".new", "wb")
            try:
                _parts().verify_file(src, entry, window, out, self.buf)
            except UpdateError:
                out.close()
                src.close()
                self.disk.remove(path + ".new")
                self.disk.remove(part)
                raise
            out.close()
            src.close()
            self.disk.rename(path + ".new", path)
            self.disk.remove(part)
        finally:
            if rested:
                self._wake_head()

    def _rest_head(self):
        # The manifest reads its entries from the head on flash: closed while a body is unpacked
        # (the entry being unpacked is read already), opened again after. True if it was closed.
        m = self.manifest
        if self._head is None or m is None or m.files.src is not self._head:
            return False
        self._head.close()
        self._head = None
        return True

    def _wake_head(self):
        if self.manifest is not None:
            try:
                self._head = self.manifest.files.src = self.disk.open(HEAD, "rb")
            except (OSError, MemoryError):  # the next request checks the head on flash again
                self.manifest = None

    def _in_image(self, entry):
        return self.image is not None and image.holds(self.image, entry)

    def _staged(self, entry):
        return self._matches(self._slot(self.target, entry.path), entry)

    def _local(self, entry):
        return self._matches(self._slot(self.current, entry.path), entry)

    def _matches(self, path, entry):
        # As bundle.file_matches, through the Disk (the simulator's volume is not mounted). The
        # size first: a stat makes no file object (252 bytes of heap on the chip, seldom there in
        # one piece beside the checked head), and a new slot's files are mostly not there yet.
        if self.disk.size(path) != entry.size:
            return False
        f = self.disk.open_existing(path)
        if f is None:
            return False
        try:
            return _parts().stream_matches(f, entry, self.buf)
        finally:
            f.close()

    # ---- the switch -------------------------------------------------------------------

    def finish(self):
        """Check everything again, copy the files shared with the running version, switch.

        Returns the new version. After it, the next boot runs the new slot on trial."""
        if self._id is None or self.disk.size(HEAD) != self._head_len:
            raise UpdateError("no_transfer")
        self._pieces = None  # the transfer is over: its kilobyte goes back to the heap first
        self._open_head()  # the signature again, from flash
        from update.switch import switch

        with reserve.room:  # the copies and checks open two files at a time
            return switch(self)

    def _mkdirs(self, path):
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            self.disk.mkdir("/".join(parts[:i]))

    def _clear_stage(self):
        self._drop_manifest()  # closes the head before it goes
        for name, _ in self.disk.listdir(_STAGE):
            self.disk.remove(_STAGE + "/" + name)
        self._id = None
        self._head_len = 0

    def feed(self, stream, step=PIECE):
        """Stage a whole bundle read from `stream` from its start (a file, a socket's
        HTTP body): the head, then each body in order, kept where it is wanted and
        skipped where the device has that file already. Then finish() switches."""
        from update.feed import feed

        try:
            return feed(self, stream, step, HEAD)
        finally:
            header.forget(("update.feed",))  # finish() has the heap without it

def stager(vol):
    """The Stager for an update of the running version (link/update.py, ui/wifi_update.py): its
    trust store read from update/trusted.py, whose module goes again at once (the keys stay)."""
    from update.trusted import TRUSTED_KEYS

    header.forget(("update.trusted",))
    return Stager(vol, TRUSTED_KEYS)


def forget():
    """Let the staging code go once no transfer is under way (link/link.py, when a session ends:
    the state is on flash, and the next transfer imports it again and resumes)."""
    header.forget(("link.update", "update.stage", "update.image", "update.switch",
                   "update.complete", "update.feed", "update.room", "tafel.bundle.parts", "tafel.bundle.manifest",
                   "tafel.bundle.header"))


def _parts():
    # tafel/bundle/parts.py (the bundle reader's parts staging uses), imported again if _open_head dropped it.
    from tafel.bundle import parts

    return parts
