# The figures in README.md and docs/*.md are the benches' own: each figure block holds exactly what
# bench/figures.py makes from bench/results/, and every bench's kept run has its results file there.
import importlib.util
import os
import sys
from pathlib import Path

import pytest

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
    missing = ["bench/%s -> bench/results/%s.txt" % (run, name) for name, run in benchlib.RUNS
               if not (ROOT / "bench" / "results" / (name + ".txt")).is_file()]
    assert not missing, "run them (make bench): " + ", ".join(missing)


def test_every_bench_is_a_kept_run():
    benches = {p.name for p in (ROOT / "bench").glob("*.py") if "run_recorded(" in p.read_text()}
    runs = {run.split()[0] for _, run in benchlib.RUNS}
    assert benches - {"benchlib.py"} == runs


def test_a_results_file_starts_with_what_ran_when_where_and_on_what():
    for name, run in benchlib.RUNS:
        path = ROOT / "bench" / "results" / (name + ".txt")
        if not path.is_file():
            continue
        header = path.read_text().splitlines()[0]
        fields = header[2:].split(" | ")
        assert header.startswith("# .venv/bin/python bench/" + run + " | "), (name, header)
        assert len(fields) == 5 and "CPU" in fields[2] and "CPython" in fields[3], (name, header)


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
