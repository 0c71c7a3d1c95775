# Reading and verifying an update bundle on the device, a stream at a time.
#
#   from update import bundle
#   from update.trusted import TRUSTED_KEYS
#   with open(path, "rb") as f:
#       m = bundle.verify_bundle(f, TRUSTED_KEYS, running_version=VERSION,
#                                boot_version=BOOT_VERSION, sink=open_staged)
#
# or step by step (what verify_bundle does, for a transport that gets the
# parts separately or stages files as they are checked):
#
#   m = bundle.read_manifest(f, TRUSTED_KEYS)            # header, manifest, signature
#   bundle.check_install(m, VERSION, BOOT_VERSION)       # version, boot, MicroPython
#   buf = bytearray(bundle.CHUNK)
#   for entry in m.files:                                # f is at entry.offset here
#       bundle.verify_file(f, entry, m.window, out=staged_file, buf=buf)
#   bundle.expect_end(f)
#
# Every refusal is an UpdateError(key, detail) (update/errors.py lists the
# keys). Nothing here writes anything but the `out` streams it is handed: the
# caller stages, and switches only after everything passed.
#
# Memory (docs/updates.md, "Memory"; peak heap: bench/update_speed.py --heap): the
# parsed manifest keeps 6 bytes a file (manifest.Files) and reads an entry again when asked.
# From a file or BytesIO the manifest is hashed first, the signature checked
# (update/header.py: Ed25519 and SHA-512 imported for that and dropped after), then the manifest
# read again a line at a time into the parser, never whole in RAM, and its entries later from
# the same stream (keep it open while the manifest is used); from another stream it is held whole. Every body streams through
# one CHUNK-byte buffer. A compressed body is inflated straight from the
# stream when that is a file or BytesIO (the inflater then reads it in C);
# from any other stream it is read into RAM first if it is at most INLINE
# bytes, else fed to the inflater through a bounded reader (a Python call per
# byte: small but slow).
#
# The same code runs on CPython (`tafel bundle show` verifies with it): there
# the inflating is done by zlib (update/inflate_zlib.py, which a device never
# imports) instead of MicroPython's deflate module.
import hashlib
import io

from update import header
from update import manifest as fmt
from update.errors import UpdateError

try:
    import deflate
except ImportError:  # CPython: update/inflate_zlib.py inflates with zlib instead
    deflate = None

CHUNK = 512  # bytes per read and hash step
INLINE = 4096  # from a stream that is no file: a compressed body up to this size is inflated from RAM
_NATIVE = header._NATIVE  # stream types the inflater reads in C (files of every VFS, io.BytesIO)
RUNNING_MPY = fmt.running_mpy()  # this interpreter's .mpy version; None on CPython


def read_manifest(stream, trusted_keys, max_bytes=None):
    """Read the header, manifest and signature from `stream`; the Manifest once the signature holds.

    trusted_keys: 32-byte Ed25519 public keys (update/trusted.py). max_bytes:
    refuse a bundle longer than this (free flash, say). Afterwards the stream
    is at the first file's body (manifest.body_start)."""
    return parse_checked(stream, header.check(stream, trusted_keys), max_bytes)


def parse_checked(stream, checked, max_bytes=None):
    """read_manifest's second half: the Manifest, from a stream just past the signature that
    header.check(stream, ...) returned `checked` for. Left at the first body, as read_manifest."""
    length, kid, digest, raw = checked
    body_start = fmt.HEADER_SIZE + length + fmt.SIGNATURE_SIZE
    if raw is None:  # a file or BytesIO: the manifest read again, a line at a time
        end = stream.tell()
        stream.seek(end - fmt.SIGNATURE_SIZE - length)
        manifest = _parse_again(stream, length, digest, kid, body_start)
        stream.seek(end)
    else:
        manifest = fmt.parse(raw, kid, body_start)
        raw = None
    if max_bytes is not None and manifest.total_size > max_bytes:
        raise UpdateError("too_large", (manifest.total_size, max_bytes))
    return manifest


def check_install(manifest, running_version, boot_version, mpy=RUNNING_MPY):
    """Refuse what this device must not install (the signature was checked by read_manifest).

    running_version: the installed application's version (None: skip the
    version rules, as the laptop does); boot_version: the BOOT_VERSION of the
    device's boot.py; mpy: the .mpy version it imports (None: skip)."""
    if mpy is not None and manifest.mpy != mpy:
        raise UpdateError("wrong_mpy", (manifest.mpy, mpy))
    if manifest.min_boot > boot_version:
        raise UpdateError("needs_boot", (manifest.min_boot, boot_version))
    if running_version is not None and not manifest.allow_downgrade:
        order = fmt.compare_versions(manifest.version, running_version)
        if order < 0:
            raise UpdateError("downgrade", (manifest.version, running_version))
        if order == 0:
            raise UpdateError("same_version", manifest.version)


def verify_file(stream, entry, window, out=None, buf=None):
    """Read entry's body (exactly entry.stored bytes) from `stream` and check it.

    The file's bytes (inflated) go to `out` if given, as they are checked: a
    caller that stages must drop them when this raises. buf: a bytearray to
    reuse (CHUNK bytes or more). UpdateError truncated or bad_file."""
    if buf is None:
        buf = bytearray(CHUNK)
    hasher = hashlib.sha256()
    if entry.encoding == fmt.RAW:
        size = _copy_raw(stream, entry, hasher, out, buf)
    elif deflate is not None:
        size = _inflate_mpy(stream, entry, window, hasher, out, buf)
    else:
        from update.inflate_zlib import inflate

        size = inflate(stream, entry, window, hasher, out)
    if size != entry.size:
        raise UpdateError("bad_file", (entry.path, "size"))
    if hasher.digest() != entry.sha256:
        raise UpdateError("bad_file", (entry.path, "sha256"))


