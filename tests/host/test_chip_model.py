# The chip's memory limits in the measuring build: the C module tafelchip and the ESP-IDF heap model.
#
# Drives the 32-bit device build (firmware/port/unix/build.sh frozen, `make device-build`) with
# small -c scripts. The model and its sources: firmware/port/README.md, "The chip's limits,
# modelled"; the module: firmware/port/unix/tafel/tafelchip.c, idfheap.c, idfcosts.h.
import ast
import os
import subprocess
from pathlib import Path

from needs import needs

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "unix32-frozen-1.28.0" / "micropython"

pytestmark = needs(BUILD.is_file() and os.access(BUILD, os.X_OK), "the 32-bit device build", "make device-build")

# The modelled chip right after boot (TAFEL_IDF_HEAP=esp32): the largest free block is the
# D/IRAM heap at 0x3FFE4350 (113,840 B, 112,968 free after TLSF's control data), which
# heap_caps_get_largest_free_block rounds down to its size class: 27 * 4096.
BOOT_LARGEST = 110592
# GC areas of 56 KB hold 56,000 B of blocks (micropython.mem_info on an ESP32: "GC: total: 56000").
AREA_56K_POOL = 56000

# Grows the Python heap with small objects; prints the areas as they come, then the IDF heap.
FILL = """
import tafelchip as t
keep = []
seen = [(t.heap()[0], t.idf_info()[0], t.idf_info()[1])]
try:
    while True:
        keep.append(bytearray(400))
        if t.heap()[4] != len(seen):
            seen.append((t.heap()[0], t.idf_info()[0], t.idf_info()[1]))
except MemoryError:
    pass
keep = None
print(repr(seen))
"""


