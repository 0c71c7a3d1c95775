# Fixtures the host tests share.
import pytest


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    """A laptop of the test's own: tafel's data folder (export cursors, history, port locks) under
    tmp_path, and no TAFEL_PORT from the environment. The folder tafel keeps its files in."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("TAFEL_PORT", raising=False)
    return tmp_path / "data" / "tafel"


@pytest.fixture(autouse=True)
def english_unless_told(monkeypatch):
    """tafel speaks the locale's language (host_tools/lang.py): the tests hear English unless they
    set TAFEL_LANG or pass --lang, whatever the locale of the machine running them."""
    from tafel_host import lang

    monkeypatch.setenv("TAFEL_LANG", "en")
    lang.use("en")  # the language is the process's: a command run in German before must not carry over
