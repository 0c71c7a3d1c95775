# Reading a device's raw flash over the simulated USB serial (FLASH_READ, tafel rescue --port), and recovery mode's heap.
#
#   .venv/bin/python bench/flash_read_speed.py [--baud 115200] [--full-blocks 48] [--flash IMG]
#
# 1. An evening (three games played to 100 and a running one, by key script)
#    on a flash image whose blocks 0 and 1 are then erased: the device boots
#    into recovery mode. Then --full-blocks blocks that the evening left
#    erased are filled with random bytes: no piece of them is erased, the
#    worst case of a block on the wire.
# 2. The simulator on the 32-bit device build in the board's first heap area
#    alone (56 KB, no --system-heap: the heap may not grow) boots it, and the
#    host reads the whole flash with host_tools/rescue/link.read_flash over the
#    pseudo-terminal paced to baud/10 bytes a second each way.
# 3. Prints the blocks and bytes sent, the seconds, the share of the line
#    rate, the time for a 2 MB flash with every block full (its per-block cost
#    times 512: the read is line-bound) and for the evening alone, and the heap
#    the recovery device used at its peak (--heap-watch: the chip's heap holds
#    only the chip, so nothing is taken out).
import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "host"))

import sim_games  # noqa: E402
from benchlib import micropython_named, run_recorded, table  # noqa: E402
from simlink import play  # noqa: E402
from tafel_host.link.client import Link  # noqa: E402
from tafel_host.rescue.link import read_flash  # noqa: E402
from tafel_host.sim import runtime as sim_runtime  # noqa: E402
from tafel_host.sim.device import SimDevice  # noqa: E402
from tafel_host.sim.launcher import (  # noqa: E402
    DEFAULT_BOARD,
    find_board,
    find_run_py,
    follow_real_time,  # noqa: E402
)
from tafel_host.sim.serial import SimSerial  # noqa: E402

BLOCK, BLOCKS = 4096, 512
RUNNING = "1 D D # # 2 6 6 wait:1200 6 6 2 # # # 2 2 3 3 6 6 # D # A D 5 # #\n"


def make_flash(path, full):
    script = path.with_suffix(".txt")
    script.write_text(sim_games.script(sim_games.plan(3, target=100)) + RUNNING)
    play(script, path)
    data = bytearray(path.read_bytes())
    data[:2 * BLOCK] = b"\xff" * (2 * BLOCK)
    erased = [b for b in range(2, BLOCKS) if data[b * BLOCK:(b + 1) * BLOCK] == b"\xff" * BLOCK]
    evening = path.with_name("evening.img")
    evening.write_bytes(data)
    rng = random.Random(7)
    for b in erased[-full:] if full else []:
        data[b * BLOCK:(b + 1) * BLOCK] = bytes(rng.getrandbits(8) for _ in range(BLOCK))
    path.write_bytes(data)
    return evening, bytes(data)


def used(data):
    return sum(1 for b in range(BLOCKS) if data[b * BLOCK:(b + 1) * BLOCK] != b"\xff" * BLOCK)


def read_once(flash, baud, heap_watch=False):
    """(seconds, wire bytes in, wire bytes out, image, heap-watch line or None)."""
    serial = SimSerial(baud)
    board = find_board(DEFAULT_BOARD)
    build = sim_runtime.device_build(ROOT)
    if build is None:
        sys.exit("the 32-bit device build is missing: make device-build")
    _, heap, _ = sim_runtime.board_python(board)
    runtime = sim_runtime.Runtime("device", build, heap, None, "")  # no system heap: the first area alone
    log = open(str(flash) + ".log", "w")
    device = SimDevice(sim_runtime.command(runtime, find_run_py(), flash, board) + serial.device_args()
                       + (["--heap-watch", "1"] if heap_watch else []), log=log)
    device.start()
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=follow_real_time, args=(device, stop), daemon=True)
    thread.start()
    try:
        link = Link.open(serial.path, baud)
        started = time.monotonic()
        image = read_flash(link)
        seconds = time.monotonic() - started
        wire_in, wire_out = link.wire_in, link.wire_out
        link.bye()
        link.close()
    finally:
        stop.set()
        thread.join(30)
        device.close()
        serial.close()
        log.close()
    watch = [line for line in Path(str(flash) + ".log").read_text().splitlines() if line.startswith("heap-watch")]
    return seconds, wire_in, wire_out, image, watch[-1] if watch else None


def main():
    parser = argparse.ArgumentParser(description="The raw flash read over the simulated serial; recovery's heap.")
    parser.add_argument("--baud", type=int, default=115200)
    parser.add_argument("--full-blocks", type=int, default=48, help="erased blocks filled with random bytes")
    parser.add_argument("--flash", help="keep the images here (IMG and evening.img beside it)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="flashread-"))
    flash = Path(args.flash) if args.flash else tmp / "flash.img"
    evening, data = make_flash(flash, args.full_blocks)
    rows = []
    for name, path, payload in (("evening, root erased", evening, evening.read_bytes()),
                                ("+ %d full blocks" % args.full_blocks, flash, data)):
        seconds, wire_in, wire_out, image, watch = read_once(path, args.baud, heap_watch=True)
        assert image == payload, "the flash read differs from the image"
        rows.append((name, used(payload), wire_in, wire_out, seconds, watch))
    line = args.baud / 10.0
    print("raw flash read (FLASH_READ) on the simulated serial at %d baud, recovery mode, device build, 56 KB heap"
          % args.baud)
    out = []
    for name, blocks, wire_in, wire_out, seconds, watch in rows:
        heap = "?"
        if watch:
            heap = "%.1f KB" % (int(watch.split()[1]) / 1024.0)  # heap-watch PEAK ... (sim/chipstats.py)
        out.append((name, blocks, wire_in, wire_out, "%.1f" % seconds, "%.1f %%" % (100.0 * wire_in / seconds / line),
                    heap))
    print(table(("flash", "blocks", "wire in", "wire out", "seconds", "line busy", "device heap"), out, "lrrrrrr"))
    (_, b0, w0, _, s0, _), (_, b1, w1, _, s1, _) = rows
    per_block = (s1 - s0) / (b1 - b0)
    wire_block = (w1 - w0) / float(b1 - b0)
    print("a full block: %.0f bytes on the wire, %.2f s; 2 MB with every block full: %.0f bytes, about %.0f s "
          "(%.1f min); the evening's flash alone: %.1f s" % (wire_block, per_block, wire_block * BLOCKS,
                                                             per_block * BLOCKS, per_block * BLOCKS / 60, s0))
    print("reproduce: .venv/bin/python bench/flash_read_speed.py --baud %d --full-blocks %d"
          % (args.baud, args.full_blocks))


if __name__ == "__main__":
    sys.exit(run_recorded(main, "flash_read_speed",
                          measured_on=lambda: micropython_named(sim_runtime.device_build(ROOT))))
