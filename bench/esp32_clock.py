"""ESP32 seconds per i386 instruction: our callgrind counts calibrated against a published ESP32 run.

    .venv/bin/python bench/esp32_clock.py          (make device-build first; valgrind; MicroPython's tests/perf_bench)

The device's times elsewhere (bench/device_speed.py) are instructions counted with valgrind's
callgrind on the 32-bit unix build of MicroPython v1.28.0 (build/unix32-frozen-1.28.0/micropython),
turned into ESP32 time by one factor: i386 instructions per second of the ESP32. This bench
derives that factor instead of assuming it. MicroPython's own benchmark suite (tests/perf_bench)
was run on an ESP32 by MicroPython's maintainer and the results published (PUBLISHED below: the
board, firmware, clock and every figure, with the address). Here the same benchmarks, at the same
parameters (N=100 M=100: each test picks its workload from them, so the work is the same), run on
our build under callgrind, counting the instructions of the timed body only (run(), between two
marker calls of micropython.opt_level: --dump-before, as bench/benchlib.py callgrind_segments
reads them); each run's result is checked against CPython's, as MicroPython's run-perfbench.py
does. Per benchmark: instructions / published ESP32 seconds; combined: the geometric mean over
all of them (every benchmark weighs the same, whatever its length), with the spread (lowest and
highest, and the factor between them).

What the source measured, and so what the factor means:
- the original ESP32 (Xtensa LX6; a TinyPICO, ESP32-PICO-D4) at 160 MHz, not 240 MHz. Tafel's
  image (firmware/port/boards/TAFEL_ESP32) runs at 160 MHz too: neither it nor MicroPython's
  boards/sdkconfig.base selects another clock, so ESP-IDF's default (160 MHz for the ESP32)
  holds. At 240 MHz the same code is not simply 1.5 times faster: the source found only bm_fft,
  bm_pidigits and misc_aes scaling with the clock; the rest wait on the flash.
- MicroPython as of that commit (2021-09-24, after v1.17), the GENERIC build with ESP-IDF v4.2.2,
  -O2, the VM and the hottest runtime functions in IRAM; the port has been built that way since
  (v1.28.0's ports/esp32 still puts the VM in IRAM and builds with -O2). Ours is v1.28.0 built
  -Os for i386; what changed in the VM since 2021 is in the factor.
- The tests were sent over the raw REPL and compiled on the board: their bytecode was in RAM,
  and the C they run is a small hot set of the interpreter, mostly in IRAM or in the 32 KB flash
  cache.

What the factor cannot capture: Tafel's frozen bytecode and constants are read from flash through
the same cache, and the firmware reaches far more of MicroPython's C (framebuf, LittleFS, the
drivers, the display code) than a benchmark loop; those cache misses are beyond what the
benchmarks saw, so a real key or export takes longer than the estimate. Time on the buses
(I2C, SPI, the UART) is not instructions at all and is not in it either.
"""
import hashlib
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from benchlib import (  # noqa: E402
    RESULTS,
    NothingMeasured,
    callgrind_segments,
    micropython_named,
    run_recorded,
    table,
    tool_version,
)
from tafel_host.sim import runtime as sim_runtime  # noqa: E402

# ---- the published figures ------------------------------------------------------------------

# MicroPython's tests/perf_bench on an ESP32, as published: "diff of scores (higher is better)",
# the column after the change (esp32-perf). A score is 1e6 * norm / microseconds (run-perfbench.py),
# norm a test's measure of its own work at the chosen N, M (printed by the test; this bench
# checks it), so the ESP32's time is 1e6 * norm / score. The viper_call* tests are left out:
# they time native machine code, not the interpreter.
PUBLISHED = {
    "source": "https://github.com/micropython/micropython/commit/549448e8bbc8ce0b6b5fc51c0660acdaff18c3d6",
    "board": "TinyPICO (ESP32-PICO-D4: the original ESP32, Xtensa LX6), MicroPython's GENERIC build",
    "firmware": "MicroPython master at commit 549448e8 (2021-09-24, after v1.17), ESP-IDF v4.2.2, -O2, "
                "the VM and hot runtime functions in IRAM",
    "cpu_mhz": 160,
    "n": 100,
    "m": 100,
    # test: (published score, norm at N=100 M=100)
    "scores": {
        "bm_chaos": (268.08, 50),
        "bm_fannkuch": (69.31, 6),
        "bm_fft": (2538.23, 768),
        "bm_float": (3900.62, 250),
        "bm_hexiom": (32.79, 10),
        "bm_nqueens": (2372.87, 1000),
        "bm_pidigits": (664.40, 65),
        "misc_aes": (345.69, 32),
        "misc_mandel": (2121.92, 400),
        "misc_pystone": (1801.87, 300),
        "misc_raytrace": (281.78, 50),
    },
}

