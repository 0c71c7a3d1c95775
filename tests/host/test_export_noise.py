# `tafel export` over a noisy cable (issue 15): a pseudo-terminal proxy drops and flips bytes between
# the host and the simulated device. A mildly noisy line still brings every game as a clean one does;
# a hopeless one stops with the error rate seen, the link failure's exit code and nothing lost.
import json
import shutil

import pytest

import sim_games
from needs import POSIX, needs
from noisyline import NoisyLine
from simlink import RUN_PY, SimPort, play
from tafel import wire
from tafel_host.cli import main
from tafel_host.link import client as link_client
from tafel_host.link import errors as link_errors
from tafel_host.link.client import Link
from tafel_host.link.errors import DeviceError
from tafel_host.link.stream import Shrink

pytestmark = needs(POSIX, "pseudo-terminals", "the simulator's serial is one: run it on Linux or macOS")


def test_the_simulator_is_there():
    assert RUN_PY.is_file(), "firmware/sim/run.py moved: these tests would test nothing"


@pytest.fixture(scope="module")
def long_games(tmp_path_factory):
    """A flash image with 4 games of about 40 rounds: journals of several full DATA frames each."""
    tmp = tmp_path_factory.mktemp("noise")
    script = tmp / "games.txt"
    script.write_text(sim_games.script(sim_games.plan(4, target=1000, seats=3, hands=(1, 60))))
    play(script, tmp / "flash.img")
    return tmp / "flash.img"


@pytest.fixture
def sim(long_games, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("TAFEL_PORT", raising=False)
    # A request whose answer came damaged is asked again after the reply timeout: shorter for the tests.
    monkeypatch.setattr(link_client, "REPLY_TIMEOUT", 0.5)
    flash = tmp_path / "flash.img"
    shutil.copyfile(long_games, flash)
    idle = tmp_path / "idle.txt"
    idle.write_text("wait:10\n")
    with SimPort(idle, flash, tmp_path) as port:
        yield port


def games_of(path):
    return json.loads(path.read_text())["games"]


def spy_exports(monkeypatch):
    results = []
    export = Link.export

    def spy(link, *args, **kw):
        results.append(export(link, *args, **kw))
        return results[-1]

    monkeypatch.setattr(Link, "export", spy)
    return results


@pytest.mark.parametrize("rate, seed", [(0.005, 3), (0.01, 5)])
def test_over_a_line_that_damages_up_to_one_percent_of_bytes_every_game_comes_as_on_a_clean_line(
        sim, tmp_path, monkeypatch, rate, seed):
    clean, noisy = tmp_path / "clean.json", tmp_path / "noisy.json"
    results = spy_exports(monkeypatch)
    with NoisyLine(sim.port, rate=rate, seed=seed) as line:
        assert main(["export", "--port", line.port, "-o", str(noisy)]) == 0
        assert line.damaged > 20  # the line really was noisy
    (result,) = results
    assert result.damaged > 4 and result.chunk < 384  # asked again with smaller frames
    assert main(["export", "--port", sim.port, "-o", str(clean)]) == 0
    assert len(games_of(clean)) == 4 and games_of(noisy) == games_of(clean)


def test_a_clean_line_exports_with_the_device_s_own_frames_and_no_damage(sim):
    with NoisyLine(sim.port, rate=0.0) as line:
        link = Link.open(line.port)
        try:
            result = link.export(wire.ALL)
        finally:
            link.bye()
            link.close()
    assert result.damaged == 0 and result.chunk is None and result.lines > 4 * 3
    assert result.received == result.bytes > 4 * link.hello["chunk"]


def test_a_hopeless_line_says_it_is_noisy_with_the_rate_and_loses_nothing(sim, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(link_client, "STREAM_TIMEOUT", 3.0)
    monkeypatch.setattr(link_client, "HANDSHAKE_TIMEOUT", 0.3)
    out = tmp_path / "out.json"
    with NoisyLine(sim.port, rate=0.2, seed=5, start_after=1500) as line:  # bad from inside the stream
        code = main(["export", "--port", line.port, "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "the line to the device is noisy: " in err and "frames arrived damaged (" in err
    assert "try another cable or USB port" in err and "run `tafel export --since` to continue" in err
    assert not out.exists()  # no file half written
    # nothing is lost: on a good cable the export goes on and brings every game
    assert main(["export", "--port", sim.port, "--since", "-o", str(out)]) == 0
    assert main(["export", "--port", sim.port, "-o", str(tmp_path / "all.json")]) == 0
    assert [g["id"] for g in games_of(out)] == [1, 2, 3, 4]
    assert games_of(out) == games_of(tmp_path / "all.json")


def test_the_noisy_message_names_the_frames_and_the_share_damaged():
    err = link_errors.NoisyLine(412, 530)
    assert str(err) == ("the line to the device is noisy: 412 of 530 frames arrived damaged (77 %); "
                        "try another cable or USB port")
    assert isinstance(err, link_errors.DeviceGone)  # a link failure: exit code 1, the spool kept


class _OldFirmware(Link):
    """A device from before EXPORT's chunk: refuses the extra number; its first stream is noisy."""

    def __init__(self):
        Link.__init__(self, None, {"window": 6, "chunk": 384})
        self.asked = []

    def request(self, kind, body=b"", timeout=None):
        self.asked.append((kind, bytes(body)))
        if kind == wire.EXPORT and len(body) > 1:
            raise DeviceError("bad_request")
        return bytes([1, 50]) if kind == wire.EXPORT else b""


def test_a_firmware_that_refuses_the_chunk_is_asked_again_without_it_and_not_again(monkeypatch):
    runs = []

    def run(stream, shrink_from):
        runs.append(shrink_from)
        if len(runs) == 1:
            raise Shrink(32)

    monkeypatch.setattr("tafel_host.link.stream.ExportStream.run", run)
    link = _OldFirmware()
    link.export(wire.ALL)
    assert link.asked == [(wire.EXPORT, bytes([wire.ALL])), (wire.CANCEL, b""),
                          (wire.EXPORT, bytes([wire.ALL, 32])), (wire.EXPORT, bytes([wire.ALL]))]
    assert runs == [384, None]  # the second stream goes on with the device's own frames, however noisy

