# The figures in README.md and docs/*.md are the benches' own: each figure block holds exactly what
# bench/figures.py makes from bench/results/, every bench's kept run has its results file there, and each
# results file was measured on the files its run measures as they are now (benchlib.RUNS, benchlib.stale).
import ast
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from needs import skip_unless

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
spec = importlib.util.spec_from_file_location("figures", ROOT / "bench" / "figures.py")
figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(figures)
import benchlib  # noqa: E402  (bench/, put on the path by figures)

BLOCKS = [(path, name, text) for path in figures.documents() for name, text in figures.blocks(path)]


def test_the_readme_and_the_docs_have_figure_blocks():
    documents = {os.path.basename(path) for path, _, _ in BLOCKS}
    assert "README.md" in documents and len(documents) > 1


@pytest.mark.parametrize("path, name, text", BLOCKS,
                         ids=["%s:%s" % (os.path.basename(p), n) for p, n, _ in BLOCKS])
def test_a_figure_block_holds_what_the_results_files_give(path, name, text):
    try:
        want = figures.render(name)
    except figures.MissingResults as err:
        pytest.fail("%s, block %s: %s" % (os.path.relpath(path, ROOT), name, err))
    assert text == want, ("%s, block %s is not what bench/results/ gives: run `make figures` after a bench run"
                          % (os.path.relpath(path, ROOT), name))


def test_every_kept_run_has_its_results_file():
    missing = ["bench/%s -> bench/results/%s.txt" % (run, name) for name, run, _ in benchlib.RUNS
               if not (ROOT / "bench" / "results" / (name + ".txt")).is_file()]
    assert not missing, "run them (make bench): " + ", ".join(missing)


def test_every_results_file_is_a_kept_run():
    kept = {name + ".txt" for name, _, _ in benchlib.RUNS}
    orphans = sorted(p.name for p in (ROOT / "bench" / "results").glob("*.txt") if p.name not in kept)
    assert not orphans, "bench/results/ holds files of no run in bench/benchlib.py RUNS (remove them): " + \
        ", ".join(orphans)


def test_make_heap_kept_every_board_and_scenario():
    # The README's device-heap tables and summary rows come per board and per scenario from this run's file.
    import heap_scenarios

    if not (ROOT / "bench" / "results" / "device_heap.txt").is_file():
        pytest.skip("no results file (test_every_kept_run_has_its_results_file)")
    results = figures.Results("device_heap")
    tables = [t for t in results.tables() if t.head[0] == "scenario"]
    assert [t.title.split(":")[0] for t in tables] == list(heap_scenarios.BOARDS), [t.title for t in tables]
    for t in tables:
        assert [row[0] for row in t.rows] == list(heap_scenarios.SCENARIOS), (t.title, t.rows)
    assert results.table("Host scale").rows, "the --host-scale run's table of host/device ratios"


def test_every_bench_is_a_kept_run():
    benches = {p.name for p in (ROOT / "bench").glob("*.py") if "run_recorded(" in p.read_text()}
    runs = {run.split()[0] for _, run, _ in benchlib.RUNS}
    assert benches - {"benchlib.py"} == runs


def test_a_results_file_starts_with_what_ran_when_where_and_on_what():
    for name, run, _ in benchlib.RUNS:
        path = ROOT / "bench" / "results" / (name + ".txt")
        if not path.is_file():
            continue
        header = path.read_text().splitlines()[0]
        fields = header[2:].split(" | ")
        assert header.startswith("# .venv/bin/python bench/" + run + " | "), (name, header)
        assert "CPU" in fields[2] and "CPython" in fields[3] and fields[4].startswith("exit "), (name, header)
        # then " | commit ... | measured paths sha256:...": test_a_results_file_was_measured_on_the_files_as_they_are


CHECKOUT = benchlib.WorkTree(str(ROOT))  # the tracked files, listed once for all runs
COMMITS = {}