# The benchmarks' sources are MicroPython's (tests/perf_bench at tag v1.28.0, the version of our
# build), read from a MicroPython checkout, never copied here; their git blob ids pin them. Their
# workload at N=100 M=100 is the one of commit 549448e8 (since then: formatting, SKIP guards, rows
# for N=32; bm_fft rounds its log2, the same for its power-of-two sizes).
PERF_BENCH_TAG = "v1.28.0"
PERF_BENCH_BLOBS = {
    "bm_chaos": "e0e9269ebd36757fc9d82115904f11b4d91818c2",
    "bm_fannkuch": "49ab05d1e924d91391e582c8cc454a54a4abb773",
    "bm_fft": "e35c1216c139fbf13adfd4f2eb3f75704e59b9f3",
    "bm_float": "9e55deaee53cfde988f83667ac771876c0e34630",
    "bm_hexiom": "e36fc234cd71a4d50d5db849ee598999fd76859a",
    "bm_nqueens": "7c6ddd59e1ef7209a3d47eb4c25b0867b4f1df49",
    "bm_pidigits": "c935f103c5b78be0bd8c21fe627e6931157f5c32",
    "misc_aes": "8a9c58bb380b28c0b4c1934c166139623e5975d2",
    "misc_mandel": "fe26e3f4c22f9977e1df4d805d2b8db232c8c703",
    "misc_pystone": "26f91c7becb106290980a2b22123558defb24d70",
    "misc_raytrace": "a729af99c2a1197d8f377b664abd2a47486d265a",
}
# The heap the tests run in: about what the GENERIC ESP32 build (no PSRAM) gives Python, so the
# collections during a run are about as many as on the board.
HEAP = "112K"

RESULTS_FILE = os.path.join(RESULTS, "esp32_clock.txt")
COMBINED = "Combined (geometric mean of the %d): %.1f M i386 instructions per ESP32 second"
COMBINED_RE = re.compile(r"^Combined \(geometric mean of the (\d+)\): ([\d.]+) M i386 instructions per ESP32 second",
                         re.M)

# Around the test: sys.path as run-perfbench.py leaves it; after it, N, M's parameters picked as
# tests/perf_bench/benchrun.py picks them, and run() alone between the two markers.
PROLOGUE = """import sys
try:
    sys.path.remove('')
except ValueError:
    pass
"""
EPILOGUE = """
def _tafel_clock(N, M):
    try:
        from micropython import opt_level as mark
    except ImportError:  # CPython, for the truth
        mark = lambda: None
    cur, param = (0, 0), None
    for nm, p in bm_params.items():
        if 10 * nm[0] <= 12 * N and nm[1] <= M and nm > cur:
            cur, param = nm, p
    run, result = bm_setup(param)
    mark()
    run()
    mark()
    norm, out = result()
    print("segments body")
    print("norm", norm)
    print("result", out)


_tafel_clock(%d, %d)
"""


def published_us(name):
    """The ESP32's microseconds for a test, from its published score."""
    score, norm = PUBLISHED["scores"][name]
    return 1e6 * norm / score


