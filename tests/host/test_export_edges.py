# `tafel export` at its edges: an unwritable output refused before the transfer, a cut during MARK said
# plainly, a closed pipe handled quietly by every command.
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from export_fixtures import EVENING, comeback_game, doc, worked_example
from fakedevice import FakeDevice
from tafel import wire
from tafel_host.cli import main
from tafel_host.link.export_state import DeviceState

ROOT = Path(__file__).resolve().parents[2]


class MarkCut(FakeDevice):
    """A device that goes away when it is asked to MARK (the cable pulled at that moment)."""

    def _handle(self, line):
        try:
            kind = wire.decode(line)[0]
        except wire.WireError:
            kind = None
        if kind == wire.MARK:
            self.log.append(("mark", b""))
            return "vanish"
        return FakeDevice._handle(self, line)


@pytest.fixture
def device():
    dev = FakeDevice([(1, [worked_example(game_id=1)[1]]), (2, [comeback_game(game_id=2)[1]])])
    yield dev
    dev.close()


def test_an_unwritable_output_is_refused_before_anything_is_sent(device, data_home, tmp_path, capsys):
    for target in (tmp_path / "no-such-folder" / "e.json", tmp_path):  # a missing folder; a folder
        assert main(["export", "--port", device.url, "-o", str(target)]) == 2
        err = capsys.readouterr().err
        assert "cannot write" in err and str(target) in err and "Traceback" not in err
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if not os.access(str(locked), os.W_OK):  # (root may write anyway)
            assert main(["export", "--port", device.url, "-o", str(locked / "e.json")]) == 2
            assert "cannot write" in capsys.readouterr().err
    finally:
        locked.chmod(0o700)
    assert device.log == []  # no request reached the device: nothing exported, nothing marked
    assert not any(g["exported"] for g in device.games.values())
    assert DeviceState("fake-0001").spooled() is None


def test_an_export_cut_during_mark_says_the_file_is_whole_and_what_since_will_do(data_home, tmp_path, capsys):
    dev = MarkCut([(1, [worked_example(game_id=1)[1]]), (2, [comeback_game(game_id=2)[1]])])
    out = tmp_path / "e.json"
    try:
        assert main(["export", "--port", dev.url, "-o", str(out)]) == 1
    finally:
        dev.close()
    err = capsys.readouterr().err
    assert json.loads(out.read_text())["games"][1]["winners"] == ["Cleo"]  # the file is whole
    assert "%s is written with 2 games" % out in err
    assert "marking them exported on the device failed" in err
    assert "`tafel export --since` marks them and may bring them again" in err
    assert "Traceback" not in err and err.count("tafel:") == 1  # one message, not a second about the cut
    assert ("mark", b"") in dev.log


def run_into_head(args, tmp_path):
    """`tafel ARGS | head` with a real pipe that is closed at once: (exit code of tafel, its standard error)."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), PYTHONPATH=str(ROOT / "tests" / "host"))
    tafel = subprocess.Popen([sys.executable, "-m", "tafel_host.cli"] + args, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd=str(tmp_path))
    tafel.stdout.close()  # the reader goes away before tafel has written, as `head` does after its lines
    err = tafel.stderr.read().decode()
    return tafel.wait(30), err


def test_a_closed_pipe_ends_every_command_quietly(device, tmp_path):
    db = tmp_path / "h.sqlite3"
    games = [worked_example(game_id=i, created=EVENING + 60 * i) for i in range(1, 200)]
    (tmp_path / "big.json").write_text(json.dumps(doc(games)))
    assert main(["history", "--db", str(db), "import", str(tmp_path / "big.json")]) == 0
    for args in (["info", "--port", device.url], ["history", "--db", str(db)], ["rules"], ["history", "import", str(tmp_path / "big.json"),
                                                          "--db", str(db)]):
        code, err = run_into_head(args, tmp_path)
        assert "Traceback" not in err and "BrokenPipe" not in err, (args, err)
        assert code in (0, 141), (args, code)


def test_a_file_that_cannot_be_written_after_the_transfer_keeps_the_games_for_since(device, data_home, tmp_path,
                                                                                    capsys, monkeypatch):
    from tafel_host.link import cli as link_cli

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(link_cli, "write_output", full)
    assert main(["export", "--port", device.url, "-o", str(tmp_path / "e.json")]) == 1
    err = capsys.readouterr().err
    assert "No space left on device" in err and "The 2 games are kept on this laptop" in err
    assert "tafel export --since" in err and "Traceback" not in err
    kept, _, _ = DeviceState("fake-0001").spooled()
    assert sorted(kept) == [1, 2]
    assert not any(g["exported"] for g in device.games.values())  # not marked: not yet taken home