@pytest.mark.parametrize("name", [name for name, _, _ in benchlib.RUNS])
def test_a_results_file_was_measured_on_the_files_as_they_are(name):
    skip_unless(CHECKOUT.paths is not None, "a git checkout (which files a run measured)", "run it in a clone")
    if not (ROOT / "bench" / "results" / (name + ".txt")).is_file():
        pytest.skip("no results file (test_every_kept_run_has_its_results_file)")
    why = benchlib.stale(name, str(ROOT), CHECKOUT, COMMITS)
    assert why is None, why


def test_every_measured_path_is_there():
    for name, _, _ in benchlib.RUNS:
        for entry in benchlib.measures(name):
            entry = entry.lstrip("!")
            if entry.startswith("bench/results/"):
                continue  # another run's figures, which this one reads: made by that run
            assert (ROOT / entry).exists() or (entry.count("*") == 1 and list(ROOT.glob(entry))), (
                "%s: bench/benchlib.py RUNS names %s, which is not in this checkout" % (name, entry))


# ---- the measured paths hold the code each bench runs: its imports, and those of its MicroPython scripts ----

HOST_PATH = [ROOT / "bench", ROOT / "tests" / "host", ROOT / "lib"]  # and tafel_host: host_tools/
DEVICE_PATH = [ROOT / "firmware", ROOT / "lib", ROOT / "tests" / "firmware"]
# and of host_tools/ (last on MicroPython's path) the board around the chip, simboard, which
# sim.simmachine.from_profile builds in the same process
DEVICE_ALSO = {"simboard": ROOT / "host_tools"}
_PARSED = {}


def _module(name, path):
    """The file (or namespace package folder) a module name comes from, or None (the standard library's)."""
    parts = name.split(".")
    if parts[0] == "tafel_host":
        bases, parts = [ROOT / "host_tools"], parts[1:]
    elif path is DEVICE_PATH and parts[0] in DEVICE_ALSO:
        bases = path + [DEVICE_ALSO[parts[0]]]
    else:
        bases = path
    for base in bases:
        where = base.joinpath(*parts)
        for candidate in (where.with_suffix(".py") if parts else None, where / "__init__.py"):
            if candidate is not None and candidate.is_file():
                return candidate
        if parts and where.is_dir():
            return where
    return None


def _imports(path):
    """(module names, (package folder, relative names)) a file imports anywhere in it."""
    if path not in _PARSED:
        try:
            tree = ast.parse(path.read_text(), str(path))
        except (SyntaxError, UnicodeDecodeError):
            tree = ast.Module(body=[], type_ignores=[])
        names, relative = [], []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level:
                folder = path.parent
                for _ in range(node.level - 1):
                    folder = folder.parent
                base = [node.module] if node.module else []
                relative += [(folder, ".".join(base + [alias.name])) for alias in node.names]
                relative += [(folder, node.module)] if node.module else []
            elif isinstance(node, ast.ImportFrom):
                names += [node.module] + [node.module + "." + alias.name for alias in node.names]
        _PARSED[path] = names, relative
    return _PARSED[path]


def _closure(script, path):
    """Every repository file the script imports, directly or not (statically: names in import statements)."""
    seen, todo = set(), [script]
    while todo:
        f = todo.pop()
        if f in seen or not f.is_file():
            continue
        seen.add(f)
        names, relative = _imports(f)
        for name in names:
            parts = name.split(".")
            found = [_module(".".join(parts[:i]), path) for i in range(1, len(parts) + 1)]
            todo += [m / "__init__.py" if m.is_dir() else m for m in found if m is not None]
        for folder, name in relative:
            m = _module(name, [folder])
            todo += [m / "__init__.py" if m.is_dir() else m] if m is not None else []
    return {str(f.relative_to(ROOT)) for f in seen if f.is_file()}


def _device_scripts(bench):
    """The bench's scripts that run on MicroPython: bench/mpy/*.py it names, itself where it re-runs there."""
    text = bench.read_text()
    names = set(re.findall(r"mpy/(\w+)\.py", text)) | set(re.findall(r"\"mpy\", \"(\w+)\.py\"", text))
    scripts = [ROOT / "bench" / "mpy" / (n + ".py") for n in sorted(names)]
    return scripts + ([bench] if 'sys.implementation.name == "micropython"' in text else [])


