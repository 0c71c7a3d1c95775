# What each figure block of README.md and docs/*.md says, made from bench/results/ (bench/figures.py).
#
# A block is a function of `load` (load("device_heap") is bench/results/device_heap.txt, parsed:
# figures.Results) returning Markdown. Every number in a block comes from a results file; the
# words around it say what was measured and on which interpreter.
import re

from benchlib import table
from figure_docs import DOC_BLOCKS, block

DEVICE = "the 32-bit device build"
LAPTOP = "*64-bit* unix port"


def number(text):
    """The first number in a cell ("54528 B (53.2 KB)" -> 54528.0)."""
    return float(re.search(r"-?[\d,]*\.?\d+", text).group(0).replace(",", ""))


def kb_of(text):
    """'53.2 KB' from a cell that says it in bytes and KB, or in KB."""
    found = re.search(r"[\d.]+ KB", text)
    return found.group(0) if found else "%.1f KB" % (number(text) / 1024.0)


def thousands(n):
    return "{:,}".format(int(n))


def sources(load, names):
    """The closing line of a block: which run of which bench, when (or that it is a seed)."""
    return "*From %s.*" % "; ".join(load(n).source() for n in names)


def key_counts(load):
    r = load("key_counts")
    return block(r.table("Key presses").text, sources(load, ["key_counts"]))


# ---- the summary: device figures, flash sizes, laptop figures ------------------------------------------


# What each of make heap's scenarios is (tests/host/heap_scenarios.py), for the summary's first row.
SCENARIOS = {"evening": "10 seats and 300 rounds by keys", "tour": "the short flows, one after another",
             "export": "`tafel export` of 100 games", "usb": "an update over USB", "wifi": "an update over Wi-Fi",
             "club": "a club evening's table: the hub restarted, then away ten minutes"}
BOARD_LINE = re.compile(r"^([\w-]+): first area ([\d.]+ KB), growing from (.*?); the simulator's own bytes in the "
                        r"(?:chip's )?heap(?: with no firmware)?: ([\d.]+ KB|-)")


class Board:
    """One board's table of bench/device_heap.py: its line above the table, the table, the failures under it."""

    def __init__(self, results, table):
        found = BOARD_LINE.match(table.title)
        if found is None:
            results.fail("holds a table %r with no board line above it" % table.title)
        self.name, self.first, self.grows, self.own = found.groups()
        self.table, self.rows = table, table.rows
        # The lines under the table, up to the next blank one: "NAME failed in the board's heap: WHY".
        under = results.body.split(table.title + "\n" + table.text + "\n", 1)[1:]
        self.failed = re.findall(r"^(\w+) failed in the board's heap: (.*)$", under[0].split("\n\n")[0], re.M) \
            if under else []

    def terms(self):
        return "first area %s growing from %s" % (self.first, self.grows)

    def column(self, head):
        """The cells, scenario by scenario, under the column whose head starts with `head`."""
        return [self.table.cell(row[0], head) for row in self.rows]


def boards(results):
    """The per-board tables of a device_heap results file, in its order."""
    found = [Board(results, t) for t in results.tables() if t.head[0] == "scenario"]
    if not found:
        results.fail("holds no board's table")
    return found


def budget_words(table):
    """'≤ 64 KB, goal 56 KB' from the last column's head ('budget 64 KB / goal 56 KB')."""
    budget, goal = re.match(r"budget (\d+ KB) / goal (\d+ KB)", table.head[-1]).groups()
    return "≤ %s, goal %s" % (budget, goal)


def esp32_factor(load):
    """(M i386 instructions per ESP32 second, the line saying it) from bench/results/esp32_clock.txt."""
    clock = load("esp32_clock")
    count, factor = clock.find(r"^Combined \(geometric mean of the (\d+)\): ([\d.]+) M i386 instructions per ESP32 "
                               r"second", None)
    return factor, count


