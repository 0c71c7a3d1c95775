# What the benchmark scripts share: finding the tools, their versions, and printing tables.
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
