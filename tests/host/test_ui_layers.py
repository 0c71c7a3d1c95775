# The UI's layers, read from the sources: screens reach the flash only through the store's API.
#
# No module of firmware/ui takes the store's Disk or the volume under it, imports a file system
# module or the store's modules (but its error type, store/errors.py, which a save path catches)
# or opens a file itself (app.open/session.open open screens and games, not files).
import re
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "firmware" / "ui"

LEAKS = (
    (r"\.disks?\b", "the store's Disk"),
    (r"\.vol\b", "the flash volume"),
    (r"^\s*(import|from)\s+(u?os|vfs|store(?!\.errors\b))\b", "a file system module"),
    (r"(?<![.\w])(?<!def )open\(", "a file opened"),
)


def test_no_screen_reaches_past_the_store():
    found = []
    for path in sorted(UI.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            for pattern, what in LEAKS:
                if re.search(pattern, code):
                    found.append("%s:%d %s: %s" % (path.name, number, what, line.strip()))
    assert found == []


def test_the_check_sees_a_leak():
    # The patterns still match the two leaks the issue found (selftest's disk, wifi_update's volume).
    code = ["disk = store.disk", "Stager(app.store.disk.vol, KEYS)", "import os", "f = open('x', 'wb')",
            "from store.fsys import Disk", "import store.store"]
    assert all(any(re.search(p, line) for p, _ in LEAKS) for line in code)
    assert not any(re.search(p, line) for p, _ in LEAKS
                   for line in ("app.open('confirm')", "from store.errors import StoreError"))
