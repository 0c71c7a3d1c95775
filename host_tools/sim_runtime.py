# Which MicroPython runs the simulated device, and in how much heap: the board's, never a laptop's.
#
# A board profile says how its firmware is deployed and how much Python heap the
# chip has ("python": deployment, heap, heap_growth; hardware/boards/README.md).
# The simulator runs the firmware in that heap, so running out of memory shows
# in ordinary play and in tests, not only in a benchmark:
#
# - "device": the 32-bit build of the MicroPython the ESP32 runs, with the
#   application frozen in by the image's own manifest (firmware/port/unix/
#   build.sh frozen; `make heap` and CI build it). It gets exactly the board's
#   heap: the first area, and the growth the ESP32 port adds when that is full;
#   run.py measures what the simulator's own parts take and grants that on top
#   (grant_sim_share), so they do not count against the device.
# - "host": any other unix port (the PyPI one on a fresh machine), 64-bit,
#   importing the application from this checkout's sources. Its objects are
#   larger and the code sits in the heap, so the board's heap is scaled by
#   HOST_SCALE, measured for this firmware by bench/device_heap.py (the smallest
#   heap an evening needs on that port over the same on the device build).
#
# `auto` takes the device build where the board's deployment is frozen and the
# build is there, else the host port.
import json
import os
from collections import namedtuple
from pathlib import Path

MICROPYTHON_VERSION = "1.28.0"
DEVICE_BUILD = Path("build") / ("unix32-frozen-" + MICROPYTHON_VERSION) / "micropython"
MPY_BUILD = Path("build") / ("unix32-mpy-" + MICROPYTHON_VERSION) / "micropython"  # the app not frozen in
# bench/device_heap.py --host-scale: the evening (10 seats, 300 rounds, edit, undo, game over, a
# second game) needed 355 KB on the 64-bit PyPI port running this checkout's sources (the
# simulator included) and 56 KB on the device build (its share taken out): 6.34; rounded up.
HOST_SCALE = 6.5
HOST_MIN_HEAP = 256 * 1024  # below this the host port's compiler alone runs short
DEFAULT_HEAP = 112 * 1024  # a profile without "python": an ESP32-WROOM's grown heap

Runtime = namedtuple("Runtime", "kind micropython heap growth note")


class NoRuntime(Exception):
    """The runtime asked for cannot be had here (tafel sim: exit code 2)."""


def board_python(board_path):
    """(deployment, heap, heap_growth) of a board profile's "python" section."""
    with open(board_path, encoding="utf-8") as f:
        profile = json.load(f)
    py = profile.get("python") or {}
    heap = int(py.get("heap", DEFAULT_HEAP))
    return py.get("deployment", "frozen"), heap, int(py.get("heap_growth", 0))


def device_build(root):
    """The 32-bit device build of this checkout, or None if it has not been built."""
    path = Path(root) / DEVICE_BUILD
    return path if path.is_file() and os.access(path, os.X_OK) else None


def choose(board_path, root, host_micropython, want="auto"):
    """The Runtime for a board: want is "auto", "device" or "host".

    host_micropython: a callable giving the host port's path (looked up only when needed)."""
    deployment, heap, growth = board_python(board_path)
    build = device_build(root)
    if want == "device" or (want == "auto" and deployment == "frozen" and build is not None):
        if build is None:
            raise NoRuntime("the 32-bit device build is missing: make heap builds it "
                                "(firmware/port/unix/build.sh frozen)")
        return Runtime("device", build, heap, growth,
                       "device build, heap %d KB + %d KB growth" % (heap // 1024, growth // 1024))
    total = max(int((heap + growth) * HOST_SCALE), HOST_MIN_HEAP)
    return Runtime("host", Path(host_micropython()), total, None,
                   "host port, heap %d KB (the board's %d KB x %.1f)" % (total // 1024, (heap + growth) // 1024, HOST_SCALE))


def command(runtime, run_py, flash, board):
    """The device process's command line for a Runtime."""
    cmd = [str(runtime.micropython), "-X", "heapsize=%d" % runtime.heap, Path(run_py).as_posix(),
           "--flash", str(flash), "--board", str(board)]
    if runtime.growth is not None:
        cmd += ["--heap-growth", str(runtime.growth)]
    return cmd
