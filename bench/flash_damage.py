"""Flash damage campaign (issue 13): what one damaged block does to an evening's games.

    .venv/bin/python bench/flash_damage.py [--seed N] [--flips N] [--zero] [--save-dir DIR]
    .venv/bin/micropython -X heapsize=8M bench/flash_damage.py [the same options]

Plays the issue's evening once on LittleFS over the emulated 2 MB flash (two
finished games, one paused, one running with 25 rounds; tests/firmware/damage.py),
then for every block the file system has written: the block erased, --flips
single-bit flips at seeded positions inside its written bytes (default 8),
and with --zero the block zeroed; then damage in both copies at once (for every
pair of blocks holding the same files in /data and /twin: 2, 4 and 8 flips and
both blocks zeroed). Each trial (tests/firmware/damage_trial.py) mounts a fresh chip over the
damaged image, boots the store, judges every game (kept, rebuilt, reported
lost, silent, wrong; tests/firmware/damage_judge.py), plays on (a round for
the running game, a new game of two rounds), reboots and judges again.
Prints the table, every trial that lost or broke something, and what the
boot check costs. --save-dir writes every unmountable image there as
<block>-<damage>.img (the raw 2 MB, erased blocks as 0xFF) for `tafel rescue`.
Under CPython this re-runs itself on the MicroPython unix port (8 MB heap).
"""
import sys

HEAP = "8M"
DEFAULT_FLIPS = 8


def _options(argv):
    opts = {"seed": 13, "flips": DEFAULT_FLIPS, "zero": False, "save_dir": None}
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--zero":
            opts["zero"] = True
        elif a in ("--seed", "--flips", "--save-dir") and args:
            v = args.pop(0)
            opts[a[2:].replace("-", "_")] = v if a == "--save-dir" else int(v)
        else:
            raise SystemExit("usage: flash_damage.py [--seed N] [--flips N] [--zero] [--save-dir DIR]")
    return opts


# ---- CPython: start MicroPython ------------------------------------------------------


def _host(argv):
    import os
    import subprocess

    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    import benchlib

    opts = _options(argv)  # refuse bad options before starting anything
    repo = os.path.dirname(here)
    mpy = benchlib.find_tool("micropython")
    if mpy is None:
        print("flash_damage: micropython not found (make test installs it into .venv); nothing measured")
        raise benchlib.NothingMeasured()
    args = list(argv)
    if opts["save_dir"]:
        os.makedirs(opts["save_dir"], exist_ok=True)
        i = args.index("--save-dir")
        args[i + 1] = os.path.abspath(opts["save_dir"])
    head = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain", "firmware/store"], capture_output=True, text=True)
    print("Flash damage on %s (%s); firmware/store at %s%s" % (
        mpy, benchlib.tool_version(mpy, "-c", benchlib.MPY_VERSION), head.stdout.strip() or "?",
        " with uncommitted changes" if dirty.stdout.strip() else ""))
    # The campaign's output passes through this process, so that the results file gets it too.
    child = subprocess.Popen([mpy, "-X", "heapsize=" + HEAP, os.path.abspath(__file__), "--repo", repo] + args,
                             stdout=subprocess.PIPE, text=True)
    for line in child.stdout:
        print(line, end="", flush=True)
    return child.wait()


# ---- MicroPython: the campaign ----------------------------------------------------------


def _device(argv):
    import os
    import time

    args = list(argv)
    repo = None
    if args[:1] == ["--repo"]:
        repo = args[1]
        args = args[2:]
    if repo is None:
        path = __file__ if __file__.startswith("/") else os.getcwd() + "/" + __file__
        repo = path.rsplit("/", 2)[0]
    for sub in ("/tests/firmware", "/firmware", "/lib"):
        sys.path.insert(0, repo + sub)
    opts = _options(args)
    import damage
    import damage_judge as judge
    import damage_trial

    t = time.ticks_ms()
    ev = damage.Evening()
    boot_ms = ev.boot_ms()
    kinds = ("flip", "erase", "zero") if opts["zero"] else ("flip", "erase")
    saved = []

    def each(trial):
        if trial.outcome == "unmountable" and opts["save_dir"]:
            path = "%s/%s.img" % (opts["save_dir"], trial.name())
            damage.save_image(trial.image, path)
            saved.append(path)

    tally = damage_trial.campaign(ev, opts["flips"], opts["seed"], kinds, each)
    secs = time.ticks_diff(time.ticks_ms(), t) / 1000.0
    print("The evening: games %s; %d blocks of 4 KB written (%s); seed %d, %d flips a block%s; %d trials in %.0f s"
          % (", ".join("%s %d records" % (gm.label, len(gm.records)) for gm in ev.games), len(ev.blocks),
             _ranges(ev.blocks), opts["seed"], opts["flips"], ", blocks zeroed too" if opts["zero"] else "",
             tally.total()["trials"], secs))
    print("Per trial: 4 games of the evening + 1 started after the damage (N), judged after boot and after a reboot.")
    print()
    print(judge.table(tally.rows()))
    print()
    bad = judge.failures(tally.failing, ev.describe)
    print("Trials that lost, broke or could not mount (%d lines):" % len(bad) if bad else "No trial lost a game, raised or failed to mount.")
    for line in bad:
        print("  " + line)
    if saved:
        print("Unmountable images written: %d, in %s" % (len(saved), opts["save_dir"]))
    print()
    t = time.ticks_ms()
    pairs = ev.counterparts()
    multi = damage_trial.multi_campaign(ev, opts["seed"], pairs=pairs, each=each)
    print("Damage in both copies at once: for each of %d pairs of blocks holding the same files in /data and"
          " /twin (%s),\n2, 4 and 8 flips (half in each block, seed %d) and both blocks zeroed; %d trials in %.0f s"
          % (len(pairs), ", ".join("%d+%d" % p for p in pairs), opts["seed"], multi.total()["trials"],
             time.ticks_diff(time.ticks_ms(), t) / 1000.0))
    print("A put-away game's damage shows when it is read (opened in the history, exported): the trials open"
          " every game.")
    print()
    print(judge.table(multi.rows()))
    print()
    quiet = [line for line in judge.failures(multi.failing, ev.describe) if " reported: " not in line]
    print("Silent, wrong, crashed or unmountable with damage in both copies (%d lines):" % len(quiet) if quiet
          else "No damage in both copies went unsaid, gave a wrong score, crashed or left the flash unmountable.")
    for line in quiet:
        print("  " + line)
    print()
    print("boot check after the evening: %d ms on this interpreter (store.boot(), undamaged, best of 3)" % boot_ms)
    print("Reproduce: .venv/bin/python bench/flash_damage.py --seed %d --flips %d%s"
          % (opts["seed"], opts["flips"], " --zero" if opts["zero"] else ""))
    return 0


def _ranges(blocks):
    out = []
    for b in blocks:
        if out and out[-1][1] == b - 1:
            out[-1][1] = b
        else:
            out.append([b, b])
    return ", ".join("%d" % a if a == z else "%d-%d" % (a, z) for a, z in out)


if __name__ == "__main__":
    if sys.implementation.name == "micropython":
        sys.exit(_device(sys.argv[1:]))
    import os

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import benchlib

    sys.exit(benchlib.run_recorded(lambda: _host(sys.argv[1:]), "flash_damage",
                                   measured_on=lambda: benchlib.micropython_named(benchlib.find_tool("micropython"))))
