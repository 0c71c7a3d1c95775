"""The figures in README.md and docs/*.md, written from the benches' results files: make figures.

    .venv/bin/python bench/figures.py            # rewrite every figure block from bench/results/
    .venv/bin/python bench/figures.py --check    # write nothing; exit 1 if a block is stale

A figure block in a document is generated text between two markers:

    <!-- figures:NAME -->
    ...
    <!-- /figures -->

bench/figure_blocks.py says what block NAME holds, made from the results files
bench/results/<run>.txt that every bench writes when it runs (bench/benchlib.py: the printed
tables under a header line with the command, date, machine, interpreter, commit and a digest of
the files the run measures). So a figure in the documents is always one a bench printed;
tests/host/test_figures.py fails when a block differs from what the results give, when a
results file it needs is missing, or when one was measured on files that have changed since.
"""
import glob
import os
import re
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
import benchlib  # noqa: E402

ROOT = os.path.dirname(BENCH)
RESULTS = os.path.join(BENCH, "results")
BLOCK = re.compile(r"(<!-- figures:([\w-]+) -->\n)(.*?)(<!-- /figures -->)", re.S)


class MissingResults(Exception):
    """A block needs a results file that is not there, or a figure the file does not hold."""


class Table:
    """A Markdown table as a bench printed it: its lines, head and rows of cells."""

    def __init__(self, lines, title):
        self.lines, self.title = lines, title
        cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
        self.head, self.rows = cells[0], cells[2:]

    @property
    def text(self):
        return "\n".join(self.lines)

    def row(self, first):
        """The row whose first cell starts with `first`."""
        for row in self.rows:
            if row[0].startswith(first):
                return row
        raise MissingResults("no row %r in the table %r" % (first, self.title))

    def cell(self, first, column):
        """The cell in row `first` under the column whose head starts with `column`."""
        for i, head in enumerate(self.head):
            if head.startswith(column):
                return self.row(first)[i]
        raise MissingResults("no column %r in the table %r" % (column, self.title))


class Results:
    """One results file: bench/results/<name>.txt."""

    def __init__(self, name):
        self.name = name
        self.path = os.path.join(RESULTS, name + ".txt")
        if not os.path.isfile(self.path):
            run = {n: r for n, r, _ in benchlib.RUNS}.get(name, "? (no such run in bench/benchlib.py RUNS)")
            raise MissingResults("bench/results/%s.txt is missing: run `.venv/bin/python bench/%s` (or make bench)"
                                 % (name, run))
        with open(self.path) as f:
            self.header, _, self.body = f.read().partition("\n")
        fields = self.header[2:].split(" | ")
        self.command, self.date = fields[0], fields[1] if len(fields) > 1 else "?"
        self.seeded = next((f for f in fields if f.startswith("seeded from")), None)
        on = re.search(r"measured on (.*?)(?: \| |$)", self.header)
        self.measured_on = on.group(1) if on else ""

    def find(self, pattern, group=1):
        """The text a regular expression finds in the file's body (group 1 by default)."""
        found = re.search(pattern, self.body, re.M)
        if found is None:
            raise MissingResults("bench/results/%s.txt holds no %r" % (self.name, pattern))
        return found.group(group) if isinstance(group, int) else found.groups()

    def tables(self):
        out, lines, title = [], self.body.splitlines(), ""
        i = 0
        def heads(k):  # a table starts at line k: its head, then the rule under it
            return lines[k].startswith("|") and k + 1 < len(lines) and re.match(r"^\|[-:| ]+\|$", lines[k + 1])

        while i < len(lines):
            if heads(i):
                j = i + 2
                while j < len(lines) and lines[j].startswith("|") and not heads(j):
                    j += 1
                out.append(Table(lines[i:j], title))
                i = j
                continue
            if lines[i].strip():
                title = lines[i]
            i += 1
        return out

    def table(self, title):
        """The Markdown table whose title line (the last text above it) or first head cell starts with `title`."""
        for t in self.tables():
            if t.title.startswith(title) or t.head[0].startswith(title):
                return t
        raise MissingResults("bench/results/%s.txt holds no table %r" % (self.name, title))

    def columns(self, first_head):
        """A table printed in aligned columns (two spaces or more between cells), from its head line on."""
        lines = self.body.splitlines()
        for i, line in enumerate(lines):
            if line.startswith(first_head):
                rows = []
                for row in lines[i:]:
                    if not row.strip():
                        break
                    rows.append(re.split(r"\s{2,}", row.strip()))
                return rows
        raise MissingResults("bench/results/%s.txt holds no table starting %r" % (self.name, first_head))

    def fail(self, why):
        """A block cannot be made from this file: why (MissingResults, naming the file)."""
        raise MissingResults("bench/results/%s.txt %s" % (self.name, why))

    def source(self):
        """Where a block's figures come from, for its last line."""
        if self.seeded:
            return "`%s`: %s" % (self.command, self.seeded)
        return "`%s`, %s" % (self.command, self.date)


class Loader:
    """Results files by name, each read once; remembers which ones a block used."""

    def __init__(self):
        self.cache, self.used = {}, []

    def __call__(self, name):
        if name not in self.cache:
            self.cache[name] = Results(name)
        if name not in self.used:
            self.used.append(name)
        return self.cache[name]


def documents():
    return [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def render(name, load=None):
    """The text block NAME should hold (ends with a newline)."""
    import figure_blocks
    if name not in figure_blocks.BLOCKS:
        raise MissingResults("no figure block %r in bench/figure_blocks.py" % name)
    text = figure_blocks.BLOCKS[name](load or Loader())
    return text.rstrip("\n") + "\n"


def blocks(path):
    """[(name, text now between its markers)] of one document."""
    with open(path) as f:
        return [(m.group(2), m.group(3)) for m in BLOCK.finditer(f.read())]


def update(path, check):
    """Rewrite (or with check, compare) one document's blocks; returns the problems found."""
    with open(path) as f:
        text = f.read()
    problems = []

    def fill(match):
        name = match.group(2)
        try:
            want = render(name)
        except (MissingResults, LookupError, ValueError, AttributeError, TypeError) as err:  # results not as expected
            why = err if isinstance(err, MissingResults) else "%s %s in bench/figure_*.py" % (
                type(err).__name__, err)
            problems.append("%s, block %s: %s" % (os.path.relpath(path, ROOT), name, why))
            return match.group(0)
        if want != match.group(3) and check:
            problems.append("%s, block %s: differs from bench/results/ (make figures)" % (
                os.path.relpath(path, ROOT), name))
        return match.group(1) + want + match.group(4)

    new = BLOCK.sub(fill, text)
    if not check and new != text:
        with open(path, "w") as f:
            f.write(new)
    return problems


def main(argv):
    check = "--check" in argv
    problems = []
    for path in documents():
        problems += update(path, check)
    for line in problems:
        print(line, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
