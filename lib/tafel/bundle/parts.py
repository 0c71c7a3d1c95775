# The parts of a bundle checked one at a time: what staging (update/stage.py) needs of the reader.
#
#   m = parts.parse_checked(f, header.check(f, TRUSTED_KEYS))   # the manifest, after the signature
#   parts.check_install(m, VERSION, BOOT_VERSION)               # version, boot, MicroPython
#   parts.check_app(m)                                          # a whole application (main.py ...)
#   parts.verify_file(f, entry, m.window, out, buf)             # a body against its entry
#   parts.stream_matches(f, entry, buf)                         # a file already holds an entry?
#
# bundle/reader.py has these too (the API in docs/updates.md) and the rest, for one whole stream;
# the Stager imports only this module, after the signature check (less code in the heap then).
# Runs on MicroPython and CPython; on CPython bundle/inflate_zlib.py inflates instead of deflate.
import hashlib

from tafel.bundle import header
from tafel.bundle import manifest as fmt
from tafel.bundle.errors import UpdateError
from tafel.compat import const

try:
    import deflate
except ImportError:  # CPython: bundle/inflate_zlib.py inflates with zlib instead
    deflate = None

CHUNK = const(512)  # bytes per read and hash step
# What a slot cannot run without: MicroPython runs main.py by name, the trust store takes the next
# update, the version module says what runs (update/complete.py checks them again at the switch).
APP_FILES = ("main.py", "update/trusted.mpy", "lib/tafel/version.mpy")
RUNNING_MPY = fmt.running_mpy()  # this interpreter's .mpy version; None on CPython


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


def check_app(manifest):
    """Refuse a manifest that is no whole application, before anything is transferred:
    UpdateError incomplete_app, detail None (no files at all) or the first of APP_FILES it lacks."""
    if not len(manifest.files):
        raise UpdateError("incomplete_app")
    for path in APP_FILES:
        if manifest.file(path) is None:
            raise UpdateError("incomplete_app", path)


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
        from tafel.bundle.inflate_zlib import inflate

        size = inflate(stream, entry, window, hasher, out)
    if size != entry.size:
        raise UpdateError("bad_file", (entry.path, "size"))
    if hasher.digest() != entry.sha256:
        raise UpdateError("bad_file", (entry.path, "sha256"))


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
        # readline(n) takes n bytes of heap at once: 160 (a file line is at most 157 bytes; a
        # longer one comes in two pieces, neither a line the parser takes: bad_manifest).
        line = stream.readline(min(length, 160))
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


def _inflate_mpy(stream, entry, window, hasher, out, buf):
    # MicroPython: deflate.DeflateIO over the body, ZLIB format, window capped at the manifest's.
    # The inflater reads its source a byte at a time and never past the zlib stream's end.
    start = None
    if type(stream).__name__ in header._NATIVE and hasattr(stream, "tell"):
        source = stream  # a file or BytesIO: read in C, in place, no copy of the body
        start = stream.tell()
    else:  # a stream that is no file (never the Stager's): bundle/reader.py's readers
        from tafel.bundle import bounded

        source = bounded.source(stream, entry)
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
    unused = entry.stored - (stream.tell() - start) if start is not None else bounded.unused(source)
    if unused:
        raise UpdateError("bad_file", (entry.path, "length"))
    return size
