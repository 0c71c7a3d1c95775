# The raw scan for games (firmware/store/rawscan.py) over a full flash (2 MB; 6 and 14 MB on 8 and 16 MB chips): time, and instructions on the device build.
#
#   .venv/bin/python bench/rawscan_speed.py [--flash IMG]
#
# The scan runs at boot only when the flash does not mount or mounts without
# the store's folders (store/mount.py); a blank block costs one compare, so
# the case measured is the worst: all 512 blocks written (an evening's used
# blocks repeated over the rest, bench/mpy/rawscan_cost.py). Timed on the PyPI
# unix port and on the 32-bit device build, and counted with callgrind on the
# device build for the chip's estimate: instructions over the i386 instructions
# an ESP32 runs per second, the factor bench/esp32_clock.py calibrates against a
# published perf_bench run (its recorded run, bench/results/esp32_clock.txt, as
# bench/device_speed.py takes it), to which the flash's own reading is added:
# 2 MB at 40 MHz DIO, 10 MB/s at best.
import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "host"))

import esp32_clock  # noqa: E402
import sim_games  # noqa: E402
from benchlib import callgrind_segments, micropython_named, run_recorded, table  # noqa: E402
from simlink import play  # noqa: E402
from tafel_host.sim import runtime as sim_runtime  # noqa: E402
from tafel_host.sim.launcher import find_micropython  # noqa: E402

FLASH_READ_MBS = 10.0  # 40 MHz, two data lines: the best the chip's flash gives
# Larger chips: MicroPython's ESP32 port makes the file system of everything the partition table
# leaves after its last partition (Tafel's ends at 0x200000), so 8 and 16 MB chips scan 6 and 14 MB.
LARGER = ((8, 1536), (16, 3584))  # (chip MB, 4 KB blocks of the file system)


def main():
    parser = argparse.ArgumentParser(description="The raw scan for games over a full 2 MB flash.")
    parser.add_argument("--flash", help="an evening's flash image to take the blocks from (made if missing)")
    args = parser.parse_args()
    build, valgrind = sim_runtime.device_build(ROOT), shutil.which("valgrind")
    clock = None
    if build is not None and valgrind is not None:
        try:
            clock = esp32_clock.factor(build, valgrind)  # ESP32 seconds per instruction counted here
        except LookupError as e:
            print("bench/rawscan_speed.py has no ESP32 calibration: %s" % e, file=sys.stderr)
            return 2
    tmp = Path(tempfile.mkdtemp(prefix="rawscan-"))
    try:
        flash = Path(args.flash) if args.flash else tmp / "flash.img"
        if not flash.exists():
            script = tmp / "evening.txt"
            script.write_text(sim_games.script(sim_games.plan(3, target=100)))
            play(script, flash)
        script = ROOT / "bench" / "mpy" / "rawscan_cost.py"
        full = str(tmp / "full.img")
        rows = []
        for name, mp in (("PyPI unix port (64-bit)", find_micropython()),
                         ("device build (32-bit)", sim_runtime.device_build(ROOT))):
            if mp is None:
                continue
            out = subprocess.run([str(mp), "-X", "heapsize=8M", str(script), str(ROOT / "firmware"), str(flash), full],
                                 capture_output=True, text=True, check=True).stdout.split()
            rows.append((name, out[1], float(out[3]), float(out[4])))
        instructions = None
        if clock is not None:
            base = str(tmp / "cg.out")
            out = subprocess.run([valgrind, "--tool=callgrind", "--dump-before=mp_micropython_opt_level",
                                  "--callgrind-out-file=" + base, str(build), "-X", "heapsize=8M", str(script),
                                  str(ROOT / "firmware"), str(flash), full], capture_output=True, text=True, check=True)
            instructions = callgrind_segments(out.stdout, base)["scan"]
        larger = []
        for chip_mb, blocks in LARGER if build is not None else ():
            out = subprocess.run([str(build), "-X", "heapsize=8M", str(script), str(ROOT / "firmware"), str(flash), "-",
                                  str(blocks)], capture_output=True, text=True, check=True).stdout.split()
            count = None
            if clock is not None:
                base = str(tmp / ("cg-%d.out" % chip_mb))
                done = subprocess.run([valgrind, "--tool=callgrind", "--dump-before=mp_micropython_opt_level",
                                       "--callgrind-out-file=" + base, str(build), "-X", "heapsize=8M", str(script),
                                       str(ROOT / "firmware"), str(flash), "-", str(blocks)],
                                      capture_output=True, text=True, check=True)
                count = callgrind_segments(done.stdout, base)["scan"]
            larger.append((chip_mb, blocks, float(out[3]), count))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("raw scan of a full 2 MB flash (512 blocks, every one written), games found: %s" % rows[0][1])
    print(table(("interpreter", "RAM chip (C reads)", "simulator's file chip"),
                [(name, "%.1f ms" % ram, "%.1f ms" % file_ms) for name, _, ram, file_ms in rows], "lrr"))
    if instructions is not None:
        scan_s = clock.seconds(instructions)
        read_s = 2.0 / FLASH_READ_MBS
        print("device build: %.1f M instructions; estimate on an ESP32: %.2f s of scanning + %.2f s reading the "
              "flash = %.1f s" % (instructions / 1e6, scan_s, read_s, scan_s + read_s))
        print("ESP32 %s; the factor %s." % (clock.says(), clock.how))
    if larger:
        print()
        print("larger chips: the file system is all after 0x200000 (MicroPython sizes it from the chip), every "
              "block written")
        rows = []
        for chip_mb, blocks, ram, count in larger:
            mb = blocks * 4096 / 1048576
            estimate = "-" if count is None else "%.1f s" % (clock.seconds(count) + mb / FLASH_READ_MBS)
            rows.append(("%d MB" % chip_mb, "%.0f MB" % mb, str(blocks), "%.1f ms" % ram,
                         "-" if count is None else "%.1f M" % (count / 1e6), estimate))
        print(table(("chip", "file system", "blocks", "device build (RAM chip)", "instructions",
                     "estimate on an ESP32, with the flash read"), rows, "lrrrrr"))
    print("reproduce: .venv/bin/python bench/rawscan_speed.py")


if __name__ == "__main__":
    sys.exit(run_recorded(main, "rawscan_speed", measured_on=lambda: "%s and %s" % (
        micropython_named(find_micropython()), micropython_named(sim_runtime.device_build(ROOT)))))
