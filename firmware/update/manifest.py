# The bundle format, shared by the device (update/bundle.py reads it) and the
# laptop (host_tools/bundle_build.py writes it, importing this very file from
# firmware/). docs/updates.md describes the format for people; this is the
# code. Runs unchanged on MicroPython and CPython.
#
# A bundle is one file:
#   header     20 bytes: MAGIC (8), format (1), flags (1, zero), manifest
#              length (2, big-endian), key id (8: SHA-256 of the signing
#              public key, first 8 bytes)
#   manifest   ASCII text, `length` bytes (see encode() and parse())
#   signature  64 bytes: Ed25519 over signed_message(header, manifest), that
#              is the header followed by the manifest's SHA-256
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
#   files 61                   number of file lines that follow
#   file SHA256 SIZE ENC STORED PATH     one per file, PATH in ascending order
# SHA256 (64 lowercase hex digits) and SIZE are those of the file as it is to
# be written on the device; ENC is "raw" (STORED = SIZE, the bytes as they
# are) or "deflate" (a zlib stream, RFC 1950, window at most 2^window);
# STORED is the number of bytes the body takes in the bundle. PATH is relative
# to the application's root ("/" on a fresh device): segments of letters,
# digits, "_", "-" and ".", separated by "/", at most MAX_PATH characters.
import hashlib
import struct
import sys
from binascii import hexlify, unhexlify

from update.errors import UpdateError

try:
    from collections import namedtuple
except ImportError:  # a MicroPython build without collections
    from ucollections import namedtuple

MAGIC = b"TAFELUPD"
FORMAT = 1
HEADER_SIZE = 20
SIGNATURE_SIZE = 64
KEY_ID_SIZE = 8
MAX_MANIFEST = 16384  # bytes: about 130 files
MAX_FILES = 200
MAX_PATH = 64
MAX_FILE_SIZE = 262144  # bytes, one file as written on the device
WINDOW = 10  # deflate window bits the laptop compresses with: 1 KB of RAM to inflate
MAX_WINDOW = 12  # the largest window a device inflates (4 KB)
RAW = "raw"
DEFLATE = "deflate"

_HEADER = ">8sBBH8s"
_HEX = b"0123456789abcdef"
_PATH_CHARS = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-."

# One file of the bundle. offset: where its body starts in the bundle file.
FileEntry = namedtuple("FileEntry", ("path", "size", "sha256", "encoding", "stored", "offset"))


def key_id(public_key):
    """The 8 bytes that name a public key in a bundle header."""
    return hashlib.sha256(bytes(public_key)).digest()[:KEY_ID_SIZE]


def pack_header(manifest_length, kid):
    return struct.pack(_HEADER, MAGIC, FORMAT, 0, manifest_length, kid)


def unpack_header(header):
    """(manifest length, key id) from the 20 header bytes; UpdateError if they are no header we read."""
    if len(header) < HEADER_SIZE:
        if bytes(header[:len(MAGIC)]) != MAGIC[:len(header)]:
            raise UpdateError("not_bundle")
        raise UpdateError("truncated", "header")
    magic, fmt, flags, length, kid = struct.unpack(_HEADER, header)
    if magic != MAGIC:
        raise UpdateError("not_bundle")
    if fmt != FORMAT or flags != 0:
        raise UpdateError("format", fmt)
    if length > MAX_MANIFEST:
        raise UpdateError("too_large", (length, MAX_MANIFEST))
    if length == 0:
        raise UpdateError("bad_manifest", 0)
    return length, kid


def signed_message(header, manifest):
    """What the Ed25519 signature signs: the header and the manifest's SHA-256 (52 bytes).

    Signing the digest rather than the manifest keeps the device's SHA-512 (in
    Python) to two blocks whatever the manifest's size; SHA-256 runs in C."""
    return bytes(header[:HEADER_SIZE]) + hashlib.sha256(manifest).digest()


# ---- versions ---------------------------------------------------------------


def parse_version(text):
    """'0.2.10' -> (0, 2, 10); ValueError unless 1 to 4 numbers separated by dots."""
    parts = text.split(".")
    if not 1 <= len(parts) <= 4:
        raise ValueError("version %r: 1 to 4 numbers separated by dots" % (text,))
    return tuple(_number(part, "version %r" % (text,)) for part in parts)


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


def _number(text, what):
    # A decimal number as the manifest writes it: ASCII digits, no sign, no leading zero.
    if not text or (len(text) > 1 and text[0] == "0"):
        raise ValueError("%s: %r is not a plain number" % (what, text))
    for c in text:
        if not "0" <= c <= "9":
            raise ValueError("%s: %r is not a plain number" % (what, text))
    return int(text)


# ---- the manifest -----------------------------------------------------------