def estimated_with(load, name):
    """The factor a run's estimates used; it must be esp32_clock's recorded one."""
    factor, _ = esp32_factor(load)
    used = load(name).find(r"([\d.]+) M i386 instructions per ESP32 second")
    if used != factor:
        load(name).fail("estimates with %s M instructions per ESP32 second, bench/results/esp32_clock.txt says "
                        "%s M: re-run `.venv/bin/python bench/%s.py`" % (used, factor, name))
    return used


def device_rows(load):
    rows = []
    heap = load("device_heap")
    for i, board in enumerate(boards(heap)):
        names = board.column("scenario")
        fails = [n for n, ok in zip(names, board.column("in the board's heap")) if ok != "ok"]
        what = "device heap, board `%s` (%s): %s" % (board.name, board.terms(), " / ".join(names))
        if i == 0:
            what += " (%s)" % "; ".join(SCENARIOS.get(n, n) for n in names)
        rows.append((
            what,
            "%s; peak in use %s; **smallest heap in one area %s**%s" % (
                "all run in the board's heap" if not fails else "**%s FAIL** in the board's heap" % ", ".join(fails),
                " / ".join(board.column("peak in use")), " / ".join(board.column("smallest heap")),
                " (the tables below)" if i == 0 else ""),
            "%s: %s" % (budget_words(board.table), ", ".join(
                "%s %s" % verdict for verdict in zip(names, board.column("budget")))),
            "`make heap`"))
    scale = heap.table("Host scale")
    worst, setting, margin = heap.find(r"^largest ratio ([\d.]+); \S+ HOST_SCALE is ([\d.]+) "
                                       r"\((.*)\)$", None)
    rows.append(("the host port's heap for the same flows (PyPI unix port, 64-bit, the app from source) over the "
                 "device build's, for `tafel sim` without the device build",
                 "%.2f to %s times (%d flows); `HOST_SCALE` %s: %s" % (
                     min(number(row[4]) for row in scale.rows), worst, len(scale.rows), setting, margin),
                 "≥ the largest ratio", "`bench/device_heap.py --host-scale`"))
    mpy = load("device_heap-mpy")
    board = boards(mpy)[0]
    evening = dict((head, board.table.cell("evening", head)) for head in board.table.head)
    why = dict(board.failed).get("evening")
    rows.append(("the same evening with the app as `.mpy` files (stock MicroPython, no PSRAM), on the 32-bit build "
                 "without the app frozen in, board `%s` (%s)" % (board.name, board.terms()),
                 "runs; peak in use %s, largest free block then %s, %s areas" % (
                     evening["peak in use"], evening["largest free at peak"], evening["areas at peak"])
                 if evening["in the board's heap"] == "ok" else "**FAILS** in the board's heap (%s); peak in use %s" % (
                     (why or "see the results file").replace("|", "\\|"), evening["peak in use"]),
                 "—", "`bench/device_heap.py --mpy --board %s --only evening --no-search`" % board.name))
    grow, share, partition = load("image_size").find(
        r"adds ([\d.]+ KB) to a firmware image, ([\d.]+ %) of the ESP32 app partition \(([\d.]+ KB)\)", None)
    rows.append(("the frozen application in the firmware image (section sizes of the 32-bit unix builds with "
                 "and without it)", "%s read-only (bytecode, constants, interned names), %s of the %s app "
                 "partition; the ESP32 image itself needs ESP-IDF and was not built here" % (grow, share, partition),
                 "fits", "`bench/image_size.py`"))
    speed = load("device_speed")
    keys = speed.table("screen, keys")
    bare = [row for row in keys.rows if row[1] == "bare"]
    app = [row for row in keys.rows if row[1] == "app"]
    estimated_with(load, "device_speed")
    rows.append(("key to screen on %s, the firmware's own share (standings / round entry)" % DEVICE,
                 "%s / %s instructions; *estimate* %s / %s on an ESP32 (with the emulated display chip: %s / %s)" % (
                     bare[0][2], bare[1][2], bare[0][3], bare[1][3], app[0][2], app[1][2]),
                 "≤ 50 ms", "`bench/device_speed.py`"))
    export = speed.table("what")
    line_ms = speed.find(r"At 115200 baud a KB takes (\d+) ms")
    busy = speed.find(r"At 115200 baud a KB takes \d+ ms on the wire: (.*)$")
    reads = speed.find(r"Not in the estimate: the (\d+) reads")
    rows.append(("export of 100 stored games on %s: the device's own work (read the journals from LittleFS, "
                 "frame, encode)" % DEVICE,
                 "%s instructions per KB of frames, *estimate* %s against the %s ms a KB takes at 115200 baud; "
                 "its %s flash reads counted as the calls into the flash chip they are (C here as on the chip), "
                 "their time on the chip's SPI flash not" % (
                     export.cell("per KB", "instructions"), export.cell("per KB", "ESP32"), line_ms,
                     thousands(reads)),
                 "keeps the line busy: %s" % ("yes" if "keeps the line busy" in busy else
                                               "**no**, the CPU would set the pace"),
                 "`bench/device_speed.py`"))
    read = load("flash_read_speed")
    evening = read.table("flash").rows[0]
    full_s, full_min = read.find(r"2 MB with every block full: \d+ bytes, about (\d+) s \(([\d.]+) min\)", None)
    estimated_with(load, "rawscan_speed")
    scan = load("rawscan_speed").find(r"device build: ([\d.]+) M instructions; estimate on an ESP32: ([\d.]+) s "
                                      r"of scanning \+ ([\d.]+) s reading the flash = ([\d.]+) s", None)
    rows.append(("recovery mode on %s (56 KB heap, no growth): raw flash read at 115200 baud (`tafel rescue "
                 "--port`) / the raw scan for games at boot over 2 MB" % DEVICE,
                 "an evening's flash (%s blocks) %s s, %s of the line; 2 MB with every block full about %s min "
                 "(%s s, extrapolated); peak heap %s / %s M instructions, *estimate* %s s on an ESP32 with the "
                 "flash read" % (evening[1], evening[4], evening[5], full_min, full_s, evening[6], scan[0], scan[3]),
                 "—", "`bench/flash_read_speed.py`, `bench/rawscan_speed.py`"))
    return rows


