"""Flash wear, listing cost, capacity and power-cut sweep of the game storage.

    .venv/bin/python bench/storage_wear.py [--quick]      (or: make bench)

Runs bench/mpy/storage_bench.py on the MicroPython unix port (the firmware's
storage code on real vfs.VfsLfs2 over the emulated 2 MB flash,
firmware/sim/flashdev.py) and prints tables:

(a) bytes programmed and blocks erased per saved round at round 1, 100 and 300
    of a 10-seat game (budget: <= 2 KB programmed per round, docs/design.md
    section 8), beside two naive single-file journals for comparison;
(b) boot and history listing with 500 stored games against loading one game:
    flash reads and bytes read (deterministic) and time on the unix port
    (noisy; the emulator's Python read path dominates it);
(c) how many typical games a 2 MB chip stores before a new one is refused;
(d) the power-cut sweep: cut points exercised for the issue's evening and for
    a 300-round evening (clean and torn cuts at every program/erase, and for
    the short evening a second cut at every operation of each recovery).
--quick skips (c) and the 300-round sweep (about four minutes together).
"""
import json
import os
import shutil
import subprocess
import sys

from benchlib import NothingMeasured, micropython_named, run_recorded, table

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(REPO, "bench", "mpy", "storage_bench.py")
HEAP = "64M"  # a long game touches every block of the emulated 2 MB chip
BUDGET = 2048


def find_micropython():
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    for path in (here, "/tmp/tv/bin/micropython", shutil.which("micropython")):
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def run(micropython, section):
    out = subprocess.run([micropython, "-X", "heapsize=" + HEAP, SCRIPT, REPO, section],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("storage_bench %s failed:\n%s%s" % (section, out.stdout, out.stderr))
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def wear(micropython):
    rows = run(micropython, "wear")
    names = {"store": "Tafel store (%d B segments, twice)",
             "reopen": "one file, reopen-append-close",
             "keep-open": "one file kept open, flush"}
    by = {}
    record = None
    away = None
    for r in rows:
        if r["round"] == "put away":
            away = r
            continue
        by.setdefault(r["design"], {})[r["round"]] = r
        record = r.get("record", record)
    names["store"] %= away["segment"]
    out = []
    for design in ("store", "reopen", "keep-open"):
        d = by[design]
        out.append([names[design]] + ["%d B / %d" % (d[k]["programmed"], d[k]["erases"]) for k in ("1", "100", "300")]
                   + ["%d B / %.2f" % (d["mean"]["programmed"], d["mean"]["erases"]),
                      "%d B" % d["max"]["programmed"],
                      "yes" if d["max"]["programmed"] <= BUDGET else "NO"])
    print("(a) Flash wear per saved round, 10-seat game (record %d B + 10 B frame), programmed / blocks erased" % record)
    print(table(("design", "round 1", "round 100", "round 300", "mean of 300", "worst", "<= 2 KB"), out, "lrrrrrl"))
    print("Putting the finished 300-round game away (compact copy + history entry), once: %d B programmed, %d erases."
          % (away["programmed"], away["erases"]))
    print("LittleFS never programs a synced file's last block again: the next append copies it to a fresh")
    print("block, so a single journal costs up to 4 KB per round; segments cap the copy at %d B (in each copy)."
          % away["segment"])
    print("The store's rounds include the mark after each record (store/watermark.py), a small commit in each copy.")
    print()


def listing(micropython):
    rows = run(micropython, "listing")
    base = [r for r in rows if r["what"].startswith("load one typical")][0]
    out = []
    for r in rows:
        out.append([r["what"], r["reads"], "%.1f" % (r["read_bytes"] / 1024.0),
                    "%.1f" % (r["us"] / 1000.0),
                    "%.1fx" % (r["read_bytes"] / float(base["read_bytes"])),
                    "%.1fx" % (r["us"] / float(base["us"]))])
    print("(b) 500 stored games (and one of 300 rounds) on an 8 MB emulated chip: listing against loading one")
    print(table(("what", "flash reads", "KB read", "ms (unix)", "vs load (KB)", "vs load (ms)"), out, "lrrrrr"))
    print("500 typical games do not fit a 2 MB chip (see (c)); the cost depends on the count, not the size.")
    print("The free-space walk is LittleFS's statvfs (it visits every file); the store does it once at boot")
    print("and again only after writes that take or free blocks.")
    print()


def capacity(micropython):
    r = run(micropython, "capacity")[0]
    print("(c) Capacity of the 2 MB file-system partition with typical games (4 seats, standard to 500)")
    print(table(("games stored", "warned from", "refused at", "free when refused"),
                [[r["games"], "game %s" % r["warned_at"], "game %d" % (r["games"] + 1), "%d KB" % r["free_kb"]]], "rrrr"))
    print("Each closed game's journal takes a 4 KB block (LittleFS stores only files under ~128 B inline);")
    print("the last %d KB stay reserved so the running game can always be saved and put away." % r["free_kb"])
    print()


def sweep(micropython, quick):
    rows = run(micropython, "sweep-quick" if quick else "sweep")
    out = []
    for r in rows:
        total = r["clean"] + r["torn"] + r["recovery_pairs"]
        out.append([r["evening"], r["steps"], r["ops"], r["clean"], r["torn"], r["recovery_pairs"] or "-",
                    total, r["kept_in_flight"], r["seconds"]])
    print("(d) Power-cut sweep: every program/erase of the evening cut (clean, then torn half-way)")
    print(table(("evening", "actions", "flash ops", "clean cuts", "torn cuts", "2nd cut in recovery",
                 "cut points", "in-flight kept", "s"), out, "lrrrrrrrr"))
    print("After each cut: boot, every acknowledged action present and equal to the model, the action in")
    print("flight wholly there or wholly absent, every game loads and agrees with its history entry, and")
    print("the next action succeeds. make test runs the short evening's sweep in full.")
    print()


def main():
    quick = "--quick" in sys.argv[1:]
    micropython = find_micropython()
    if micropython is None:
        print("storage_wear: micropython not found (make test installs it into .venv); nothing measured")
        raise NothingMeasured()
    print("Tafel game storage (firmware/store) on %s" % micropython)
    print()
    wear(micropython)
    listing(micropython)
    if not quick:
        capacity(micropython)
    sweep(micropython, quick)
    print("Reproduce: .venv/bin/python bench/storage_wear.py   (or: make bench)")
    return 0


if __name__ == "__main__":
    sys.exit(run_recorded(main, "storage_wear", measured_on=lambda: micropython_named(find_micropython())))
