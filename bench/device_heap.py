"""The device's memory on the virtual chip: does the firmware fit an ESP32-WROOM on every board? Tables; exit 1 if not.

    .venv/bin/python bench/device_heap.py [--board NAME,...] [--only evening,tour,...] [--no-search] [--mpy]
        [--host-scale]
    make heap          (builds the 32-bit MicroPython first)

What runs: the firmware frozen into the 32-bit unix build of MicroPython v1.28.0
(firmware/port/unix/build.sh frozen: the ESP32's object sizes, the ESP32 port's
heap growth from a modelled ESP-IDF heap, the ESP32 task's C stack limit, the
application frozen by the image's own manifest), the board around the chip in
this process, outside the chip's heap (host_tools/simboard), played as a user
would (tests/host/heap_scenarios.py):
    evening  10 seats, 300 rounds by keys, an edit, an undo, game over, a second game
    tour     a game with the table view, language both ways during and after it, display
             sleep, contrast, the rules, the card values, history opened, scrolled, deleted
    export   `tafel export` of 100 stored games over the simulated USB serial
    usb      `tafel update` of a signed version over USB, the new version running after
    wifi     the same update pulled over Wi-Fi from `tafel serve-update`, Wi-Fi and its
             sockets taking their share of the modelled ESP-IDF heap
    club     a club evening's table: paired over USB, Wi-Fi on, a game of six reported round
             by round to `tafel club serve`, the hub restarted, then away for ten minutes
             (the table's time follows the laptop's while it waits on the hub, so this one
             can differ by a KB from run to run; the others are the same every run)

(1) The board's heap, as the chip has it: a first area of 56 KB that grows from the
    modelled ESP-IDF heap (firmware/port/README.md). A scenario fails on a MemoryError
    anywhere, a C stack that runs out, or a wrong screen or host result. Peak: the most
    heap in use after a collection, sampled after every step of the firmware; largest
    free block and areas at that moment; the deepest C stack (this build's bytes, the
    limit is the ESP32 task's scaled to them); ESP-IDF's heap: the least it had free.
(2) The smallest heap in one area (no growth): the budget's terms (docs/design.md section 8:
    64 KB, goal 56 KB). A heap's fate is not monotonic in its size (where the large
    blocks land decides whether a later one finds room), so this is the smallest N such
    that every whole KB from N up to 72 KB runs, found by stepping down from 72 KB; the
    same tree gives the same figure (the chip's time is simulated, nothing is random).
(3) The simulator's own bytes in the chip's heap: with no firmware (--idle), what is in
    use beyond the same build's bare start, with the stand-ins the flow adds (the USB
    serial's for export and usb, the Wi-Fi station's and its sockets' for wifi).
Exit status 1 if a scenario fails in the board's heap or needs more than 64 KB in one area.
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
from tafel_host.sim import runtime as sim_runtime  # noqa: E402
from tafel_host.sim.launcher import find_micropython  # noqa: E402

BUDGET = 64 * 1024
GOAL = 56 * 1024
TOP = 72 * 1024  # the smallest heap is searched below this: every size from it up to here must run
STEP = 1024


# The simulator's stand-ins a scenario adds (the USB serial's, the Wi-Fi station's; the club's
# table pairs over USB but plays on Wi-Fi, the larger): what its "simulator's own bytes" are.
_FLOWS = {"export": "export", "usb": "usb", "wifi": "wifi", "club": "wifi"}


def smallest(sc, name, board, pool, kind="device", top=TOP):
    """The smallest one-area heap from which every whole KB up to `top` runs `name`; None if `top`
    itself does not. Two sizes at a time, one per core, stepping down."""
    if not sc.run(name, board, top, None, kind, watch=False).ok:
        return None
    low = top
    while low - STEP >= 16 * 1024:
        probes = [low - STEP, low - 2 * STEP]
        results = list(pool.map(lambda n: sc.run(name, board, n, None, kind, watch=False).ok, probes))
        for n, ok in zip(probes, results):
            if not ok:
                return low
            low = n
    return low


def host_smallest(sc, name, board, pool):
    """The host port's smallest heap for a flow (bisection: 64-bit objects and code in the heap, where
    the steps are too coarse for a size's luck to matter), for the host runtime's scale."""
    lo, hi = 128 * 1024, 4096 * 1024
    if not sc.run(name, board, hi, None, "host", watch=False).ok:
        return None
    while hi - lo > 8 * 1024:
        probes = sorted({lo + (hi - lo) // 3, lo + 2 * (hi - lo) // 3})
        for n, ok in zip(probes, pool.map(lambda n: sc.run(name, board, n, None, "host", watch=False).ok, probes)):
            if ok:
                hi = min(hi, n)
            else:
                lo = max(lo, n)
    return hi


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default=",".join(heap_scenarios.BOARDS), help="board profiles, comma-separated")
    parser.add_argument("--only", default=",".join(heap_scenarios.SCENARIOS))
    parser.add_argument("--no-search", action="store_true", help="only the board's heap, no smallest-heap search")
    parser.add_argument("--mpy", action="store_true",
                        help="the same with the app as .mpy files (stock MicroPython's deployment, "
                             "firmware/port/unix/build.sh mpy), for comparison")
    parser.add_argument("--host-scale", action="store_true",
                        help="also each flow's smallest heap on the host port (64-bit, app from source): "
                             "the factor host_tools/sim/runtime.py scales a board's heap by there")
    args = parser.parse_args()
    build = sim_runtime.device_build(ROOT)
    if build is None:
        print("bench/device_heap.py: the 32-bit device build is missing; make heap builds it "
              "(firmware/port/unix/build.sh frozen)", file=sys.stderr)
        return 2
    boards = [b for b in args.board.split(",") if b]
    names = [n for n in args.only.split(",") if n]
    started = time.time()
    version = subprocess.run([str(build), "-c", MPY_VERSION], capture_output=True, text=True).stdout.strip()
    print("The virtual chip: %s, built by firmware/port/unix/build.sh frozen (%s); the application frozen in by "
          "firmware/port/manifest.py; the board outside the chip's heap (host_tools/simboard)"
          % (version, os.path.relpath(build, ROOT)))
    kind = "mpy" if args.mpy else "device"
    if args.mpy and heap_scenarios.mpy_build() is None:
        print("bench/device_heap.py --mpy: the build without the app frozen in is missing "
              "(firmware/port/unix/build.sh mpy)", file=sys.stderr)
        return 2
    failed = False
    scale = []
    with tempfile.TemporaryDirectory(prefix="tafel-heap-") as tmp, ThreadPoolExecutor(2) as pool:
        sc = heap_scenarios.Scenarios(tmp)
        sc.signed()
        if "export" in names:
            sc.hundred_games()
        for board in boards:
            _, heap, system = sim_runtime.board_python(heap_scenarios.board_path(board))
            own = {}  # the simulator's own bytes in the chip's heap, by what the flow adds (serial, Wi-Fi)
            for name in names:
                flow = _FLOWS.get(name)
                if flow not in own:
                    own[flow] = sc.idle(board, flow)
            idle, bare = own[None] if None in own else sc.idle(board)
            chip = dict(zip(names, pool.map(lambda n, b=board, h=heap, s=system: sc.run(n, b, h, s, kind), names)))
            low = {}
            if not args.no_search:
                for name in names:
                    low[name] = smallest(sc, name, board, pool, kind)
            rows = []
            for name in names:
                r, n = chip[name], low.get(name, "-")
                over = n is None or (n != "-" and n > BUDGET)
                failed = failed or not r.ok or over
                verdict = "-" if n == "-" else ("OVER" if over else ("ok" if n <= GOAL else "ok, over goal"))
                held, base = own[_FLOWS.get(name)]
                rows.append((name, "ok" if r.ok else "FAILS", kb(r.peak), kb(r.largest), str(r.areas),
                             kb(r.stack), "-" if r.idf_least < 0 else kb(r.idf_least),
                             "-" if held is None else kb(held - base),
                             "-" if n == "-" else ("none up to %s" % kb(TOP) if n is None else kb(n)), verdict))
            print()
            print("%s: first area %s, growing from %s; the simulator's own bytes in the chip's heap with no "
                  "firmware: %s (%s in use, %s at the build's bare start)" % (
                      board, kb(heap), "the modelled ESP-IDF heap" if system == "esp32" else system,
                      "-" if idle is None else kb(idle - bare), "-" if idle is None else kb(idle), kb(bare)))
            print(table(("scenario", "in the board's heap", "peak in use", "largest free at peak",
                         "areas at peak", "deepest C stack", "ESP-IDF least free", "simulator's own bytes",
                         "smallest heap, one area", "budget 64 KB / goal 56 KB"), rows, "llrrrrrrrl"))
            for name in names:
                if not chip[name].ok:
                    print("%s failed in the board's heap: %s" % (name, chip[name].why))
            if args.host_scale:
                for name in names:
                    device = low.get(name)
                    host = host_smallest(sc, name, board, pool)
                    if device and host:
                        scale.append((board, name, host, device))
    if scale:
        print()
        print("Host scale: each flow's smallest heap on the host port (%s, 64-bit, the app from source) over the "
              "same on the device build:" % find_micropython())
        print(table(("board", "scenario", "host port", "device build", "ratio"),
                    [(b, n, kb(h), kb(d), "%.2f" % (h / d)) for b, n, h, d in scale], "llrrr"))
        worst = max(h / d for _, _, h, d in scale)
        print("largest ratio %.2f; host_tools/sim/runtime.py HOST_SCALE is %.2f (%s)" % (
            worst, sim_runtime.HOST_SCALE, "a margin of %.0f %%" % (100 * (sim_runtime.HOST_SCALE / worst - 1))
            if sim_runtime.HOST_SCALE >= worst else "TOO SMALL: raise it"))
        failed = failed or sim_runtime.HOST_SCALE < worst
    print()
    print("Reproduce: .venv/bin/python bench/device_heap.py %s   (%.0f s)" % (" ".join(sys.argv[1:]), time.time() - started))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run_recorded(main, "device_heap",
                          measured_on=lambda: micropython_named(sim_runtime.device_build(ROOT))))