def git_blob(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def find_perf_bench():
    """The folder holding MicroPython's tests/perf_bench at PERF_BENCH_TAG, or None."""
    candidates = [os.environ.get("TAFEL_PERF_BENCH")]
    src = os.environ.get("MICROPYTHON_SRC")  # firmware/port/unix/build.sh's source, when a folder
    if src:
        candidates.append(os.path.join(src, "tests", "perf_bench"))
    candidates.append(str(ROOT / "build" / "micropython-1.28.0" / "tests" / "perf_bench"))
    for path in candidates:
        if path and os.path.isfile(os.path.join(path, "misc_pystone.py")):
            return Path(path)
    return None


def read_tests(folder):
    """{test: source bytes}, each checked against its pinned blob id."""
    out = {}
    for name, blob in PERF_BENCH_BLOBS.items():
        data = (Path(folder) / (name + ".py")).read_bytes()
        if git_blob(data) != blob:
            raise ValueError("%s/%s.py is not MicroPython %s's (git blob %s expected)"
                             % (folder, name, PERF_BENCH_TAG, blob))
        out[name] = data
    return out


def script(source):
    return PROLOGUE.encode() + source + (EPILOGUE % (PUBLISHED["n"], PUBLISHED["m"])).encode()


def parse_run(stdout):
    norm = [line.split()[1] for line in stdout.splitlines() if line.startswith("norm ")]
    res = [line[len("result "):] for line in stdout.splitlines() if line.startswith("result ")]
    return (int(norm[0]) if norm else None), (res[0] if res else None)


def measure(build, valgrind, folder, heap=HEAP):
    """{test: instructions of run()} on `build` under callgrind; each result checked against CPython's."""
    tests = read_tests(folder)
    tmp = Path(tempfile.mkdtemp(prefix="tafel-esp32-clock-"))
    counts = {}
    try:
        for name, source in tests.items():
            path = tmp / (name + ".py")
            path.write_bytes(script(source))
            truth = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=600)
            base = str(tmp / (name + ".cg"))
            out = subprocess.run([valgrind, "--tool=callgrind", "--dump-before=mp_micropython_opt_level",
                                  "--callgrind-out-file=" + base, str(build), "-X", "heapsize=" + heap, str(path)],
                                 capture_output=True, text=True, timeout=1800, cwd=tmp)
            if out.returncode != 0:
                raise RuntimeError("%s failed on %s:\n%s" % (name, build, (out.stdout + out.stderr)[-2000:]))
            norm, result = parse_run(out.stdout)
            if norm != PUBLISHED["scores"][name][1]:
                raise RuntimeError("%s: norm %s at N=%d M=%d, the published run's was %d" % (
                    name, norm, PUBLISHED["n"], PUBLISHED["m"], PUBLISHED["scores"][name][1]))
            if result != parse_run(truth.stdout)[1]:
                raise RuntimeError("%s: result %r differs from CPython's %r" % (name, result, parse_run(truth.stdout)[1]))
            counts[name] = callgrind_segments(out.stdout, base)["body"]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return counts


def calibrate(counts):
    """Per test (name, published score, ESP32 us, instructions, instructions per ESP32 second), and the combined
    figure: (geometric mean, lowest, highest) in instructions per ESP32 second."""
    rows = []
    for name in sorted(counts):
        us = published_us(name)
        rows.append((name, PUBLISHED["scores"][name][0], us, counts[name], counts[name] / (us / 1e6)))
    ips = [r[4] for r in rows]
    geo = math.exp(sum(math.log(x) for x in ips) / len(ips))
    return rows, (geo, min(ips), max(ips))


class Clock:
    """The factor as device_speed uses it."""

    def __init__(self, ips, count, how):
        self.ips, self.count, self.how = ips, count, how
        self.mhz = PUBLISHED["cpu_mhz"]
        self.source = PUBLISHED["source"]

    def seconds(self, instructions):
        return instructions / self.ips

    def says(self):
        """What an estimate says of itself."""
        return ("estimate, calibrated against %s: %.1f M i386 instructions per ESP32 second (ESP32 at %d MHz; "
                "geometric mean of %d perf_bench tests, bench/esp32_clock.py)" % (
                    self.source, self.ips / 1e6, self.mhz, self.count))


