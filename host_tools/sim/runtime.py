# Which MicroPython runs the simulated device, and in how much heap: the board's, never a laptop's.
#
# A board profile says how its firmware is deployed and how much Python heap the
# chip has ("python": deployment, heap, system_heap; hardware/boards/README.md).
# The simulator runs the firmware in that heap, so running out of memory shows
# in ordinary play and in tests, not only in a benchmark:
#
# - "device": the 32-bit build of the MicroPython the ESP32 runs, with the
#   application and the simulator's chip side frozen in by the image's own
#   manifest (firmware/port/unix/build.sh frozen; `make sim`, `make heap` and
#   CI build it). It is the virtual chip: its heap starts with the board's
#   first area and grows as the ESP32 port grows it, from the modelled ESP-IDF
#   heap the profile names ("system_heap": "esp32", firmware/port/README.md)
#   or a flat budget (a number: PSRAM); the board around the chip lives in
#   the launcher's process (simboard/), so nothing of it is in that heap.
# - "host": any other unix port (the PyPI one on a fresh machine), 64-bit,
#   importing the application from this checkout's sources. Its objects are
#   larger and the code sits in the heap, so the board's heap is scaled by
#   HOST_SCALE, measured for this firmware by bench/device_heap.py --host-scale
#   (the smallest heap each of the gate's flows needs on that port over the
#   same on the device build, the largest of them, with a margin). Every
#   figure it gives is an approximation and says so.
#
# `auto` takes the device build where the board's deployment is frozen and the
# build is there, else the host port.
import json
import os
from collections import namedtuple
from pathlib import Path

from ..lang import say

MICROPYTHON_VERSION = "1.28.0"
DEVICE_BUILD = Path("build") / ("unix32-frozen-" + MICROPYTHON_VERSION) / "micropython"
MPY_BUILD = Path("build") / ("unix32-mpy-" + MICROPYTHON_VERSION) / "micropython"  # the app not frozen in
# bench/device_heap.py --host-scale measures, for every flow of the heap gate on every board, the
# smallest heap on the 64-bit PyPI port running this checkout's sources over the smallest on the
# device build, and checks that this is at least the largest of those ratios (its table says the
# margin); tests/host/test_heap_gate_boards.py plays the short flows on the host port in the heap
# this gives. The host port is an approximation either way, and says so.
HOST_SCALE = 8.5
HOST_MIN_HEAP = 256 * 1024  # below this the host port's compiler alone runs short
DEFAULT_HEAP = 112 * 1024  # a profile without "python": an ESP32-WROOM's grown heap

Runtime = namedtuple("Runtime", "kind micropython heap system note")


class NoRuntime(Exception):
    """The runtime asked for cannot be had here (tafel sim: exit code 2)."""


def board_python(board_path):
    """(deployment, heap, system_heap) of a board profile's "python" section: system_heap is what
    the Python heap grows from, "esp32" (the modelled ESP-IDF heap of an ESP32 without PSRAM), a
    number of bytes (PSRAM), or None (it does not grow)."""
    with open(board_path, encoding="utf-8") as f:
        profile = json.load(f)
    py = profile.get("python") or {}
    heap = int(py.get("heap", DEFAULT_HEAP))
    system = py.get("system_heap")
    return py.get("deployment", "frozen"), heap, system


def growth_bytes(system):
    """How much a system heap may add, for the host port's scale (the model's own is the device build's)."""
    if system is None:
        return 0
    if system == "esp32":
        return 57344  # py/gc.c doubles a 56 KB heap once (firmware/port/README.md)
    return int(system)


def device_build(root):
    """The 32-bit device build of this checkout, or None if it has not been built."""
    path = Path(root) / DEVICE_BUILD
    return path if path.is_file() and os.access(path, os.X_OK) else None


def choose(board_path, root, host_micropython, want="auto"):
    """The Runtime for a board: want is "auto", "device" or "host".

    host_micropython: a callable giving the host port's path (looked up only when needed)."""
    deployment, heap, system = board_python(board_path)
    build = device_build(root)
    if want == "device" or (want == "auto" and deployment == "frozen" and build is not None):
        if build is None:
            raise NoRuntime(say("sim_no_build"))
        return Runtime("device", build, heap, system,
                       say("sim_virtual_chip", heap // 1024, say("sim_idf_heap") if system == "esp32" else
                           "%d KB" % (growth_bytes(system) // 1024)))
    board_total = heap + growth_bytes(system)
    total = max(int(board_total * HOST_SCALE), HOST_MIN_HEAP)
    return Runtime("host", Path(host_micropython()), total, None,
                   say("sim_host_port", total // 1024, board_total // 1024, HOST_SCALE))


def command(runtime, run_py, flash, board):
    """The device process's command line for a Runtime (the launcher adds the wire's pipes)."""
    run_py = Path(run_py)
    if runtime.kind == "device":  # the chip side is frozen into the build: nothing compiled into the heap
        cmd = [str(runtime.micropython), "-X", "heapsize=%d" % runtime.heap, "-m", "sim.run",
               "--firmware", run_py.parent.parent.as_posix()]
        if runtime.system is not None:
            cmd += ["--system-heap", str(runtime.system)]
    else:
        cmd = [str(runtime.micropython), "-X", "heapsize=%d" % runtime.heap, run_py.as_posix()]
    return cmd + ["--flash", str(flash), "--board", str(board)]