def flash_rows(load):
    core = load("core_budget").table("module")
    total = core.row("total")
    rulebook = sum(number(row[1]) for row in core.rows if row[0].startswith("tafel/rulebook"))
    packages = load("image_size").table("package")
    app = packages.row("total")
    parts = sorted(((number(row[2]), row[0]) for row in packages.rows if row[0] != "total"), reverse=True)
    app_bytes = number(app[2])
    return [
        ("core `.mpy` (lib/tafel, mpy-cross)", "%s, of it %.1f KB the rulebook (its texts in two languages, "
         "`rulebook*.py`)" % (kb_of(total[1]), rulebook / 1024.0),
         "≤ 24 KB: %s" % ("**over**" if "OVER" in total[2] else "ok"), "`bench/core_budget.py`"),
        ("application `.mpy` (the frozen files, firmware + core, %s files)" % app[1],
         "%s (%s)" % (app[3], ", ".join("%s %.1f" % (name, size / 1024.0) for size, name in parts)),
         "≤ 96 KB: %s" % ("**over**" if app_bytes > 96 * 1024 else "ok"), "`bench/image_size.py`"),
    ]


def storage_rows(load):
    wear = load("storage_wear")
    store = wear.table("design").row("Tafel store")
    per = [c.split(" / ") for c in store[1:6]]
    listing = wear.table("what")
    boot = listing.rows[0]
    sweep = wear.table("evening")
    damage = load("flash_damage")
    head, *kinds = damage.columns("damage")
    totals = dict((h, sum(int(row[i]) for row in kinds)) for i, h in enumerate(head) if i)
    trials = damage.find(r"; (\d+) trials in")
    return [
        ("flash programmed per saved round, 10 seats, both copies (round 1 / 100 / 300); LittleFS on the emulated "
         "flash (unix port)", "%s / %s / %s; mean %s, worst %s; %s blocks erased a round on average" % (
             per[0][0], per[1][0], per[2][0], per[3][0], store[5], per[3][1]),
         "≤ 2 KB: %s" % store[6], "`bench/storage_wear.py`"),
        ("boot with 500 stored games (mount and boot check, the free-space walk included) vs loading one game",
         "%s times the bytes read: %s KB in %s flash reads, %s ms on the unix port (the emulated flash's Python "
         "read path; the chip's time is not measured)" % (boot[4].rstrip("x"), boot[2], thousands(number(boot[1])),
                                                          boot[3]),
         "—", "`bench/storage_wear.py`"),
        ("power-cut points the bench exercises (clean and torn cuts at every program and erase; for the short "
         "evening a second cut at every write of each recovery)",
         "; ".join("%s: %s" % (row[0], thousands(number(row[6]))) for row in sweep.rows),
         "every one recovers", "`bench/storage_wear.py`"),
        ("flash damage: one block of an evening erased, zeroed or a bit flipped (%s trials)" % thousands(trials),
         "%d games lost or silent, %d wrong, %d unmountable, %d crashed; %d games rebuilt and said so" % (
             totals["reported lost"] + totals["silent"], totals["wrong"], totals["unmountable"], totals["crashed"],
             totals["rebuilt"]), "no silent loss", "`bench/flash_damage.py --zero`"),
    ]