@pytest.mark.parametrize("name", [name for name, _, _ in benchlib.RUNS])
def test_a_run_measures_the_code_its_bench_imports(name):
    run = dict((n, r) for n, r, _ in benchlib.RUNS)[name]
    bench = ROOT / "bench" / run.split()[0]
    used = _closure(bench, HOST_PATH)
    for script in _device_scripts(bench):
        used |= _closure(script, DEVICE_PATH)
    entries = benchlib.measures(name)
    missed = sorted(p for p in used if not benchlib.counts(p, entries) and not p.startswith("bench/fig"))
    assert not missed, "bench/%s runs %s, which its entry in bench/benchlib.py RUNS does not measure" % (
        run, ", ".join(missed))


# ---- the staleness rule itself, on a repository of its own ------------------------------------------------


def _git(root, *args):
    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org",
                    "-c", "commit.gpgsign=false"] + list(args), check=True, capture_output=True)


def _results(root, name):
    path = root / "bench" / "results" / (name + ".txt")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# .venv/bin/python bench/core_budget.py | 2026-12-01 10:00 UTC | m, CPU, 1 CPUs | CPython 3 | "
                    "exit 0%s\n| a |\n" % benchlib.provenance(name, str(root)))


def test_a_change_to_a_measured_file_makes_its_results_stale(tmp_path):
    root = tmp_path
    files = {"bench/benchlib.py": "measuring = 1\n# ---- results files\nrecording = 1\n",
             "bench/core_budget.py": "bench = 1\n", "lib/tafel/game.py": "game = 1\n",
             "lib/tafel/bundle/reader.py": "reader = 1\n", "lib/tafel/notes.md": "notes\n",
             "firmware/ui/home.py": "home = 1\n"}
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "first")
    _results(root, "core_budget")
    header = (root / "bench" / "results" / "core_budget.txt").read_text().splitlines()[0]
    assert re.search(r" \| commit [0-9a-f]{7,}(-dirty)? [0-9a-f]{40} \| measured paths sha256:[0-9a-f]{64}$", header)

    def stale():
        return benchlib.stale("core_budget", str(root))

    assert stale() is None
    # What the run does not measure: untracked files, Markdown, paths outside its entries or left out by "!",
    # the recording part of benchlib.py.
    (root / "lib/tafel/new.py").write_text("new = 1\n")
    (root / "lib/tafel/notes.md").write_text("more notes\n")
    (root / "lib/tafel/bundle/reader.py").write_text("reader = 2\n")
    (root / "firmware/ui/home.py").write_text("home = 2\n")
    (root / "bench/benchlib.py").write_text(files["bench/benchlib.py"] + "recording = 2\n")
    assert stale() is None
    # A measured file changed, not committed: named, as uncommitted, with the command to re-run.
    (root / "lib/tafel/game.py").write_text("game = 2\n")
    why = stale()
    assert why.startswith("bench/results/core_budget.txt is stale: measured at ")
    assert re.search(r"^  lib/tafel/game\.py +changed uncommitted$", why, re.M), why
    assert why.endswith("re-run `.venv/bin/python bench/core_budget.py` (or make bench), then make figures")
    # Committed: named with the commit that changed it; a file added by a commit too.
    (root / "lib/tafel/added.py").write_text("added = 1\n")
    _git(root, "add", "lib/tafel/game.py", "lib/tafel/added.py")
    _git(root, "commit", "-q", "-m", "second")
    short = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                           text=True).stdout.strip()
    why = stale()
    assert re.search(r"^  lib/tafel/game\.py +changed in %s$" % short, why, re.M), why
    assert re.search(r"^  lib/tafel/added\.py +added in %s$" % short, why, re.M), why
    # The measuring part of benchlib.py counts.
    (root / "bench/benchlib.py").write_text("measuring = 2\n# ---- results files\nrecording = 1\n")
    assert re.search(r"^  bench/benchlib\.py +changed uncommitted$", stale(), re.M)
    # Measured now, uncommitted changes included; committing them later makes nothing stale.
    _results(root, "core_budget")
    assert stale() is None
    _git(root, "commit", "-q", "-a", "-m", "third")
    assert stale() is None
    # Back as measured after a change: not stale.
    (root / "lib/tafel/game.py").write_text("game = 3\n")
    assert stale() is not None
    (root / "lib/tafel/game.py").write_text("game = 2\n")
    assert stale() is None
    # A measured file deleted, one renamed.
    (root / "lib/tafel/added.py").unlink()
    assert re.search(r"^  lib/tafel/added\.py +removed uncommitted$", stale(), re.M)