def expect_end(stream):
    """UpdateError trailing_data unless the stream is at its end."""
    if stream.read(1):
        raise UpdateError("trailing_data")


def verify_bundle(stream, trusted_keys, running_version, boot_version, mpy=RUNNING_MPY, max_bytes=None, sink=None):
    """Check a whole bundle read from `stream`; its Manifest if everything holds.

    sink(entry) may return a writable stream for that file's bytes (closed
    here after the file) or None. Arguments otherwise as read_manifest and
    check_install."""
    manifest = read_manifest(stream, trusted_keys, max_bytes)
    check_install(manifest, running_version, boot_version, mpy)
    buf = bytearray(CHUNK)
    for entry in manifest.files:
        out = sink(entry) if sink is not None else None
        try:
            verify_file(stream, entry, manifest.window, out, buf)
        finally:
            if out is not None:
                out.close()
    expect_end(stream)
    return manifest


def file_matches(path, entry, buf=None):
    """True if the file at `path` holds exactly entry's bytes (size and SHA-256): no need to send it."""
    try:
        f = open(path, "rb")
    except OSError:
        return False
    try:
        return stream_matches(f, entry, buf)
    except OSError:
        return False
    finally:
        f.close()


def stream_matches(f, entry, buf=None):
    """True if the open file `f` holds exactly entry's bytes, read from where it stands."""
    if buf is None:
        buf = bytearray(CHUNK)
    hasher = hashlib.sha256()
    size = 0
    while True:
        n = f.readinto(buf)
        if not n:
            break
        size += n
        if size > entry.size:
            return False
        hasher.update(memoryview(buf)[:n])
    return size == entry.size and hasher.digest() == entry.sha256


# ---- inside ------------------------------------------------------------------


def _parse_again(stream, length, digest, kid, body_start):
    # The manifest read again a line at a time into the parser (never whole in RAM), and
    # checked against the digest the signature covers before it is used; its entries are read
    # from the stream again when asked for (manifest.Files).
    hasher = hashlib.sha256()
    lines = _lines(stream, length, hasher)
    try:
        manifest = fmt.parse_lines(lines, kid, body_start, stream, stream.tell())
    except UpdateError as err:
        if err.key != "bad_manifest":
            raise
        for _ in lines:
            pass  # the rest, to tell a changed manifest from a malformed one
        if hasher.digest() != digest:
            raise UpdateError("bad_signature")
        raise
    if hasher.digest() != digest:  # changed between the two reads
        raise UpdateError("bad_signature")
    return manifest


def _lines(stream, length, hasher):
    # The next `length` bytes a line at a time, each hashed as it goes.
    while length:
        # readline(n) takes n bytes of heap at once: 256 (a file line is at most 157 bytes).
        line = stream.readline(min(length, 256))
        if not line:
            raise UpdateError("truncated", "manifest")
        hasher.update(line)
        length -= len(line)
        yield line


def _copy_raw(stream, entry, hasher, out, buf):
    left = entry.stored
    view = memoryview(buf)
    step = len(buf)
    while left:
        n = stream.readinto(view[:step] if left >= step else view[:left])
        if not n:
            raise UpdateError("truncated", entry.path)
        chunk = view[:n]
        hasher.update(chunk)
        if out is not None:
            out.write(chunk)
        left -= n
    return entry.stored


class _Bounded(io.IOBase):
    # At most `left` bytes of `stream`, for an inflater that reads a byte at a time.
    def __init__(self, stream, left, path):
        self.stream = stream
        self.left = left
        self.path = path

    def readinto(self, buf):
        left = self.left
        if not left:
            return 0  # the body's end: the inflater wanted more than the body holds
        if len(buf) > left:
            buf = memoryview(buf)[:left]
        n = self.stream.readinto(buf)
        if not n:
            raise UpdateError("truncated", self.path)
        self.left = left - n
        return n


def _inflate_mpy(stream, entry, window, hasher, out, buf):
    # MicroPython: deflate.DeflateIO over the body, ZLIB format, window capped at the manifest's.
    # The inflater reads its source a byte at a time and never past the zlib stream's end.
    start = None
    if type(stream).__name__ in _NATIVE and hasattr(stream, "tell"):
        source = stream  # a file or BytesIO: read in C, in place, no copy of the body
        start = stream.tell()
    elif entry.stored <= INLINE:
        source = io.BytesIO(header.read_exact(stream, entry.stored, entry.path))  # bytes: no copy
    else:
        source = _Bounded(stream, entry.stored, entry.path)  # a Python call per byte: slow, small
    size = 0
    view = memoryview(buf)
    try:
        inflater = deflate.DeflateIO(source, deflate.ZLIB, window)
        while True:
            n = inflater.readinto(buf)
            if not n:
                break
            size += n
            if size > entry.size:
                raise UpdateError("bad_file", (entry.path, "size"))
            chunk = view[:n]
            hasher.update(chunk)
            if out is not None:
                out.write(chunk)
    except EOFError:
        if start is not None and stream.tell() - start < entry.stored:
            raise UpdateError("truncated", entry.path)  # the stream ended inside the body
        raise UpdateError("bad_file", (entry.path, "inflate"))
    except (OSError, ValueError):
        raise UpdateError("bad_file", (entry.path, "inflate"))
    if start is not None:
        unused = entry.stored - (stream.tell() - start)
    elif isinstance(source, _Bounded):
        unused = source.left
    else:
        unused = len(source.read())
    if unused:
        raise UpdateError("bad_file", (entry.path, "length"))
    return size
