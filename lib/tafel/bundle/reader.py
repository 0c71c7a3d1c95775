# Reading and verifying an update bundle on the device, a stream at a time.
#
#   from tafel.bundle import reader as bundle
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
# Every refusal is an UpdateError(key, detail) (bundle/errors.py lists the
# keys). Nothing here writes anything but the `out` streams it is handed: the
# caller stages, and switches only after everything passed. The step-by-step
# checks live in bundle/parts.py (the Stager imports only that) and are this
# module's names too.
#
# Memory (docs/updates.md, "Memory"; peak heap: bench/update_speed.py --heap): the
# parsed manifest keeps 6 bytes a file (manifest.Files) and reads an entry again when asked.
# From a file or BytesIO the manifest is hashed first, the signature checked
# (bundle/header.py: Ed25519 and SHA-512 imported for that and dropped after), then the manifest
# read again a line at a time into the parser, never whole in RAM, and its entries later from
# the same stream (keep it open while the manifest is used); from another stream it is held
# whole. Every body streams through one CHUNK-byte buffer. A compressed body is inflated straight from the
# stream when that is a file or BytesIO (the inflater then reads it in C);
# from any other stream it is read into RAM first if it is at most INLINE
# bytes, else fed to the inflater through a bounded reader (a Python call per
# byte: small but slow): bundle/bounded.py.
#
# The same code runs on CPython (`tafel bundle show` verifies with it): there
# the inflating is done by zlib (bundle/inflate_zlib.py, which a device never
# imports) instead of MicroPython's deflate module.
from tafel.bundle import header
from tafel.bundle.errors import UpdateError
from tafel.bundle.parts import CHUNK, RUNNING_MPY, check_app, check_install, parse_checked, stream_matches, verify_file  # noqa: F401


def read_manifest(stream, trusted_keys, max_bytes=None):
    """Read the header, manifest and signature from `stream`; the Manifest once the signature holds.

    trusted_keys: 32-byte Ed25519 public keys (update/trusted.py). max_bytes:
    refuse a bundle longer than this (free flash, say). Afterwards the stream
    is at the first file's body (manifest.body_start)."""
    return parse_checked(stream, header.check(stream, trusted_keys), max_bytes)


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