def test_which_files_an_entry_measures():
    entries = ("firmware/", "!firmware/port/", "firmware/port/unix/", "host_tools/*_cli.py", "lib/tafel/game.py")
    assert benchlib.counts("firmware/ui/home.py", entries)
    assert not benchlib.counts("firmware/port/manifest.py", entries)  # left out by the more specific "!"
    assert benchlib.counts("firmware/port/unix/build.sh", entries)  # taken in again by a yet more specific one
    assert not benchlib.counts("firmware/README.md", entries)  # Markdown never counts
    assert benchlib.counts("host_tools/rules_cli.py", entries) and benchlib.counts("host_tools/other_cli.py", entries)
    assert not benchlib.counts("host_tools/link/roster_cli.py", entries)  # "*" stays within its folder
    assert not benchlib.counts("lib/tafel/game.pyc", entries) and not benchlib.counts("firmwarex/a.py", entries)
    assert not benchlib.counts("firmware/a.py", entries + ("!firmware/",))  # a tie: the exclusion
    assert benchlib.measures("core_budget")[:2] == ("bench/core_budget.py", "bench/benchlib.py")


def test_a_results_file_without_a_digest_is_stale(tmp_path):
    path = tmp_path / "bench" / "results" / "core_budget.txt"
    path.parent.mkdir(parents=True)
    path.write_text("# .venv/bin/python bench/core_budget.py | 2026-12-01 10:00 UTC | m, CPU, 1 CPUs | CPython 3 | "
                    "exit 0\n| a |\n")
    why = benchlib.stale("core_budget", str(tmp_path), benchlib.WorkTree(str(tmp_path)))
    assert why.startswith("bench/results/core_budget.txt records no commit and digest") and "bench/core_budget.py" in why


def test_a_stale_figure_is_found(tmp_path, monkeypatch):
    readme = tmp_path / "README.md"
    block = figures.render("key_counts")
    readme.write_text("x\n<!-- figures:key_counts -->\n%s<!-- /figures -->\n" % block.replace("11", "12", 1))
    assert figures.update(str(readme), check=True)
    figures.update(str(readme), check=False)
    assert figures.update(str(readme), check=True) == []
    assert block in readme.read_text()


def test_a_block_whose_results_file_is_missing_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(figures, "RESULTS", str(tmp_path))
    with pytest.raises(figures.MissingResults, match="key_counts.txt is missing"):
        figures.render("key_counts")


def test_a_run_with_other_arguments_is_not_kept(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(benchlib, "RESULTS", str(tmp_path))
    assert benchlib.run_recorded(lambda: print("| a |\n|---|\n| 1 |"), "key_counts", argv=["--ad-hoc"]) == 0
    assert list(tmp_path.iterdir()) == []
    assert benchlib.run_recorded(lambda: print("| a |\n|---|\n| 1 |"), "key_counts", argv=[]) == 0
    kept = (tmp_path / "key_counts.txt").read_text().splitlines()
    assert kept[0].startswith("# .venv/bin/python bench/key_counts.py | ") and kept[1:] == ["| a |", "|---|", "| 1 |"]
    assert benchlib.DIGEST.search(kept[0]), "the header ends with the commit and the digest of the measured files"
