"""Key to screen and export on the device build, with estimated ESP32 times: prints tables, not a test.

    .venv/bin/python bench/device_speed.py        (make device-build first)

What runs: bench/mpy/firmware_game.py (the whole firmware on the simulated device, a game of
ten seats and three rounds prepared first) on the 32-bit unix build of MicroPython v1.28.0
with the application frozen in as the ESP32 image has it (firmware/port/unix/build.sh
frozen), under valgrind --tool=callgrind: instructions between marker calls, per key
(segment of 16 keys - segment of 8, / 8), for C/D scrolling the standings and for typing
hands in round entry. "bare" is the firmware's own share (app.key() and app.render() with
the display bus's writes dropped); "app" adds the emulated display chip decoding the bus.

ESP32 time, an estimate: instructions / the i386 instructions an ESP32 runs per second, the factor
bench/esp32_clock.py derives by running MicroPython's own benchmarks (tests/perf_bench), whose times
on an ESP32 MicroPython published (MicroPython commit 549448e8: a TinyPICO, the original ESP32, at
160 MHz, the clock Tafel's image runs at: ESP-IDF's default, the image selects no other), on this
same build under callgrind. The factor comes from that bench's recorded run
(bench/results/esp32_clock.txt) when it was made on this build, else it is measured first (a few
seconds; it needs MicroPython's tests/perf_bench: TAFEL_PERF_BENCH, see bench/esp32_clock.py). The
output names it and its source; no factor is assumed.

What the calibration cannot capture, so the real time is longer: the benchmarks' bytecode was in
RAM and their C a small hot set of the interpreter, while Tafel's frozen bytecode and constants
are read from flash, and the firmware reaches far more of MicroPython's C, through the same 32 KB
flash cache: misses beyond what the benchmarks saw. Nor any bus time: the I2C transfer (a 128x64
frame is 1 KB at 400 kHz: about 23 ms for a full redraw, less for the rows that changed), SPI for
a colour display, the UART for the export. The budget it is held against is docs/design.md's 50 ms
per key.

(2) Export: bench/mpy/export_cost.py reads and frames every one of 100 stored games (a
simulator image made by key script, read through the device build's flash chip in C,
simchip.Flash, as the ESP32 reads its partition in C) as the link sends them, between two
marker calls, in the ESP32-WROOM's heap (56 KB growing from the modelled ESP-IDF heap);
instructions per KB of frames against the time a KB takes on a 115200-baud line.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import esp32_clock  # noqa: E402
from benchlib import callgrind_segments, micropython_named, run_recorded, table, tool_version  # noqa: E402
from tafel_host.sim import runtime as sim_runtime  # noqa: E402
from tafel_host.update import bundle_build  # noqa: E402

PROFILE = ROOT / "hardware" / "boards" / "esp32-devkitc-ssd1306.json"
KEYS = 8
BUDGET_MS = 50.0


def main():
    build = sim_runtime.device_build(ROOT)
    valgrind = shutil.which("valgrind")
    if build is None or valgrind is None:
        print("bench/device_speed.py needs the device build (make device-build) and valgrind", file=sys.stderr)
        return 2
    try:
        clock = esp32_clock.factor(build, valgrind)  # ESP32 seconds per instruction counted here
    except LookupError as e:
        print("bench/device_speed.py has no ESP32 calibration: %s" % e, file=sys.stderr)
        return 2
    mpy_cross = bundle_build.find_mpy_cross()
    deploy = Path(tempfile.mkdtemp(prefix="tafel-speed-"))
    data = Path(tempfile.mkdtemp(prefix="tafel-speed-data-"))
    try:
        # The flash's root as the image's device has it: bootsel.py and main.py beside the frozen app; the bench's helper.
        subprocess.run([mpy_cross, "-s", "bootsel.py", "-o", str(deploy / "bootsel.mpy"),
                        str(ROOT / "firmware" / "bootsel.py")], check=True)
        subprocess.run([mpy_cross, "-s", "_bench_game.py", "-o", str(deploy / "_bench_game.mpy"),
                        str(ROOT / "bench" / "mpy" / "firmware_game.py")], check=True)
        # The board around the chip (host_tools/simboard: keypad matrix, display chip and glass) in this process,
        # as the firmware tests have it (sim.simmachine.from_profile imports simboard.bench): .mpy beside the rest.
        (deploy / "simboard").mkdir()
        for part in sorted((ROOT / "host_tools" / "simboard").glob("*.py")):
            subprocess.run([mpy_cross, "-s", "simboard/" + part.name, "-o", str(deploy / "simboard" / (part.stem + ".mpy")),
                            str(part)], check=True)
        shutil.copy(ROOT / "firmware" / "main.py", deploy / "main.py")  # stays source on the flash's root: not frozen
        # The heap's terms (firmware/port/unix/tafel/idfheap.h): the first area 56 KB, then a flat 1 MB to grow
        # into, since the board's parts share this process's heap here (the chip's heap in `make heap` holds only
        # the chip); a gc.collect() before every segment.
        env = dict(os.environ, TAFEL_IDF_HEAP="1048576")
        env.pop("TAFEL_HEAP_GROWTH", None)
        cmd = [str(build), "-X", "heapsize=57344", "-m", "_bench_game", str(deploy), str(data), str(PROFILE)]
        out = subprocess.run(cmd + ["prepare"], capture_output=True, text=True, cwd=deploy, env=env, timeout=300)
        if out.returncode != 0:
            print("prepare failed:\n" + (out.stdout + out.stderr)[-2000:], file=sys.stderr)
            return 1
        base = str(deploy / "cg.out")
        out = subprocess.run([valgrind, "--tool=callgrind", "--dump-before=mp_micropython_opt_level",
                              "--callgrind-out-file=" + base] + cmd + ["keys", str(KEYS)],
                             capture_output=True, text=True, cwd=deploy, env=env, timeout=900)
        if out.returncode != 0 or "ok" not in out.stdout.split():
            print("callgrind run failed:\n" + (out.stdout + out.stderr)[-2000:], file=sys.stderr)
            return 1
        seg = callgrind_segments(out.stdout, base)
    finally:
        shutil.rmtree(deploy, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)
    rows = []
    worst = 0.0
    for screen, keys in (("standings", "C/D scrolling ten seats in six rows"),
                         ("round", "digits, *, C/D typing hands")):
        for how in ("app", "bare"):
            per = (seg["%s/%s/%d" % (screen, how, 2 * KEYS)] - seg["%s/%s/%d" % (screen, how, KEYS)]) / KEYS
            ms = clock.seconds(per) * 1000
            if how == "bare":
                worst = max(worst, ms)
            rows.append(("%s (%s)" % ("standings" if screen == "standings" else "round entry", keys)
                         if how == "app" else "", how, "%.2f M" % (per / 1e6), "%.1f ms" % ms))
    print("Key to screen on the device build (%s, valgrind %s)" % (os.path.relpath(build, ROOT),
                                                                   tool_version(valgrind, "--version")))
    print(table(("screen, keys", "what runs", "instructions per key", "ESP32 estimate"), rows, "llrr"))
    print()
    print("ESP32 %s; the factor %s. Flash-cache misses beyond the benchmarks' and the I2C transfer not counted "
          "(see the header). Firmware's own share, worst screen: %.1f ms of the %.0f ms budget." % (
              clock.says(), clock.how, worst, BUDGET_MS))
    print()
    export_cost(build, valgrind, clock)
    print("Reproduce: .venv/bin/python bench/device_speed.py")
    return 0


def export_cost(build, valgrind, clock):
    """(2) Instructions per exported KB: bench/mpy/export_cost.py on 100 stored games."""
    sys.path.insert(0, str(ROOT / "tests" / "host"))
    import heap_scenarios

    tmp = Path(tempfile.mkdtemp(prefix="tafel-export-cost-"))
    try:
        flash = heap_scenarios.Scenarios(tmp).hundred_games()
        base = str(tmp / "cg.out")
        # The heap's terms: the ESP32-WROOM's, a first area of 56 KB growing from the modelled ESP-IDF heap
        # (firmware/port/README.md); this script runs without sim.run, so the environment says it.
        env = dict(os.environ, TAFEL_IDF_HEAP="esp32")
        env.pop("TAFEL_HEAP_GROWTH", None)
        out = subprocess.run([valgrind, "--tool=callgrind", "--dump-before=mp_micropython_opt_level",
                              "--callgrind-out-file=" + base, str(build), "-X", "heapsize=57344",
                              str(ROOT / "bench" / "mpy" / "export_cost.py"), str(ROOT / "firmware"), str(flash)],
                             capture_output=True, text=True, timeout=900, env=env)
        if out.returncode != 0:
            print("export: callgrind run failed:\n" + (out.stdout + out.stderr)[-2000:])
            return
        seg = callgrind_segments(out.stdout, base)
        words = [line.split() for line in out.stdout.splitlines() if line.startswith("export ")][0]
        journal, wire, games, reads, chip = int(words[1]), int(words[2]), int(words[3]), int(words[4]), words[5]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    instr = seg["export"]  # the flash chip is C here (simchip.Flash), as on the ESP32: nothing taken out
    per_kb = instr / (wire / 1024.0)
    ms = clock.seconds(per_kb) * 1000
    line_ms = 1024.0 / (115200 / 10) * 1000  # one KB on the wire at 115200 baud, 10 bits a byte
    print("Export on the device build: %d games, %d journal bytes as %d bytes of frames (wire.encode, 384-byte "
          "chunks), in the heap of an ESP32-WROOM (56 KB growing from the modelled ESP-IDF heap); the flash chip "
          "in C (%s), %d reads" % (games, journal, wire, chip, reads))
    print(table(("what", "instructions", "ESP32 estimate"), [
        ("the whole export (read from LittleFS, frame, encode)", "%.1f M" % (instr / 1e6), "%.2f s" % clock.seconds(instr)),
        ("per KB on the wire", "%.2f M" % (per_kb / 1e6), "%.1f ms" % ms),
    ], "lrr"))
    print("Not in the estimate: the %d reads' time in the SPI flash driver and on the flash's bus (LittleFS "
          "reads in 32-byte units here; the simulator's C chip reads its image file), nor the UART's time. ESP32 "
          "%s." % (reads, clock.says()))
    print("At 115200 baud a KB takes %.0f ms on the wire: the device needs about %.0f %% of that for it (estimate), "
          "so it keeps the line busy." % (line_ms, 100 * ms / line_ms) if ms < line_ms else
          "At 115200 baud a KB takes %.0f ms on the wire: the device needs more (%.1f ms, estimate): the CPU, not "
          "the line, would set the export's speed." % (line_ms, ms))


if __name__ == "__main__":
    sys.exit(run_recorded(main, "device_speed",
                          measured_on=lambda: micropython_named(sim_runtime.device_build(ROOT))))
