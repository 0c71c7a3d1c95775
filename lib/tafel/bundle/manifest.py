# The bundle format: its reader, for the device (bundle/reader.py uses it) and
# the laptop (host_tools/update/bundle_build.py imports this very module from the core
# and writes what parse() reads: encode_manifest, pack_header, pack). The
# writer lives on the laptop only: every function here costs the device heap
# once imported (bench/update_crypto.py). docs/updates.md describes the format
# for people. Runs unchanged on MicroPython and CPython. The header's constants and
# functions live in bundle/header.py (the signature check needs them without this
# file in the heap) and are this module's names too.
#
# A bundle is one file:
#   header     20 bytes: MAGIC (8), format (1), flags (1, zero), manifest
#              length (2, big-endian), key id (8: SHA-256 of the signing
#              public key, first 8 bytes)
#   manifest   ASCII text, `length` bytes (below; parse() reads it)
#   signature  64 bytes: Ed25519 over signed_message(header, SHA-256 of the
#              manifest), that is the header followed by the manifest's SHA-256
#   bodies     each file's stored bytes, in manifest order, nothing after
#
# The manifest, line by line (each line ends with "\n", fields separated by
# one space, every line present and in this order):
#   app 0.2.0                  application version (digits and dots)
#   min-boot 0                 oldest boot.py (BOOT_VERSION) that may run it
#   downgrade no               "yes": may replace a newer version (signed in)
#   mpy 6                      .mpy version of the compiled files (what MicroPython
#                              checks when it imports bytecode: it must be its own)
#   window 10                  deflate window (bits) of the compressed files
#   files 73                   number of file lines that follow
#   file SHA256 SIZE ENC STORED PATH     one per file, PATH in ascending order
# SHA256 (64 lowercase hex digits) and SIZE are those of the file as it is to
# be written on the device; ENC is "raw" (STORED = SIZE, the bytes as they
# are) or "deflate" (a zlib stream, RFC 1950, window at most 2^window);
# STORED is the number of bytes the body takes in the bundle. PATH is relative
# to the application's root ("/" on a fresh device): segments of letters,
# digits, "_", "-" and ".", separated by "/", at most MAX_PATH characters.
import sys
from array import array
from binascii import unhexlify

from tafel.bundle.errors import UpdateError
from tafel.bundle.header import (  # noqa: F401
    FORMAT,
    HEADER_FORMAT,
    HEADER_SIZE,
    KEY_ID_SIZE,
    MAGIC,
    MAX_MANIFEST,
    SIGNATURE_SIZE,
    key_id,
    signed_message,
    unpack_header,
)

try:
    from collections import namedtuple
except ImportError:  # a MicroPython build without collections
    from ucollections import namedtuple
from tafel.compat import const

# Private constants are const(): on the device they take no global and no interned name.
_MAX_FILES = const(200)
MAX_PATH = const(64)
_MAX_FILE_SIZE = const(262144)  # bytes, one file as written on the device
WINDOW = const(10)  # deflate window bits the laptop compresses with: 1 KB of RAM to inflate
_MAX_WINDOW = const(12)  # the largest window a device inflates (4 KB)
_RUN = const(32)  # Files: entries an array holds (128 bytes of body offsets at most)
RAW = "raw"
DEFLATE = "deflate"