def laptop_rows(load):
    core = load("core_budget").table("measure")
    keys = load("firmware_budget").table("screen, keys")
    bare = [row for row in keys.rows if row[1].startswith("app.key() + app.render() alone")]
    redraw = load("display_redraw")
    frames = redraw.table("display").rows
    buffers = redraw.table("ST7789 buffers").row("total")[1]
    export = load("export_speed").table("what")
    update = load("update_speed")
    timed = update.table("update")
    bundle = update.find(r"\(bundle [^:]+: (\d+) files, ([\d,]+) bytes", None)
    phases = update.table("phase")
    crypto = load("update_crypto")
    verify = crypto.table("(1) Verification")
    size = crypto.table("(2) Bundle size")
    heap = crypto.table("verify_bundle")
    over = lambda row: "ok" if row[-1] == "ok" else "**over**"  # noqa: E731
    return [
        ("heap for the core holding a 10-seat, 300-round game and recomputing totals (the core as `.mpy`)",
         "%s smallest; in use after `import tafel` (lazy) %s, with the modules a game uses %s; the game itself %s" % (
             kb_of(core.cell("smallest heap: hold", "from .mpy")), kb_of(core.cell("heap in use after import",
                                                                                   "from .mpy")),
             kb_of(core.cell("... after the modules", "from .mpy")), kb_of(core.cell("the game alone", "from .mpy"))),
         "—", "`bench/core_budget.py`"),
        ("instructions per key and redraw, the firmware's own share (standings / round entry; the app as `.mpy`)",
         "%s / %s" % (bare[0][2], bare[1][2]), "reported", "`bench/firmware_budget.py`"),
        ("full-frame redraw, draw + send, bus writes dropped (SSD1306 / ST7789)",
         "%s / %s instructions; one text row %s / %s" % (frames[1][2], frames[3][2], frames[1][3], frames[3][3]),
         "reported", "`bench/display_redraw.py`"),
        ("colour driver's buffers, by design (a full RGB565 frame would be 64,800 B)", "%s B" % thousands(buffers),
         "fits 64 KB", "`bench/display_redraw.py`"),
        ("export of 100 stored games over the simulated serial at 115200 baud (line time, paced)",
         "%s of the line rate (%s s, %s games/s; `mpremote cp` of the same files: %s, %s s)" % (
             export.cell("share", "tafel export"), export.cell("seconds", "tafel export"),
             export.cell("games per second", "tafel export"), export.cell("share", "mpremote cp (sim port)"),
             export.cell("seconds", "mpremote cp (sim port)")), "≥ 90 %", "`bench/export_speed.py`"),
        ("update over the simulated serial at 115200 baud (line time, paced): whole app (%s files, %s bytes) / "
         "one changed file" % bundle,
         "%s s / %s s; of it the device's final check and switch %s / %s s" % (
             timed.cell("full app", "seconds"), timed.cell("one file", "seconds"),
             timed.cell("full app", "of it"), timed.cell("one file", "of it")),
         "≤ 10 s / ≤ 2 s: %s / %s" % (over(timed.row("full app")), over(timed.row("one file"))),
         "`bench/update_speed.py`"),
        ("free heap at the peak of a one-file update's staging code alone (not inside the running app: "
         "`make heap`'s usb and wifi scenarios are that, on the device build) in a 64 KB heap: head verify / "
         "staging + finish", "%s / %s B" % (phases.rows[0][2], phases.rows[1][2]),
         "≥ 20 KB here: %s / %s" % (over(phases.rows[0]), over(phases.rows[1])), "`bench/update_speed.py`"),
        ("Ed25519 verify with the device's own code (`lib/tafel/bundle/ed25519.py`, pure Python)",
         "%s; %s on this laptop (the chip is far slower: no device time measured)" % (
             verify.cell("Ed25519", "cost"), verify.cell("Ed25519", "time")), "practical",
         "`bench/update_crypto.py`"),
        ("bundle size against the files as written on the device", "%s (zlib, 1 KB window)" % size.cell(
            "bundle, zlib", "of raw"), "—", "`bench/update_crypto.py`"),
        ("free heap at the peak of verifying a bundle in a 64 KB heap", heap.cell("verify only", "free at peak"),
         "≥ 20 KB: %s" % heap.cell("verify only", "budget"), "`bench/update_crypto.py`"),
    ] + club_rows(load)


