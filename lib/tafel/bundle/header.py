# A bundle's header and the signature over it, checked with as little else in the heap as possible.
#
#   length, kid, digest, raw = header.check(stream, TRUSTED_KEYS)   # then the manifest, parsed
#
# The signature check is the heap's tightest moment: Ed25519 and SHA-512 in Python are imported
# for it and dropped after (forget()). It needs only this module, so the device's update/stage.py
# drops the bundle reader and the manifest parser while it runs (bench/update_speed.py --heap).
# The names here are also bundle/manifest.py's (the format's one description, which the laptop
# reads).
import gc
import hashlib
import struct
import sys
from binascii import hexlify

from tafel.bundle.errors import UpdateError
from tafel.compat import const

MAGIC = b"TAFELUPD"
FORMAT = const(1)
HEADER_SIZE = const(20)
SIGNATURE_SIZE = const(64)
KEY_ID_SIZE = const(8)
MAX_MANIFEST = const(16384)  # bytes: about 150 files
HEADER_FORMAT = ">8sBBH8s"  # struct: magic, format, flags, manifest length, key id
_NATIVE = ("FileIO", "BytesIO")  # streams that seek (files of every VFS, io.BytesIO)


def key_id(public_key):
    """The 8 bytes that name a public key in a bundle header."""
    return hashlib.sha256(bytes(public_key)).digest()[:KEY_ID_SIZE]


def unpack_header(header):
    """(manifest length, key id) from the 20 header bytes; UpdateError if they are no header we read."""
    if len(header) < HEADER_SIZE:
        if bytes(header[:len(MAGIC)]) != MAGIC[:len(header)]:
            raise UpdateError("not_bundle")
        raise UpdateError("truncated", "header")
    magic, fmt, flags, length, kid = struct.unpack(HEADER_FORMAT, header)
    if magic != MAGIC:
        raise UpdateError("not_bundle")
    if fmt != FORMAT or flags != 0:
        raise UpdateError("format", fmt)
    if length > MAX_MANIFEST:
        raise UpdateError("too_large", (length, MAX_MANIFEST))
    if length == 0:
        raise UpdateError("bad_manifest", 0)
    return length, kid


def signed_message(header, manifest_sha256):
    """What the Ed25519 signature signs: the header and the manifest's SHA-256 (52 bytes).

    Signing the digest rather than the manifest keeps the device's SHA-512 (in
    Python) to two blocks whatever the manifest's size; SHA-256 runs in C, and
    the manifest need not be in RAM while the signature is checked."""
    return bytes(header[:HEADER_SIZE]) + bytes(manifest_sha256)


def check(stream, trusted_keys, buf=None):
    """Read header, manifest and signature; (manifest length, key id, manifest SHA-256, raw) once
    the signature holds. raw: the manifest's bytes from a stream that cannot seek, else None (a
    file or BytesIO is left after the signature, to read the manifest again). UpdateError if not.
    buf: a bytearray the manifest is hashed through (the Stager's own; default 256 new bytes)."""
    header = read_exact(stream, HEADER_SIZE, "header")
    length, kid = unpack_header(header)
    key = None
    for candidate in trusted_keys:
        if key_id(candidate) == kid:
            key = candidate
            break
    if key is None:
        raise UpdateError("foreign_key", hexlify(kid).decode())
    raw = None
    if type(stream).__name__ in _NATIVE:  # hashed a piece at a time, never whole in RAM
        hasher = hashlib.sha256()
        if buf is None:
            buf = bytearray(256)
        view = memoryview(buf)
        step = len(buf)
        left = length
        while left:
            got = stream.readinto(view[:min(left, step)])
            if not got:
                raise UpdateError("truncated", "manifest")
            hasher.update(view[:got])
            left -= got
        digest = hasher.digest()
        hasher = buf = view = None
    else:  # a stream that cannot go back: the manifest is held from here on
        raw = read_exact(stream, length, "manifest")
        digest = hashlib.sha256(raw).digest()
    signature = read_exact(stream, SIGNATURE_SIZE, "signature")
    gc.collect()
    from tafel.bundle import ed25519  # the verifier is in the heap for this one call

    try:
        holds = ed25519.verify(key, signature, signed_message(header, digest))
    finally:
        ed25519 = None
        forget(("tafel.bundle.ed25519", "tafel.bundle.sha512"))
    if not holds:
        raise UpdateError("bad_signature")
    return length, kid, digest, raw


def forget(names):
    """Drop the modules named (in full: "tafel.bundle.ed25519") so their heap is free once nothing
    uses them (MicroPython only; each is also taken from its package's attributes).

    A collection follows, so what comes next fills the gaps they leave (the allocator takes the
    lowest free blocks first). CPython keeps its modules: nothing to gain there."""
    if sys.implementation.name != "micropython":
        return
    for name in names:
        if sys.modules.pop(name, None) is not None:
            package, _, leaf = name.rpartition(".")
            try:
                delattr(sys.modules[package], leaf)
            except (KeyError, AttributeError):
                pass
    gc.collect()


def read_exact(stream, n, part):
    """n bytes, asking again where a stream hands out less before its end (a pipe, a socket);
    UpdateError truncated (part) if it ends early, but a short header is returned as it is
    (unpack_header tells a short header from another file)."""
    data = stream.read(n) or b""
    if len(data) == n:
        return data
    pieces = [data]
    got = len(data)
    while got < n:
        more = stream.read(n - got)
        if not more:
            if part == "header":
                return b"".join(pieces)
            raise UpdateError("truncated", part)
        pieces.append(more)
        got += len(more)
    return b"".join(pieces)
