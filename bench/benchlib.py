# What the benchmark scripts share: finding the tools, their versions, printing tables, keeping them in bench/results/.
import fnmatch
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys

# Printed by micropython itself: version, port and word size (the heap figures depend on it).
MPY_VERSION = (
    "import sys; v = sys.implementation.version; "
    "print('MicroPython %d.%d.%d%s, %s port, %d-bit' % (v[0], v[1], v[2], "
    "'-' + v[3] if len(v) > 3 and v[3] else '', sys.platform, 64 if sys.maxsize > 2 ** 32 else 32))"
)


def find_tool(name):
    """A tool next to this Python (the project's .venv/bin) first, else on the PATH; None if neither."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.isfile(beside) and os.access(beside, os.X_OK):
        return beside
    return shutil.which(name)


def tool_version(path, *args):
    """The first line a tool prints about itself, or '?'."""
    try:
        out = subprocess.run([path] + list(args), capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    text = (out.stdout or out.stderr).strip()
    return text.splitlines()[0] if text else "?"


def kb(n):
    return "%.1f KB" % (n / 1024.0)


def table(head, rows, align):
    """A Markdown table; `align` holds "l" or "r" per column."""
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]

    def line(cells):
        out = []
        for i, cell in enumerate(cells):
            cell = str(cell)
            out.append(cell.rjust(widths[i]) if align[i] == "r" else cell.ljust(widths[i]))
        return "| " + " | ".join(out) + " |"

    sep = "|" + "|".join(("-" * (w + 1) + ":") if a == "r" else ("-" * (w + 2)) for w, a in zip(widths, align)) + "|"
    return "\n".join([line(head), sep] + [line(r) for r in rows])


def callgrind_segments(stdout, base):
    """Instructions per named segment of a callgrind run made with
    --dump-before=mp_micropython_opt_level and --callgrind-out-file=BASE.

    The script marks a segment by calling micropython.opt_level() before and
    after it, and prints one line "segments NAME..." naming them in order.
    Dump k holds what ran since dump k-1, so segment i is dump 2i+2."""
    names = []
    for line in stdout.splitlines():
        if line.startswith("segments "):
            names = line.split()[1:]
    dumps = {}
    for path in glob.glob(base + ".*"):
        with open(path) as f:
            for line in f:
                if line.startswith("totals:") or line.startswith("summary:"):
                    dumps[int(path.rsplit(".", 1)[1])] = int(line.split()[1])
                    break
    return dict((name, dumps[2 * i + 2]) for i, name in enumerate(names))


# ---- results files: every bench's printed tables, kept in bench/results/ ----------------------
# (The code above this line is what the benches measure with: it counts among every run's measured
# files. The code below records and checks results, and does not: see measured_files.)

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
HEADER = "# "  # the first line of a results file: what ran, when, where, on what, at which commit, on which files
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What a run measures: the tracked files its figures depend on (the code that runs, the data it reads), as
# repository-relative paths. A folder ends in "/"; "*" stands for any part of a name within one folder; an
# entry starting with "!" leaves paths out again (the most specific entry matching a file decides). Every
# run measures its bench script and the part of this file above the results section too; Markdown never
# counts. The groups the runs share:
APP = ("firmware/", "lib/tafel/", "host_tools/simboard/")  # the device's program, the simulator's chip and
#     board parts, the core
SOURCE = ("!firmware/port/",)  # the app run from source: the image's build does not count
LANG = ("host_tools/lang.py", "host_tools/texts_*.py")  # the laptop's language and its catalogues (every message
#     of the launcher, the bundles and the link is said through them)
SIM = ("host_tools/__init__.py", "host_tools/app_files.py", "host_tools/exits.py", "host_tools/paths.py",
       "host_tools/sim/") + LANG  # the
#     simulator's launcher (tafel_host.sim: runtime, device process, serial line)
BUNDLE = ("host_tools/update/__init__.py", "host_tools/update/bundle_build.py", "host_tools/update/keys.py",
          "host_tools/update/refusals.py") + SIM  # bundles, signed
DEVICE_BUILD = ("firmware/port/", "!firmware/port/boards/", "!firmware/port/esp32/", "!firmware/port/_boot.py",
                "host_tools/update/appimage.py") + BUNDLE  # the 32-bit unix builds with the app frozen in (build.sh,
#     manifests, variant, overlay, the image's appimage.py), not the ESP32 image's; the MicroPython source is outside
PLAY = ("host_tools/cli.py", "tests/host/simlink.py", "tests/host/sim_games.py", "host_tools/link/__init__.py",
        "host_tools/link/simports.py")  # games played by key script (simlink's port file: link/simports.py)
LINK = tuple("host_tools/link/%s.py" % m for m in (
    "__init__", "cli", "client", "errors", "stream", "ports", "export", "export_state", "salvage", "storage_notes",
    "info", "simports", "export_xlsx")) + (
    "host_tools/rescue/__init__.py", "host_tools/rescue/link.py", "host_tools/exits.py", "host_tools/isotime.py",
    "host_tools/progress.py") + LANG  # the laptop's end (not link/roster_cli.py), in the laptop's language
UPDATE = ("host_tools/update/client.py", "host_tools/update/trial.py", "host_tools/update/bundle_file.py",
          "host_tools/update/serve.py")  # an update sent over USB and served over Wi-Fi
STORE = ("firmware/store/", "firmware/unload.py", "firmware/sim/blockdev.py",
         "firmware/sim/flashdev.py", "lib/tafel/", "!lib/tafel/bundle/")  # the store alone, on the emulated flash
LAPTOP = ("host_tools/",)  # the laptop's whole `tafel` command: tests/host/lockstep.py runs its export and update
#     in the launcher's process (tafel_host.cli, which imports every subcommand)
HEAP = APP + DEVICE_BUILD + PLAY + LINK + UPDATE + LAPTOP + (
    "tests/host/heap_scenarios.py", "tests/host/simupdate.py", "tests/host/lockstep.py", "tests/host/club_wire.py",
    "tests/host/club_fixtures.py", "tests/host/export_fixtures.py")  # (club_wire: the club scenario's hub)
#     make heap's scenarios, on the device build
MONO = "hardware/boards/esp32-devkitc-ssd1306.json"  # the default board
COLOUR = "hardware/boards/lilygo-tdisplay-st7789.json"
LARGE = "hardware/boards/esp32-devkitc-ili9341.json"

# The runs kept in bench/results/<name>.txt, in the order `make bench` makes them (quick ones first):
# name, the bench and its arguments, what it measures (above). A bench run with other arguments only prints.
RUNS = (
    ("key_counts", "key_counts.py", APP + SOURCE + ("bench/mpy/key_counts.py", MONO)),
    ("display_redraw", "display_redraw.py", (
        "firmware/drivers/ssd1306.py", "firmware/drivers/lcd565.py", "firmware/drivers/st7789.py",
        "firmware/ui/canvas.py", "lib/tafel/__init__.py", "lib/tafel/compat.py", MONO, COLOUR)),
    ("esp32_clock", "esp32_clock.py", DEVICE_BUILD + ("lib/tafel/__init__.py", "lib/tafel/version.py")),  # before
    #     the runs whose estimates take its factor (tafel_host's __init__ reads the core's version)
    ("rawscan_speed", "rawscan_speed.py", APP + DEVICE_BUILD + PLAY + ("bench/mpy/rawscan_cost.py", MONO,
                                                                       "bench/esp32_clock.py",
                                                                       "bench/results/esp32_clock.txt")),
    ("update_crypto", "update_crypto.py", ("firmware/", "!firmware/port/", "!firmware/sim/", "lib/tafel/") + BUNDLE + (
        "bench/mpy/update_verify.py", "bench/mpy/update_heap.py")),
    ("core_budget", "core_budget.py", ("lib/tafel/", "!lib/tafel/bundle/")),
    ("flash_read_speed", "flash_read_speed.py", APP + DEVICE_BUILD + PLAY + LINK + (MONO,)),
    ("image_size", "image_size.py", APP + DEVICE_BUILD),
    ("update_speed", "update_speed.py", APP + SOURCE + PLAY + LINK + BUNDLE + UPDATE + (
        "bench/mpy/update_stage_heap.py", MONO)),
    ("flash_damage", "flash_damage.py --zero", STORE + (
        "tests/firmware/damage.py", "tests/firmware/damage_judge.py", "tests/firmware/damage_trial.py")),
    ("export_speed", "export_speed.py", APP + DEVICE_BUILD + PLAY + LINK + (MONO,)),
    ("device_speed", "device_speed.py", HEAP + ("bench/mpy/firmware_game.py", "bench/mpy/export_cost.py", MONO,
                                                "bench/esp32_clock.py", "bench/results/esp32_clock.txt")),
    ("firmware_budget", "firmware_budget.py", APP + SOURCE + ("bench/mpy/firmware_game.py", MONO)),
    ("storage_wear", "storage_wear.py", STORE + ("bench/mpy/storage_bench.py", "tests/firmware/evening.py")),
    ("device_heap", "device_heap.py --host-scale", HEAP + (MONO, COLOUR, LARGE)),
    ("club_load", "club_load.py", LAPTOP + ("lib/tafel/", "!lib/tafel/bundle/", "bench/club_tables.py",
                                            "bench/club_year.py")),  # the hub: tafel club serve, the history
    ("device_heap-mpy", "device_heap.py --mpy --board esp32-devkitc-ssd1306 --only evening --no-search",
     HEAP + (MONO,)),
)


def recorded_as(bench, argv):
    """The results name of `bench/<bench>.py argv...`, or None when that run is not one of RUNS."""
    command = " ".join([bench + ".py"] + list(argv))
    return next((name for name, run, _ in RUNS if run == command), None)


class NothingMeasured(Exception):
    """Raised (after saying why) by a bench that cannot measure here: nothing is recorded."""


class _Tee:
    def __init__(self, out):
        self.out, self.kept = out, []

    def write(self, text):
        self.kept.append(text)
        return self.out.write(text)

    def flush(self):
        self.out.flush()

    def __getattr__(self, name):
        return getattr(self.out, name)


def machine():
    """This machine in a few words: system, release, architecture, CPU model and count."""
    import platform
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    if not cpu and sys.platform == "darwin":
        cpu = tool_version("sysctl", "-n", "machdep.cpu.brand_string")
    return "%s %s %s, %s, %d CPUs" % (platform.system(), platform.release(), platform.machine(), cpu or "CPU ?",
                                      os.cpu_count() or 0)


def micropython_named(path):
    """'MicroPython 1.28.0, linux port, 32-bit (build/...)': the interpreter a figure comes from."""
    if not path:
        return "no MicroPython"
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shown = os.path.relpath(str(path), repo) if str(path).startswith(repo) else str(path)
    return "%s (%s)" % (tool_version(str(path), "-c", MPY_VERSION), shown)


def run_recorded(main, name, measured_on=None, argv=None):
    """Run bench/<name>.py's main() with what it prints also written to bench/results/<run>.txt.

    Only the runs in RUNS are kept; a run with other arguments (a partial or ad-hoc one) only
    prints. measured_on says on which interpreter(s) the figures were measured (a string, or a function
    called after the run). The file's first line holds the command, the date, this machine,
    the interpreters, the exit status, the commit and the digest of the files the run measures
    (taken before main() runs; see provenance); nothing is written if main() raises or measures nothing."""
    import datetime
    argv = sys.argv[1:] if argv is None else argv
    target = recorded_as(name, argv)
    before = provenance(target) if target else ""
    tee = _Tee(sys.stdout)
    sys.stdout = tee
    try:
        status = main()
    except NothingMeasured:
        return 0
    finally:
        sys.stdout = tee.out
    status = status or 0
    if target is None:
        print("(not recorded in bench/results/: only %s are)" % ", ".join(
            "`bench/%s`" % run for _, run, _ in RUNS if run.split()[0] == name + ".py"), file=sys.stderr)
        return status
    if provenance(target).rsplit(" | ", 1)[-1] != before.rsplit(" | ", 1)[-1]:
        print("(files this run measures changed while it ran: the results are recorded as measured on the files "
              "as they were when it started, so tests/host/test_figures.py calls them stale)", file=sys.stderr)
    on = measured_on() if callable(measured_on) else measured_on
    command = " ".join([".venv/bin/python", "bench/%s.py" % name] + list(argv))
    header = "%s%s | %s | %s | CPython %s%s | exit %d%s" % (
        HEADER, command, datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), machine(),
        sys.version.split()[0], "; measured on " + on if on else "", status, before)
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, target + ".txt")
    with open(path + ".tmp", "w") as f:
        f.write(header + "\n" + "".join(tee.kept).rstrip("\n") + "\n")
    os.replace(path + ".tmp", path)
    print("(recorded in %s)" % os.path.relpath(path, os.getcwd()), file=sys.stderr)
    return status


# ---- what a results file was measured on: the commit, and a digest of the files the run measures ----------
#
# The header ends " | commit <git describe --always --dirty> <full hash> | measured paths sha256:<digest>":
# the digest is SHA-256 over the lines "<path> <git blob id>\n", sorted by path, of the tracked files the
# run measures (measures(): git ls-files, then the entries' rules), each hashed from the working tree as git
# hashes a blob. So it says what was measured whether or not it was committed: a change measured before
# it was committed is not a new one once it is. Untracked files do not count. A results file is stale
# when the digest of those files now differs (stale()).

MEASURING_PART_ENDS = b"\n# ---- results files"  # bench/benchlib.py counts up to this line
DIGEST = re.compile(r" \| commit (\S+) (\S+) \| measured paths sha256:([0-9a-f]{64})$")


def measures(name):
    """The measured paths of run NAME: its bench script, this file's measuring part and its entries in RUNS."""
    run = next(r for r in RUNS if r[0] == name)
    return ("bench/" + run[1].split()[0], "bench/benchlib.py") + tuple(run[2])