def recorded(build):
    """The factor from bench/results/esp32_clock.txt when that run was on `build` and succeeded, else None."""
    if not os.path.isfile(RESULTS_FILE):
        return None
    with open(RESULTS_FILE) as f:
        header, _, body = f.read().partition("\n")
    found, status = COMBINED_RE.search(body), re.search(r"\| exit (\d+)", header)
    if found is None or status is None or status.group(1) != "0" or micropython_named(build) not in header:
        return None
    return Clock(float(found.group(2)) * 1e6, int(found.group(1)), "recorded in bench/results/esp32_clock.txt")


def factor(build, valgrind):
    """The factor for `build`: the recorded run's if there is one for it, else measured now (a few seconds)."""
    clock = recorded(build)
    if clock is not None:
        return clock
    folder = find_perf_bench()
    if folder is None:
        raise LookupError(no_perf_bench())
    _, (geo, _, _) = calibrate(measure(build, valgrind, folder))
    return Clock(round(geo / 1e5) * 1e5, len(PUBLISHED["scores"]), "measured now (no recorded run for this build)")


def no_perf_bench():
    return ("MicroPython's tests/perf_bench (%s) was not found: set TAFEL_PERF_BENCH to that folder of a clone, e.g.\n"
            "    git clone --depth 1 --branch %s https://github.com/micropython/micropython /tmp/micropython\n"
            "    TAFEL_PERF_BENCH=/tmp/micropython/tests/perf_bench .venv/bin/python bench/esp32_clock.py\n"
            "(or MICROPYTHON_SRC=/tmp/micropython, the source firmware/port/unix/build.sh takes: its tests/perf_bench)"
            % (PERF_BENCH_TAG, PERF_BENCH_TAG))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    heap = HEAP
    if argv[:1] == ["--heap"] and len(argv) == 2:  # ad hoc: how much the heap's size moves the counts
        heap = argv[1]
    elif argv:
        print("usage: bench/esp32_clock.py [--heap SIZE]", file=sys.stderr)
        return 2
    build, valgrind = sim_runtime.device_build(ROOT), shutil.which("valgrind")
    if build is None or valgrind is None:
        print("bench/esp32_clock.py needs the device build (make device-build) and valgrind", file=sys.stderr)
        return 2
    folder = find_perf_bench()
    if folder is None:
        print(no_perf_bench(), file=sys.stderr)
        raise NothingMeasured()
    rows, (geo, low, high) = calibrate(measure(build, valgrind, folder, heap))
    p = PUBLISHED
    print("ESP32 against the device build: MicroPython's tests/perf_bench (%s, N=%d M=%d) as published for the ESP32 "
          "and as counted here (%s, valgrind %s, heap %s)" % (
              PERF_BENCH_TAG, p["n"], p["m"], os.path.relpath(build, ROOT), tool_version(valgrind, "--version"), heap))
    print("Published: %s" % p["source"])
    print("  on %s at %d MHz; %s" % (p["board"], p["cpu_mhz"], p["firmware"]))
    print(table(("benchmark", "published score", "ESP32 time", "instructions here", "M instructions per ESP32 second"),
                [(name, "%.2f" % score, "%.1f ms" % (us / 1000), "%.1f M" % (n / 1e6), "%.1f" % (ips / 1e6))
                 for name, score, us, n, ips in rows], "lrrrr"))
    print()
    print((COMBINED + ", spread %.1f-%.1f M (x%.2f between lowest and highest); ESP32 at %d MHz.") % (
        len(rows), geo / 1e6, low / 1e6, high / 1e6, high / low, p["cpu_mhz"]))
    print("ESP32 time = instructions counted here / that figure. The benchmarks' bytecode was in RAM and their C a "
          "small hot set; Tafel's frozen bytecode and wider C run through the flash cache, and bus time is no "
          "instructions: real times are longer (see the header).")
    print("Reproduce: .venv/bin/python bench/esp32_clock.py (TAFEL_PERF_BENCH: MicroPython %s's tests/perf_bench)"
          % PERF_BENCH_TAG)
    return 0


if __name__ == "__main__":
    sys.exit(run_recorded(main, "esp32_clock", measured_on=lambda: micropython_named(sim_runtime.device_build(ROOT))))