class Manifest:
    """A parsed, signature-checked manifest (attributes as in the text, see the top)."""

    def __init__(self, version, min_boot, allow_downgrade, mpy, window, files, kid, raw, body_start):
        self.version = version  # str, e.g. "0.2.0"
        self.min_boot = min_boot  # int
        self.allow_downgrade = allow_downgrade  # bool
        self.mpy = mpy  # int, e.g. 6
        self.window = window  # int
        self.files = files  # list of FileEntry in bundle order
        self.key_id = kid  # 8 bytes
        self.raw = raw  # the manifest's bytes as signed
        self.body_start = body_start  # offset of the first body in the bundle
        end = body_start
        size = 0
        for entry in files:
            end += entry.stored
            size += entry.size
        self.total_size = end  # the whole bundle's length in bytes
        self.files_size = size  # bytes the files take once written

    def file(self, path):
        """The entry for `path`, or None."""
        for entry in self.files:
            if entry.path == path:
                return entry
        return None


def encode(version, min_boot, allow_downgrade, mpy, window, files):
    """The manifest's bytes; files: (path, size, sha256 bytes, encoding, stored), any order."""
    parse_version(version)
    lines = [
        "app %s" % version,
        "min-boot %d" % min_boot,
        "downgrade %s" % ("yes" if allow_downgrade else "no"),
        "mpy %d" % mpy,
        "window %d" % window,
        "files %d" % len(files),
    ]
    for path, size, sha, encoding, stored in sorted(files):
        lines.append("file %s %d %s %d %s" % (hexlify(sha).decode(), size, encoding, stored, path))
    raw = ("\n".join(lines) + "\n").encode()
    parse(raw, b"\0" * KEY_ID_SIZE, 0)  # the writer checks what the reader will
    return raw


def parse(raw, kid, body_start):
    """A Manifest from the manifest's bytes; UpdateError("bad_manifest", line number) if malformed.

    kid is the header's key id; body_start the offset of the first body in the
    bundle (for the entries' offsets)."""
    lines = bytes(raw).split(b"\n")
    if lines[-1] != b"" or len(lines) < 7:
        raise UpdateError("bad_manifest", len(lines))
    lines.pop()  # after the last "\n"
    values = []
    for number in range(6):
        parts = lines[number].split(b" ")
        if len(parts) != 2 or parts[0] != _FIELDS[number]:
            raise UpdateError("bad_manifest", number + 1)
        values.append(parts[1])
    number = 0
    try:
        version = _ascii(values[0])
        parse_version(version)
        number = 1
        min_boot = _number(_ascii(values[1]), "min-boot")
        number = 2
        if values[2] not in (b"yes", b"no"):
            raise ValueError("downgrade")
        number = 3
        mpy = _number(_ascii(values[3]), "mpy")
        number = 4
        window = _number(_ascii(values[4]), "window")
        if not 9 <= window <= MAX_WINDOW:
            raise ValueError("window")
        number = 5
        count = _number(_ascii(values[5]), "files")
        if count > MAX_FILES or len(lines) != 6 + count:
            raise ValueError("files")
        files = []
        offset = body_start
        previous = ""
        for number in range(6, len(lines)):
            entry = _file_line(lines[number], offset)
            if entry.path <= previous:
                raise ValueError("paths out of order")
            files.append(entry)
            offset += entry.stored
            previous = entry.path
    except ValueError:
        raise UpdateError("bad_manifest", number + 1)
    return Manifest(version, min_boot, values[2] == b"yes", mpy, window, files, bytes(kid), bytes(raw), body_start)


_FIELDS = (b"app", b"min-boot", b"downgrade", b"mpy", b"window", b"files")


def _ascii(data):
    # Printable ASCII without spaces, as str; the same on both interpreters
    # (MicroPython's decode does not always check what it decodes).
    for c in data:
        if not 0x21 <= c <= 0x7E:
            raise ValueError("not printable ASCII")
    return data.decode()


def _file_line(line, offset):
    parts = line.split(b" ")
    if len(parts) != 6 or parts[0] != b"file":
        raise ValueError("file line")
    hex_sha, size, encoding, stored, path = parts[1], parts[2], parts[3], parts[4], parts[5]
    if len(hex_sha) != 64:
        raise ValueError("sha256")
    for c in hex_sha:
        if c not in _HEX:
            raise ValueError("sha256")
    size = _number(_ascii(size), "size")
    stored = _number(_ascii(stored), "stored")
    encoding = _ascii(encoding)
    if size > MAX_FILE_SIZE:
        raise ValueError("size")
    if encoding == RAW:
        if stored != size:
            raise ValueError("stored")
    elif encoding != DEFLATE or stored == 0 or stored > MAX_FILE_SIZE:
        raise ValueError("encoding")
    _check_path(path)
    return FileEntry(path.decode(), size, unhexlify(hex_sha), encoding, stored, offset)


def _check_path(path):
    if not 0 < len(path) <= MAX_PATH:
        raise ValueError("path")
    for segment in path.split(b"/"):
        if not segment or segment == b"." or segment == b"..":
            raise ValueError("path")
        for c in segment:
            if c not in _PATH_CHARS:
                raise ValueError("path")
