# End to end in the simulator: a device with version N installed in its flash (sim/install.py,
# with a trust store holding a key made for this test), a game played on it, then
# `tafel update` to N+1 over the pseudo-terminal at 115200: the device restarts into N+1,
# `tafel info` says so, the game is still there. Then an interrupted update is resumed, and a
# bundle signed with another key is refused with the device left as it was.
# (The test key and the installed version: simupdate.py.)
import pytest

from simlink import SimPort
from simupdate import GAME, install, script, signed_versions
from tafel import wire
from tafel_host.cli import main
from tafel_host.link.client import Link
from tafel_host.update import bundle_build
from tafel_host.update import client as update_client


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    return signed_versions(tmp_path_factory.mktemp("e2e-update"), ("0.8.0", "0.9.0"))


def test_update_over_the_serial_link_keeps_the_games(setup, capsys):
    flash = setup.dir / "flash-a.img"
    install(setup, flash, "0.8.0")
    with SimPort(script(setup, "game.txt", GAME), flash, setup.dir) as sim:
        link = Link.open(sim.port)
        assert link.hello["fw"] == "0.8.0"
        before = link.games()
        link.bye()
        link.close()
        assert len(before) == 1 and before[0]["rounds"] == 1
        assert main(["update", "--port", sim.port, str(setup.bundles["0.9.0"])]) == 0
        out = capsys.readouterr().out
        assert "the device restarted and runs 0.9.0" in out
        assert main(["info", "--port", sim.port]) == 0
        out = capsys.readouterr().out
        assert "firmware 0.9.0" in out
        link = Link.open(sim.port)
        after = link.games()
        link.bye()
        link.close()
        assert after == before
        # the same bundle again: nothing to do; the old one: refused, still 0.9.0
        assert main(["update", "--port", sim.port, str(setup.bundles["0.9.0"])]) == 0
        assert "runs 0.9.0 already" in capsys.readouterr().out
        assert main(["update", "--port", sim.port, str(setup.bundles["0.8.0"])]) == 1
        assert "downgrade" in capsys.readouterr().err
        assert main(["update", "--port", sim.port, str(setup.foreign)]) == 1
        assert "foreign_key" in capsys.readouterr().err
        link = Link.open(sim.port)
        assert link.hello["fw"] == "0.9.0"
        link.close()


def test_an_interrupted_update_resumes_where_it_stopped(setup):
    flash = setup.dir / "flash-b.img"
    install(setup, flash, "0.8.0")
    data = setup.bundles["0.9.0"].read_bytes()
    with SimPort(script(setup, "none.txt", ""), flash, setup.dir) as sim:
        link = Link.open(sim.port)
        before = link.info()
        calls = []

        def cut(done, total):  # the cable goes after a few chunks of the head
            calls.append(done)
            if len(calls) == 5:
                raise update_client.LinkError("cable pulled")

        with pytest.raises(update_client.LinkError):
            update_client.send(link, data, cut)
        head = update_client.head_of(data)
        state, have, wanted = update_client.parse_status(link.request(wire.UPDATE_STATUS))
        assert state == 1 and have == 5 * wire.UPDATE_BLOCK  # what was acknowledged is there
        result = update_client.send(link, data)
        assert result.version == "0.9.0"
        assert result.sent == len(head) - have + sum(
            e.stored for e in bundle_build.read_manifest_unchecked(data).files if e.path == "lib/tafel/version.mpy")
        trial = update_client.wait_trial(link, "0.9.0", before)
        assert trial.outcome == update_client.CONFIRMED and trial.info["firmware"] == "0.9.0"
        trial.link.close()