def run(code, heap="esp32", heapsize="56K", growth=None):
    """Runs code on the device build; the last line it prints, as a Python value."""
    env = dict(os.environ)
    env.pop("TAFEL_IDF_HEAP", None)
    env.pop("TAFEL_HEAP_GROWTH", None)
    if heap is not None:
        env["TAFEL_IDF_HEAP"] = heap
    if growth is not None:
        env["TAFEL_HEAP_GROWTH"] = growth
    done = subprocess.run([str(BUILD), "-X", "heapsize=" + heapsize, "-c", code],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


def test_the_module_is_built_in_and_the_model_boots_as_the_chip():
    mode, info, heaps = run("import tafelchip as t; print(repr((t.idf_mode(), t.idf_info(), t.idf_heaps())))")
    assert mode == "esp32"
    free, largest, least = info
    assert largest == BOOT_LARGEST
    assert least == free                       # nothing has been freed yet
    totals = sorted(h[0] for h in heaps)
    assert totals == [6432, 15072, 113840, 142092]   # Bluetooth off: no BT reservations
    # the D/IRAM heaps are untouched at boot: their free bytes are those ESP-IDF prints
    # for the same regions (micropython#12952: (15072, 14656, ...), (113840, 112968, ...))
    by_total = {h[0]: h for h in heaps}
    assert by_total[15072][1] == 14656
    assert by_total[113840][1] == 112968
    assert "max new split: %d" % BOOT_LARGEST in run_text("import micropython; micropython.mem_info()")


def run_text(code, heap="esp32"):
    env = dict(os.environ, TAFEL_IDF_HEAP=heap)
    env.pop("TAFEL_HEAP_GROWTH", None)
    done = subprocess.run([str(BUILD), "-X", "heapsize=56K", "-c", code],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_growth_takes_the_modelled_largest_block_and_is_refused_when_it_is_too_small():
    # ESP-IDF's own use first takes the big D/IRAM block: the largest left is the DRAM heap's
    # rest after boot, smaller than the 57,360 B the GC would like (double its total), so it
    # takes that block whole.
    before, after, area = run(FILL.replace("keep = []", "h = t.idf_alloc(%d)\nkeep = []" % BOOT_LARGEST)
                              .replace("print(repr(seen))",
                                       "print(repr((seen[0], seen[1], t.idf_heaps())))"))
    largest_before = before[2]
    assert 40000 < largest_before < 57360
    free_after = after[1]
    assert before[1] - free_after == largest_before + 4      # the block and its TLSF header
    assert after[2] < largest_before
    assert AREA_56K_POOL < after[0] < AREA_56K_POOL + largest_before

    # When no block holds what the GC needs (an allocation plus 2 KB), it does not grow at all.
    eat = "\n".join(["hs = []", "while t.idf_info()[1] > 1024:",
                     "    hs.append(t.idf_alloc(t.idf_info()[1]))", "keep = []"])
    seen = run(FILL.replace("keep = []", eat))
    assert len(seen) == 1                       # one area: the first
    assert seen[0][0] == AREA_56K_POOL


def test_a_second_and_a_third_area_are_taken_as_py_gc_does():
    seen = run(FILL)
    assert len(seen) >= 3
    (total1, free1, largest1), (total2, free2, largest2), (total3, free3, largest3) = seen[:3]
    assert total1 == AREA_56K_POOL
    # the second area doubles the heap ("GC: total: 112000" on the chip, micropython#14421 and
    # #18859): py/gc.c asks for 57,360 B (the first area's blocks, tables and area header, rounded
    # to 16), which TLSF rounds up to its size class, 29 * 2048
    assert total2 == 2 * AREA_56K_POOL
    assert free1 - free2 == 59392 + 4
    # the third would double again (114,688 B) but takes the largest block there is
    assert free2 - free3 == largest2 + 4
    assert total3 > total2
    assert largest3 < largest2


def test_areas_the_gc_gives_back_return_to_the_model():
    boot, grown, back = run("""
import tafelchip as t, gc
boot = t.idf_info()
grown = [0, 0, 0]       # made before the heap grows: nothing of this stays in a new area
def grow():
    keep = [bytearray(400) for _ in range(400)]
    grown[0] = t.heap()[4]
    grown[1], _, grown[2] = t.idf_info()
grow()
gc.collect()
print(repr((boot, grown, (t.heap()[4], t.idf_info()))))
""")
    assert grown[0] >= 3 and grown[1] < boot[0]
    assert back[0] == 1                         # py/gc.c frees empty areas but the first
    assert back[1][:2] == boot[:2]              # every byte and the largest block are back
    assert back[1][2] == grown[2]               # the least free ever is remembered


def wifi_taken(rows, events):
    lines = ["hs = []"]
    for event, size, count in rows:
        if event in events:
            lines.append("for _ in range(%d):\n    hs.append(t.idf_alloc(%d))" % (count, size))
    return "\n".join(lines)


def test_with_wifi_s_costs_taken_growth_is_smaller_or_refused():
    rows = run("import tafelchip as t; print(repr(t.IDF_COSTS))")
    plain = run(FILL)
    wifi = run(FILL.replace("keep = []", wifi_taken(rows, ("wifi_init", "wifi_start", "wifi_connect",
                                                          "socket_tcp", "http_rx")) + "\nkeep = []"))
    assert wifi[0][1] < plain[0][1]             # ESP-IDF has less left before the GC grows
    assert wifi[-1][0] < plain[-1][0]           # the Python heap gets less in the end
    tls = run(FILL.replace("keep = []", wifi_taken(rows, ("wifi_init", "wifi_start", "wifi_connect",
                                                         "socket_tcp", "http_rx", "tls_buffers",
                                                         "tls_handshake")) + "\nkeep = []"))
    assert tls[-1][0] < wifi[-1][0]


def test_idf_alloc_refuses_what_no_block_holds():
    got = run("""
import tafelchip as t
largest = t.idf_info()[1]
none = t.idf_alloc(largest + 4097)
huge = t.idf_alloc(300000)
h = t.idf_alloc(largest)
after = t.idf_info()
again = t.idf_alloc(largest)
freed = t.idf_free(h)
twice = t.idf_free(h)
print(repr((none, huge, h, after, again, freed, twice, t.idf_info())))
""")
    none, huge, handle, after, again, freed, twice, info = got
    assert none is None and huge is None
    assert isinstance(handle, int) and handle > 0
    assert after[1] < BOOT_LARGEST
    assert again is None                        # that block is gone; nothing else is as large
    assert freed is True and twice is False
    assert info[0] == after[0] + BOOT_LARGEST + 4 and info[1] == BOOT_LARGEST
    assert info[2] == after[2]                  # the least free ever stays


# The ESP32 reaches 55 levels of g() below in the REPL (firmware/port/README.md, "The C stack":
# 15,360 B of limit, 640 B to the first check, 272 B a level, from Xtensa frame sizes that give
# the published "stack: 704 out of 15360" exactly). The build's limit is scaled by the largest
# ratio of the Python call paths, so it goes no deeper, and not much less deep.
CHIP_DEPTH_G = 55

STACK = """
import tafelchip as t
d = 0
def g():
    global d
    d += 1
    g()
def f(n):
    if n:
        return f(n - 1)
    return t.stack_peak()
def level():
    t.stack_paint(); a = f(10)
    t.stack_paint(); b = f(40)
    return a, (b - a) // 30
def depth(limit):
    global d
    old = t.stack_limit(limit)
    d = 0
    try:
        g()
    except RuntimeError as e:
        ok = str(e) == 'maximum recursion depth exceeded'
    t.stack_limit(old)
    return d if ok else -1
at10, per = level()
print(repr((at10, per, [(limit, depth(limit)) for limit in (6000, 9000, 12000, t.ESP32_STACK_LIMIT)],
            t.ESP32_STACK_LIMIT, t.ESP32_STACK_FACTOR_PERCENT)))
"""


def test_the_stack_limit_raises_at_the_depth_the_limit_gives():
    at10, per, depths, limit, factor = run(STACK)
    assert limit == (16384 - 1024) * 100 // factor
    assert 200 <= per <= 400
    base = at10 - 10 * per                      # what the script uses before the first call
    for lim, depth in depths:
        assert depth > 0, "no RuntimeError at limit %d" % lim
        expected = (lim - base) / per
        assert abs(depth - expected) <= 2, (lim, depth, expected)
    esp32 = dict(depths)[limit]
    assert 0.85 * CHIP_DEPTH_G <= esp32 <= CHIP_DEPTH_G


def test_stack_peak_grows_with_recursion_depth():
    peaks = run("""
import tafelchip as t
def f(n):
    if n:
        return f(n - 1)
    return 0
out = []
for n in (0, 5, 20, 40):
    t.stack_paint()
    f(n)
    out.append(t.stack_peak())
print(repr(out))
""")
    assert peaks == sorted(peaks) and len(set(peaks)) == 4
    steps = [(b - a) / (m - n) for (a, n), (b, m) in zip(zip(peaks, (0, 5, 20, 40)), zip(peaks[1:], (5, 20, 40)))]
    assert max(steps[1:]) - min(steps[1:]) <= 16    # the same bytes every level


def test_sample_and_peak_track_the_highest_use_and_allocate_nothing():
    got = run("""
import tafelchip as t, micropython
def steps():
    micropython.heap_lock()
    t.sample(1)
    t.sample(0)
    h = t.idf_alloc(64)
    t.idf_free(h)
    t.stack_paint()
    t.stack_peak()
    t.stack_limit(t.stack_limit())
    micropython.heap_unlock()
t.peak_reset()
steps()
t.sample(1)
small = t.peak()[0]
big = [bytearray(1000) for _ in range(20)]
t.sample(1)
at_big = t.peak()
big = None
t.sample(1)
print(repr((small, at_big, t.peak(), t.heap())))
""")
    small, at_big, later, now = got
    assert at_big[0] >= small + 20000           # the 20 KB were seen
    assert later[:3] == at_big[:3]              # and kept after they were dropped
    assert now[1] < later[0]                    # in use now: less than the peak
    assert later[1] < now[3]                    # the largest free block was smaller then
    assert later[2] == 1 and later[3] == now[0] == AREA_56K_POOL


def test_the_model_is_deterministic():
    script = FILL.replace("keep = []", "hs = [t.idf_alloc(n) for n in (1600, 6656, 333, 20000)]\nt.idf_free(hs[1])\nkeep = []")
    script = script.replace("print(repr(seen))", "print(repr((seen, t.idf_heaps(), hs)))")
    assert run(script) == run(script)
    assert run(STACK) == run(STACK)


def test_the_flat_budget_and_no_growth_still_work():
    assert len(run(FILL, heap=None, growth="56K")) == 2      # TAFEL_HEAP_GROWTH, as before
    assert len(run(FILL, heap=None)) == 1                    # neither set: no growth
    assert len(run(FILL, heap="none")) == 1
    flat = run(FILL, heap="59000")
    assert len(flat) == 2 and flat[1][0] == 2 * AREA_56K_POOL
    # the simulator may choose at run time
    assert len(run("import tafelchip as t\nt.idf_setup(None)\n" + FILL)) == 1
    assert len(run("import tafelchip as t\nt.idf_setup(57344)\n" + FILL, heap=None)) == 2
    assert len(run("import tafelchip as t\nt.idf_setup('esp32')\n" + FILL, heap=None)) >= 3


def test_the_model_gives_the_published_esp32_generic_figures():
    # Stock ESP32_GENERIC (Bluetooth compiled in) after MicroPython grew its heap once
    # (micropython#18859, MicroPython v1.27.0, ESP-IDF v5.5.1: "heap_data free=94256
    # largest=53248 ... total=254472 regions=7" with a 112,000 B Python heap).
    heaps, seen = run("""
import tafelchip as t
keep = []
while t.heap()[4] < 2:
    keep.append(bytearray(400))
print(repr((t.idf_heaps(), (t.heap()[0],) + t.idf_info())))
""", heap="esp32-generic")
    assert len(heaps) == 7
    assert sum(h[0] for h in heaps) == 254472
    total, free, largest, _ = seen
    assert total == 112000
    assert abs(free - 94256) <= 0.001 * 94256   # the boot's use was derived from this figure
    assert largest == 53248                     # this one was not


def test_the_costs_table_adds_up_to_its_sources():
    rows = run("import tafelchip as t; print(repr(t.IDF_COSTS))")
    total = {}
    for event, size, count in rows:
        assert size > 0 and count > 0
        total[event] = total.get(event, 0) + size * count
    assert abs(total["wifi_init"] - 28 * 1024) <= 256        # micropython#8940: 28 KiB
    assert total["wifi_start"] == 2560                       # 2.5 KiB
    assert total["wifi_connect"] == 7 * 1024
    assert total["socket_tcp"] == 4 * 1024                   # "~4-7kiB per socket"
    assert total["socket_tcp"] + total["http_rx"] == 9984    # an HTTP fetch: 9.75 KiB