def club_rows(load):
    club = load("club_load")
    hub = club.table("broker")

    def at(broker, n, column):
        for row in hub.rows:
            if row[0] == broker and row[1] == str(n):
                return row[hub.head.index(column)]
        from figures import MissingResults  # (figures.py imports this module)

        raise MissingResults("bench/results/club_load.txt: no run of %s with %s tables" % (broker, n))

    goal = club.find(r"^Goal: (.*)$")
    year = club.table("command (a process")
    games = club.find(r"^A year of a club: (\d+) games")
    restarted = [(at(b, 200, "lost"), at(b, 200, "stored twice")) for b in ("amqtt, restarted", "mosquitto, restarted")]
    return [
        ("the club's hub (`tafel club serve`) on this laptop: simulated tables each playing a round every 10 s, "
         "from a table's publish to the round on the live board's event stream, median / 99th percentile "
         "(the built-in broker, amqtt / Mosquitto)",
         "200 tables: %s / %s, %s / %s; 1,000 tables: %s / %s, %s / %s; the broker restarted mid-run with 200: "
         "%s and %s lost, %s and %s stored twice" % (
             at("amqtt", 200, "board p50"), at("amqtt", 200, "board p99"), at("mosquitto", 200, "board p50"),
             at("mosquitto", 200, "board p99"), at("amqtt", 1000, "board p50"), at("amqtt", 1000, "board p99"),
             at("mosquitto", 1000, "board p50"), at("mosquitto", 1000, "board p99"),
             restarted[0][0], restarted[1][0], restarted[0][1], restarted[1][1]),
         "p99 < 1 s at 200 tables, on both: %s" % goal, "`bench/club_load.py`"),
        ("a year of a club (%s games stored through the hub's ingest): `tafel history` / `--evening` / "
         "`tafel chart` / `tafel report`, each a process of its own" % thousands(int(games)),
         " / ".join(row[1] for row in year.rows), "< 2 s each", "`bench/club_load.py`"),
    ]


