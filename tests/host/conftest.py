# Fixtures the host tests share.
import pytest


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    """A laptop of the test's own: tafel's data folder (export cursors, history, port locks) under
    tmp_path, and no TAFEL_PORT from the environment. The folder tafel keeps its files in."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("TAFEL_PORT", raising=False)
    return tmp_path / "data" / "tafel"
