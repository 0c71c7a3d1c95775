"""The device's heap: does the firmware fit an ESP32-WROOM's Python heap? Prints tables, exits 1 if not.

    .venv/bin/python bench/device_heap.py [--board NAME] [--only evening,export,usb,wifi] [--no-search]
    make heap          (builds the 32-bit MicroPython first)

What runs: the firmware frozen into the 32-bit unix build of MicroPython v1.28.0
(firmware/port/unix/build.sh frozen: the object sizes of the ESP32, the heap
growing as the ESP32 port grows it, the application frozen by the same manifest
as the device's image), driven as a user would (tests/host/heap_scenarios.py):
    evening  10 seats, 300 rounds by keys, an edit, an undo, game over, a second game
    export   `tafel export` of 100 stored games over the simulated USB serial
    usb      `tafel update` of a signed version over USB, the new version running after
    wifi     the same update pulled over Wi-Fi from `tafel serve-update`
The simulator's own parts (run.py, the emulated machine and chips) run in the same
heap; sim/simheap.py measures them before the firmware starts and grants them
beside the board's heap, and every figure below has them taken out.

(1) The board's heap: the profile's first area (-X heapsize, 56 KB on the WROOM)
    growing by its heap_growth (56 KB) as the ESP32 port grows it. A scenario
    fails on a MemoryError anywhere or a wrong screen or host result. Peak: the
    most heap in use between two commands after a collection; largest free
    block: the largest bytearray that fit at that moment.
(2) The smallest heap: bisection over one area of N bytes, no growth (the
    budget's terms: DESIGN.md section 8, 64 KB, goal 48 KB), 1 KB steps.
Exit status 1 if a scenario fails in the board's heap (the app does not fit).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "host"))
sys.path.insert(0, str(ROOT / "bench"))

import heap_scenarios  # noqa: E402
from benchlib import MPY_VERSION, kb, micropython_named, run_recorded, table  # noqa: E402
from tafel_host import sim_runtime  # noqa: E402
from tafel_host.sim import find_micropython  # noqa: E402

BUDGET = 64 * 1024
GOAL = 48 * 1024
STEP = 1024
LOW, HIGH = 16 * 1024, 192 * 1024


def smallest(sc, name, pool, kind="device", high=HIGH):
    """The smallest single-area heap that runs `name`: bisection, two tries a step."""
    lo, hi = LOW, high  # lo fails (assumed), hi passes (checked first)
    if not sc.run(name, hi, 0, kind).ok:
        return None
    while hi - lo > STEP:
        # two probes a step, one per core: the thirds of the interval
        a = lo + (hi - lo) // 3 // STEP * STEP or lo + STEP
        b = lo + 2 * (hi - lo) // 3 // STEP * STEP
        probes = sorted(set(p for p in (a, b) if lo < p < hi))
        if not probes:
            break
        results = list(pool.map(lambda n: (n, sc.run(name, n, 0, kind).ok), probes))
        for n, ok in results:
            if ok:
                hi = min(hi, n)
        for n, ok in results:
            if not ok and n < hi:
                lo = max(lo, n)
    return hi


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="esp32-devkitc-ssd1306")
    parser.add_argument("--only", default=",".join(heap_scenarios.SCENARIOS))
    parser.add_argument("--no-search", action="store_true", help="only the board's heap, no bisection")
    parser.add_argument("--mpy", action="store_true",
                        help="also the evening with the app as .mpy files (stock MicroPython's deployment, "
                             "firmware/port/unix/build.sh mpy), for comparison")
    parser.add_argument("--host-scale", action="store_true",
                        help="also the evening's smallest heap on the host port (64-bit, app from source): "
                             "the factor host_tools/sim_runtime.py scales a board's heap by there")
    args = parser.parse_args()
    build = sim_runtime.device_build(ROOT)
    if build is None:
        print("bench/device_heap.py: the 32-bit device build is missing; make heap builds it "
              "(firmware/port/unix/build.sh frozen)", file=sys.stderr)
        return 2
    board = ROOT / "hardware" / "boards" / (args.board + ".json")
    _, heap, growth = sim_runtime.board_python(board)
    names = [n for n in args.only.split(",") if n]
    heap_scenarios.BOARD = board
    started = time.time()
    print("Device heap, %s: %s" % (args.board, subprocess.run([str(build), "-c", MPY_VERSION], capture_output=True,
                                                              text=True).stdout.strip()))
    print("built by firmware/port/unix/build.sh frozen (%s); the application frozen in by firmware/port/manifest.py"
          % os.path.relpath(build, ROOT))
    print()
    with tempfile.TemporaryDirectory(prefix="tafel-heap-") as tmp, ThreadPoolExecutor(2) as pool:
        sc = heap_scenarios.Scenarios(tmp)
        sc.signed()
        if "export" in names:
            sc.hundred_games()
        chip = dict(zip(names, pool.map(lambda n: sc.run(n, heap, growth), names)))
        low = {}
        if not args.no_search:
            for name in names:
                low[name] = smallest(sc, name, pool)
        host = smallest(sc, "evening", pool, "host", 2048 * 1024) if args.host_scale else None
        mpy = None
        if args.mpy:
            mpy = (sc.run("evening", heap, growth, "mpy"), smallest(sc, "evening", pool, "mpy", 512 * 1024))
    rows = []
    for name in names:
        r = chip[name]
        n = low.get(name)
        rows.append((name, "ok" if r.ok else "FAILS", kb(r.peak - r.share), kb(r.largest), kb(r.share),
                     "-" if name not in low else ("none up to %s" % kb(HIGH) if n is None else kb(n)),
                     "-" if n is None else ("ok" if n <= GOAL else ("ok, over goal" if n <= BUDGET else "OVER"))))
    print(table(("scenario", "in %d + %d KB" % (heap // 1024, growth // 1024), "peak in use (device)",
                 "largest free at peak", "simulator's share (taken out)", "smallest heap, one area",
                 "budget 64 KB / goal 48 KB"), rows, "llrrrrl"))
    for name in names:
        if not chip[name].ok:
            print("%s failed in the board's heap: %s" % (name, chip[name].why))
    if mpy is not None:
        r, n = mpy
        print()
        print("The same evening with the app as .mpy files (stock MicroPython, firmware/port/unix/build.sh mpy): "
              "in %d + %d KB %s%s; smallest heap, one area: %s" % (
                  heap // 1024, growth // 1024, "ok" if r.ok else "FAILS",
                  ", peak in use %s" % kb(r.peak - r.share) if r.ok else " (%s)" % (r.why or "")[:120],
                  kb(n) if n else "none up to 512 KB"))
    if args.host_scale and low.get("evening") and host:
        device = low["evening"]
        print()
        print("host scale: the evening needs %s on the host port (%s, 64-bit, the app from source, the "
              "simulator included) and %s on the device build (the simulator's share taken out): %.2f "
              "(host_tools/sim_runtime.py HOST_SCALE)" % (kb(host), find_micropython(), kb(device),
                                                           host / device))
    print()
    print("Reproduce: .venv/bin/python bench/device_heap.py %s   (%.0f s)" % (" ".join(sys.argv[1:]) or "", time.time() - started))
    return 0 if all(chip[n].ok for n in names) else 1


if __name__ == "__main__":
    sys.exit(run_recorded(main, "device_heap", 
                          measured_on=lambda: micropython_named(sim_runtime.device_build(ROOT))))