_HEX = const(b"0123456789abcdef")
_PATH_CHARS = const(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
_FIELDS = const((b"app", b"min-boot", b"downgrade", b"mpy", b"window", b"files"))

# One file of the bundle. offset: where its body starts in the bundle file.
FileEntry = namedtuple("FileEntry", ("path", "size", "sha256", "encoding", "stored", "offset"))


# ---- versions ---------------------------------------------------------------


def parse_version(text):
    """'0.2.10' -> (0, 2, 10); ValueError unless 1 to 4 numbers separated by dots."""
    parts = text.split(".")
    try:
        if not 1 <= len(parts) <= 4:
            raise ValueError
        return tuple(_number(part) for part in parts)
    except ValueError:
        raise ValueError("version %r: 1 to 4 numbers separated by dots" % (text,))


def compare_versions(a, b):
    """-1, 0 or 1 as version text a is older than, the same as or newer than b ('1.0' == '1.0.0')."""
    va = list(parse_version(a))
    vb = list(parse_version(b))
    while len(va) < len(vb):
        va.append(0)
    while len(vb) < len(va):
        vb.append(0)
    return (va > vb) - (va < vb)


def running_mpy():
    """The .mpy version this MicroPython imports bytecode of (6 for 1.22 and later); None on CPython.

    (The sub-version and architecture in sys.implementation._mpy matter only
    for native code, which bundles do not hold.)"""
    value = getattr(sys.implementation, "_mpy", None)
    return None if value is None else value & 0xFF


def _number(text):
    # A decimal number as the manifest writes it: ASCII digits, no sign, no leading zero. (Not
    # a loop over the characters: on MicroPython each would become an interned name.)
    if not text or text.strip("0123456789") or (text.startswith("0") and len(text) > 1):
        raise ValueError
    return int(text)


# ---- the manifest -----------------------------------------------------------


class Manifest:
    """A parsed, signature-checked manifest (attributes as in the text, see the top)."""

    def __init__(self, version, min_boot, allow_downgrade, mpy, window, files, kid, body_start, raw=None):
        self.version = version  # str, e.g. "0.2.0"
        self.min_boot = min_boot  # int
        self.allow_downgrade = allow_downgrade  # bool
        self.mpy = mpy  # int, e.g. 6
        self.window = window  # int
        self.files = files  # Files: FileEntry by index or in a for loop, in bundle order
        self.key_id = kid  # 8 bytes
        self.body_start = body_start  # offset of the first body in the bundle
        self.total_size = files.end  # the whole bundle's length in bytes
        self.files_size = files.size  # bytes the files take once written
        self.raw = raw  # the manifest's bytes if parse() had them (None when read a line at a time)

    def file(self, path):
        """The entry for `path`, or None."""
        files = self.files
        low, high = 0, len(files)
        while low < high:  # the paths ascend: a few entries read, not all
            mid = (low + high) >> 1
            entry = files[mid]
            if entry.path == path:
                return entry
            if entry.path < path:
                low = mid + 1
            else:
                high = mid
        return None


class Files:
    """The file entries of a manifest: len(), [i] and iteration give FileEntry tuples.

    A device's heap is small, so only where each file line ends and where its body starts are
    kept (6 bytes a file, in arrays of _RUN entries: no one block of heap grows with the number of
    files, which a fragmented heap may not have); an entry is parsed again from the manifest's text
    when asked for. src holds that text from `base` on: the manifest's bytes, or a stream that
    seeks (a file, BytesIO; left where it was after each look). The text was checked against the
    signed digest when it was parsed; a stream must stay open and unchanged while the entries are
    used."""

    def __init__(self, src, base, first, body_start, count):
        self.src = src
        self.base = base
        self.end = body_start  # where the next body starts
        self.size = 0  # the files' bytes once written
        self._count = count
        self._first = first  # where the first file line starts
        self._ends = []  # [i // _RUN][i % _RUN]: where file line i ends
        self._offsets = []  # the same for each body's offset in the bundle
        for at in range(0, count, _RUN):
            self._ends.append(array("H", range(min(_RUN, count - at))))
            self._offsets.append(array("I", range(min(_RUN, count - at))))

    def _add(self, i, end, size, stored):
        self._ends[i // _RUN][i % _RUN] = end
        self._offsets[i // _RUN][i % _RUN] = self.end
        self.end += stored
        self.size += size

    def __len__(self):
        return self._count

    def __getitem__(self, index):
        count = self._count
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError
        start = (self._ends[(index - 1) // _RUN][(index - 1) % _RUN] if index else self._first) + self.base
        n = self._ends[index // _RUN][index % _RUN] + self.base - start
        src = self.src
        if isinstance(src, bytes):
            line = src[start:start + n]
        else:
            back = src.tell()
            src.seek(start)
            line = src.read(n)
            src.seek(back)
        try:
            path, sha, size, encoding, stored = _file_line(line)
        except ValueError:  # the text changed since it was checked
            raise UpdateError("bad_manifest", 7 + index)
        return FileEntry(path.decode(), size, unhexlify(sha), encoding, stored,
                         self._offsets[index // _RUN][index % _RUN])

    def __iter__(self):
        for index in range(self._count):
            yield self[index]


def _file_line(line):
    # "file SHA256 SIZE ENC STORED PATH\n" -> (path, hex digest, size, RAW or DEFLATE, stored);
    # ValueError if malformed.
    parts = line[:-1].split(b" ")
    if line[-1:] != b"\n" or len(parts) != 6 or parts[0] != b"file":
        raise ValueError
    _, sha, size, encoding, stored, path = parts
    _check_path(path)
    if len(sha) != 64:
        raise ValueError
    for c in sha:
        if c not in _HEX:
            raise ValueError
    size = _number(_ascii(size))
    stored = _number(_ascii(stored))
    if size > _MAX_FILE_SIZE:
        raise ValueError
    if encoding == b"raw":
        if stored != size:
            raise ValueError
        return path, sha, size, RAW, stored
    if encoding != b"deflate" or stored == 0 or stored > _MAX_FILE_SIZE:
        raise ValueError
    return path, sha, size, DEFLATE, stored


def parse(raw, kid, body_start):
    """A Manifest from the manifest's bytes; UpdateError("bad_manifest", line number) if malformed.

    kid is the header's key id; body_start the offset of the first body in the
    bundle (for the entries' offsets)."""
    raw = bytes(raw)
    return parse_lines(_split(raw), kid, body_start, raw, 0, raw)


def _split(raw):
    position = 0
    while position < len(raw):
        end = raw.find(b"\n", position)
        if end < 0:
            end = len(raw) - 1  # the last line lacks its "\n": parse_lines says so
        yield raw[position:end + 1]
        position = end + 1


def parse_lines(lines, kid, body_start, src, base, raw=None):
    """parse() for the manifest's lines (each with its "\n") from an iterator, used up here.

    For a device that reads the manifest from flash a line at a time: src and base are where
    the entries are read again from (Files), raw the bytes if held whole (Manifest.raw)."""
    values = []
    number = 0
    at = 0  # offset in the manifest of the line after this one
    try:
        for number in range(6):
            line = next(lines)
            at += len(line)
            parts = line[:-1].split(b" ")
            if line[-1:] != b"\n" or len(parts) != 2 or parts[0] != _FIELDS[number]:
                raise ValueError
            value = _ascii(parts[1])
            if number == 0:
                parse_version(value)
            elif number == 2:
                if value not in ("yes", "no"):
                    raise ValueError
            else:
                value = _number(value)
            values.append(value)
        if not 9 <= values[4] <= _MAX_WINDOW:
            number = 4
            raise ValueError
        count = values[5]
        if count > _MAX_FILES:
            raise ValueError
        files = Files(src, base, at, body_start, count)
        previous = b""
        for number in range(6, 6 + count):
            line = next(lines)
            at += len(line)
            path, _, size, _, stored = _file_line(line)
            if path <= previous:
                raise ValueError  # paths ascend: sorted, no file twice
            previous = path
            files._add(number - 6, at, size, stored)
        number = 5
        for _ in lines:
            raise ValueError  # more file lines than "files" says
    except StopIteration:
        raise UpdateError("bad_manifest", number + 1)  # fewer lines than there must be
    except ValueError:
        raise UpdateError("bad_manifest", number + 1)
    return Manifest(values[0], values[1], values[2] == "yes", values[3], values[4], files, bytes(kid),
                    body_start, raw)


def _ascii(data):
    # Printable ASCII without spaces, as str; the same on both interpreters
    # (MicroPython's decode does not always check what it decodes).
    for c in data:
        if not 0x21 <= c <= 0x7E:
            raise ValueError
    return data.decode()


def _check_path(path):
    if not 0 < len(path) <= MAX_PATH:
        raise ValueError
    for segment in path.split(b"/"):
        if not segment or segment == b"." or segment == b"..":
            raise ValueError
        for c in segment:
            if c not in _PATH_CHARS:
                raise ValueError
