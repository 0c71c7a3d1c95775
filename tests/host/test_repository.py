# The repository itself: no file carries a merge's conflict markers (a README once did, unnoticed, for a day).
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".git", ".venv", ".venv-lowest", "build", "node_modules", "__pycache__", "tafel.egg-info"}
MARKER = re.compile(rb"^(<<<<<<< |>>>>>>> |=======$)", re.M)


def _files():
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if path.is_file() and not SKIP.intersection(rel.parts) and path.suffix in (
                ".py", ".md", ".txt", ".toml", ".json", ".html", ".cfg", ".yml", ".yaml", "") and path.stat().st_size < 2e6:
            yield rel, path


def test_no_file_carries_conflict_markers():
    found = []
    for rel, path in _files():
        for match in MARKER.finditer(path.read_bytes()):
            found.append("%s: %r" % (rel, match.group(0)))
    assert found == []