def _matches(path, entry):
    if entry.endswith("/"):
        return path.startswith(entry)
    if "*" in entry:
        return path.count("/") == entry.count("/") and fnmatch.fnmatchcase(path, entry)
    return path == entry


def counts(path, entries):
    """Whether a repository path is among the files the entries measure (the most specific matching
    entry decides, an exclusion on a tie; Markdown never counts)."""
    if path.endswith(".md"):
        return False
    found = [(len(e.lstrip("!")), e.startswith("!")) for e in entries if _matches(path, e.lstrip("!"))]
    return bool(found) and not max(found)[1]


def git(root, *args):
    """git's output (bytes), or None where git fails (no git, not a checkout, an unknown commit)."""
    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", GIT_LITERAL_PATHSPECS="1", LC_ALL="C")
    try:
        out = subprocess.run(["git", "-C", root] + list(args), capture_output=True, env=env, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def blob_id(path, data):
    """The git blob id of a file's content (bench/benchlib.py: of its measuring part alone)."""
    if path == "bench/benchlib.py":
        cut = data.find(MEASURING_PART_ENDS)
        data = data if cut < 0 else data[:cut + 1]
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class WorkTree:
    """The tracked files of a checkout as they are in its working tree (None for paths: not a git checkout)."""

    def __init__(self, root=ROOT):
        self.root, self.ids = root, {}
        out = git(root, "ls-files", "-z")
        self.paths = None if out is None else sorted(set(p for p in out.decode("utf-8", "surrogateescape")
                                                         .split("\0") if p))

    def blob(self, path):
        if path not in self.ids:
            full = os.path.join(self.root, path)
            if os.path.islink(full):
                data = os.readlink(full).encode("utf-8", "surrogateescape")
            elif os.path.isfile(full):
                with open(full, "rb") as f:
                    data = f.read()
            else:
                data = None  # deleted from the working tree (or a submodule)
            self.ids[path] = "deleted" if data is None else blob_id(path, data)
        return self.ids[path]


class CommitTree:
    """The files of a commit, as git holds them (None for paths: no such commit here)."""

    def __init__(self, commit, root=ROOT):
        self.root, self.commit, self.ids = root, commit, {}
        out = git(root, "ls-tree", "-r", "-z", "--full-tree", commit)
        if out is None:
            self.paths = None
            return
        for item in out.decode("utf-8", "surrogateescape").split("\0"):
            if item:
                meta, path = item.split("\t", 1)
                self.ids[path] = meta.split()[2]
        self.paths = sorted(self.ids)
        if "bench/benchlib.py" in self.ids:
            data = git(root, "cat-file", "blob", self.ids["bench/benchlib.py"])
            self.ids["bench/benchlib.py"] = blob_id("bench/benchlib.py", data or b"")

    def blob(self, path):
        return self.ids.get(path, "deleted")


def measured_files(name, tree):
    """{path: blob id} of the files run NAME measures, in a WorkTree or CommitTree."""
    entries = measures(name)
    return dict((path, tree.blob(path)) for path in tree.paths if counts(path, entries))


def digest(files):
    return hashlib.sha256("".join("%s %s\n" % (path, files[path]) for path in sorted(files)).encode(
        "utf-8", "surrogateescape")).hexdigest()


def provenance(name, root=ROOT):
    """The header's end for run NAME measured now: ' | commit <describe> <hash> | measured paths sha256:<hex>'."""
    tree = WorkTree(root)
    if tree.paths is None:
        return " | commit ? ? | measured paths ? (not a git checkout)"
    described = (git(root, "describe", "--always", "--dirty") or b"?").decode().strip()
    full = (git(root, "rev-parse", "HEAD") or b"?").decode().strip()
    return " | commit %s %s | measured paths sha256:%s" % (described, full, digest(measured_files(name, tree)))


def rerun(name):
    run = dict((n, r) for n, r, _ in RUNS)[name]
    return "re-run `.venv/bin/python bench/%s` (or make bench), then make figures" % run


def stale(name, root=ROOT, tree=None, commits=None):
    """None when bench/results/NAME.txt was measured on the files its run measures as they are now in the
    working tree; else why not: the results file, the files changed since (with the commits after the
    recorded one that changed them, or 'uncommitted'), the command to re-run. tree: a WorkTree to share
    between calls; commits: a dict to keep CommitTrees in."""
    tree = tree or WorkTree(root)
    commits = {} if commits is None else commits
    path = os.path.join(root, "bench", "results", name + ".txt")
    shown = os.path.relpath(path, root)
    with open(path) as f:
        header = f.readline().rstrip("\n")
    found = DIGEST.search(header)
    if found is None:
        return "%s records no commit and digest of the files it measures (made before results headers had them, " \
               "or outside a git checkout): %s" % (shown, rerun(name))
    described, commit, recorded = found.groups()
    now = measured_files(name, tree)
    if digest(now) == recorded:
        return None
    date = header[len(HEADER):].split(" | ")[1]
    lines = ["%s is stale: measured at %s on %s, and the files it measures have changed since:"
             % (shown, described, date)]
    for key in (commit, "HEAD"):
        if key not in commits:
            commits[key] = CommitTree(key, root)
    then, head = commits[commit], commits["HEAD"]
    if then.paths is None:
        lines.append("  (commit %s is not in this repository: which files changed is not known)" % commit)
    else:
        old = measured_files(name, then)
        changed = sorted(p for p in set(old) | set(now) if old.get(p) != now.get(p))
        by = {}
        if changed and head.paths is not None:
            log = git(root, "log", "--no-renames", "--format=%x01%h", "--name-only", commit + "..HEAD", "--",
                      *changed) or b""
            for entry in log.decode("utf-8", "surrogateescape").split("\x01")[1:]:
                short, *files = entry.split("\n")
                for f in files:
                    if f:
                        by.setdefault(f, []).append(short)
        width = max([len(p) for p in changed] or [0])
        for p in changed[:20]:
            what = "added" if p not in old else ("removed" if now.get(p, "deleted") == "deleted" else "changed")
            where = ["in " + ", ".join(reversed(by[p]))] if p in by else []
            if head.paths is not None and head.blob(p) != now.get(p, "deleted"):
                where.append("uncommitted")
            lines.append(("  %s  %s %s" % (p.ljust(width), what, " and ".join(where))).rstrip())
        if len(changed) > 20:
            lines.append("  ... and %d more" % (len(changed) - 20))
        if digest(old) != recorded:
            lines.append("  (it was measured with uncommitted changes to them: some of these may be changes it measured)")
        if not changed:
            lines.append("  (none against commit %s: it was measured with uncommitted changes since undone)" % commit)
    lines.append(rerun(name))
    return "\n".join(lines)


if __name__ == "__main__":
    # `python bench/benchlib.py --runs`: the runs `make bench` makes, one a line (bench and arguments).
    # `python bench/benchlib.py --stale`: the results files measured on files that have changed since.
    if sys.argv[1:] == ["--runs"]:
        print("\n".join(run for _, run, _ in RUNS))
    elif sys.argv[1:] == ["--stale"]:
        tree, kept, found = WorkTree(), {}, 0
        for name, _, _ in RUNS:
            if os.path.isfile(os.path.join(RESULTS, name + ".txt")):
                why = stale(name, tree=tree, commits=kept)
                if why:
                    found += 1
                    print(why + "\n")
        sys.exit(1 if found else 0)
    else:
        sys.exit("usage: benchlib.py --runs | --stale")
