# What the benchmark scripts share: finding the tools, their versions, printing tables, keeping them in bench/results/.
import glob
import os
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

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
HEADER = "# "  # the first line of a results file: what ran, when, where, on what

# The runs kept in bench/results/<name>.txt, in the order `make bench` makes them (quick ones first):
# name, then the bench and its arguments. A bench run with other arguments only prints.
RUNS = (
    ("key_counts", "key_counts.py"),
    ("display_redraw", "display_redraw.py"),
    ("rawscan_speed", "rawscan_speed.py"),
    ("update_crypto", "update_crypto.py"),
    ("core_budget", "core_budget.py"),
    ("flash_read_speed", "flash_read_speed.py"),
    ("image_size", "image_size.py"),
    ("update_speed", "update_speed.py"),
    ("flash_damage", "flash_damage.py --zero"),
    ("export_speed", "export_speed.py"),
    ("device_speed", "device_speed.py"),
    ("firmware_budget", "firmware_budget.py"),
    ("storage_wear", "storage_wear.py"),
    ("device_heap", "device_heap.py"),
    ("device_heap-colour", "device_heap.py --board lilygo-tdisplay-st7789 --no-search"),
    ("device_heap-mpy", "device_heap.py --mpy --only evening --no-search"),
)


def recorded_as(bench, argv):
    """The results name of `bench/<bench>.py argv...`, or None when that run is not one of RUNS."""
    command = " ".join([bench + ".py"] + list(argv))
    return next((name for name, run in RUNS if run == command), None)


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
    the interpreters and the exit status; nothing is written if main() raises or measures nothing."""
    import datetime
    argv = sys.argv[1:] if argv is None else argv
    target = recorded_as(name, argv)
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
            "`bench/%s`" % run for _, run in RUNS if run.split()[0] == name + ".py"), file=sys.stderr)
        return status
    on = measured_on() if callable(measured_on) else measured_on
    command = " ".join([".venv/bin/python", "bench/%s.py" % name] + list(argv))
    header = "%s%s | %s | %s | CPython %s%s | exit %d" % (
        HEADER, command, datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), machine(),
        sys.version.split()[0], "; measured on " + on if on else "", status)
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, target + ".txt")
    with open(path + ".tmp", "w") as f:
        f.write(header + "\n" + "".join(tee.kept).rstrip("\n") + "\n")
    os.replace(path + ".tmp", path)
    print("(recorded in %s)" % os.path.relpath(path, os.getcwd()), file=sys.stderr)
    return status


if __name__ == "__main__":
    # `python bench/benchlib.py --runs`: the runs `make bench` makes, one a line (bench and arguments).
    if sys.argv[1:] == ["--runs"]:
        print("\n".join(run for _, run in RUNS))
    else:
        sys.exit("usage: benchlib.py --runs")
