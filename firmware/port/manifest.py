# The application frozen into a Tafel MicroPython image: the one list of what ships as code in flash.
#
# Used by the ESP32 board definition (boards/TAFEL_ESP32/manifest.py) and by
# the 32-bit unix build that measures the device's heap here
# (unix/manifest_frozen.py), so what is measured is what ships. Paths are
# relative to this file (MicroPython's manifest tool resolves them so).
#
# Not frozen, and why:
#   boot.py, bootsel.py  stay at the flash's root, never updated (docs/updates.md)
#   main.py              MicroPython runs a frozen main.py before the file system's,
#                        so a frozen one could never be replaced by an update
#   sim/                 the simulator's machine; port/ this folder (its _boot.py, the chip's
#                        first Python, is frozen by the ESP32 board's manifest alone)
#
# Beside the application: overlay.py, which lays an update's modules over the frozen
# ones (bootsel.boot() installs it; in no bundle, so no update can replace it), and appimage.py, what the image holds (its version and the
# SHA-256 of every frozen file as a bundle carries it), which updates compare
# bundles with. The image's build writes it first (python -m tafel_host.update.appimage).
import os

# The core but its CPython-only inflating (bundle/inflate_zlib.py: zlib, which a device does not
# have; its deflate module inflates there): host_tools/update/bundle_build.py HOST_ONLY leaves it out too.
_HOST_ONLY = ("bundle/inflate_zlib.py",)
# MicroPython's manifest tool runs this file in its own folder; a reader that execs it names it.
_lib = os.path.join(os.path.dirname(globals().get("__file__") or "./manifest.py"), "..", "..", "lib", "tafel")
_core = []
for _dir, _, _names in os.walk(_lib):
    for _n in _names:
        _rel = os.path.relpath(os.path.join(_dir, _n), _lib).replace(os.sep, "/")
        if _n.endswith(".py") and "__pycache__" not in _rel and _rel not in _HOST_ONLY:
            _core.append(_rel)
package("tafel", files=sorted(_core), base_path="../../lib")
for _name in ("assemble.py", "board.py", "clock.py", "power.py", "reserve.py", "runner.py", "session.py", "startup.py",
              "unload.py"):
    module(_name, base_path="..")
for _pkg in ("club", "drivers", "link", "recovery", "store", "ui", "update"):
    package(_pkg, base_path="..")
module("overlay.py")
module("appimage.py", base_path="../../build/appimage")