def summary(load):
    head = ("what", "figure", "budget", "command")
    device = load("device_heap").measured_on
    laptop = load("core_budget").measured_on
    factor, _ = esp32_factor(load)
    return block(*[
        "**On the device build** (%s: the ESP32's object sizes and heap; times marked *estimate* are "
        "instructions / %s M per second, the factor `bench/esp32_clock.py` calibrates, above):" % (device, factor),
        table(head, device_rows(load), "llll"),
        "**Flash** (byte counts of the compiled application, the same on every interpreter):",
        table(head, flash_rows(load), "llll"),
        "**Storage** (the firmware's store on LittleFS over the emulated 2 MB flash, MicroPython unix port; bytes, "
        "reads and cut points are the chip's, times are the laptop's):",
        table(head, storage_rows(load), "llll"),
        "**Laptop figures** (%s, %s: pointers, object headers and GC blocks twice the ESP32's; times are this "
        "laptop's, not the device's):" % (LAPTOP, laptop),
        table(head, laptop_rows(load), "llll"),
        summary_sources(load),
    ])


def summary_sources(load):
    """One line for the whole summary: the dates of the runs, and which files are seeds not yet re-run."""
    names = list(load.used)
    dates = sorted(load(n).date for n in names if not load(n).seeded)
    seeded = [n for n in names if load(n).seeded]
    line = "*From bench/results/ (each file's first line: command, date, machine, interpreter)"
    if dates:
        line += ", runs of %s to %s" % (dates[0][:10], dates[-1][:10]) if dates[0][:10] != dates[-1][:10] else \
            ", runs of %s" % dates[0][:10]
    if seeded:
        line += "; seeded from earlier figures, not yet re-run: %s" % ", ".join("`%s`" % n for n in seeded)
    return line + ".*"


def device_heap(load):
    """make heap's tables: per board, per scenario; then the host port's scale."""
    r = load("device_heap")
    parts = []
    for board in boards(r):
        parts += ["`%s` (%s; the simulator's own bytes in the chip's heap with no firmware: %s):" % (
            board.name, board.terms(), board.own), board.table.text]
        parts += ["%s failed in the board's heap: %s" % failed for failed in board.failed
                  if failed[0] in [row[0] for row in board.rows]]
    scale = r.table("Host scale")
    parts += [scale.title, scale.text, r.find(r"^(largest ratio .*)$")]
    return block(*(parts + [sources(load, ["device_heap"])]))


def esp32_clock(load):
    """README, Figures: what an *estimate* is, with the factor and its spread."""
    r = load("esp32_clock")
    factor, count = esp32_factor(load)
    low, high, mhz = r.find(r"spread ([\d.]+)-([\d.]+) M .*?; ESP32 at (\d+) MHz", None)
    source = r.find(r"^Published: (\S+)")
    return block(
        "Times marked *estimate* are i386 instructions counted with valgrind's callgrind on the device build, "
        "divided by **%s M instructions per ESP32 second**: the geometric mean, over %s of MicroPython's perf_bench "
        "benchmarks, of the instructions each takes here over its time on an ESP32 as published ([%s](%s): the "
        "original ESP32 at %s MHz, the clock Tafel's image runs at); the benchmarks spread from %s to %s M "
        "(`bench/esp32_clock.py`). Their bytecode was in RAM and their C a small hot set of the interpreter; "
        "Tafel's frozen bytecode and wider C run through the flash cache, and bus time (I2C, SPI, the UART) is no "
        "instructions, so real times are longer than the estimates." % (
            factor, count, "MicroPython commit " + source.rstrip("/").rsplit("/", 1)[-1][:8], source, mhz, low, high),
        sources(load, ["esp32_clock"]))


BLOCKS = {
    "key_counts": key_counts,
    "summary": summary,
    "device_heap": device_heap,
    "esp32_clock": esp32_clock,
}
BLOCKS.update(DOC_BLOCKS)
