# End to end in the simulator: a device with version N installed in its flash (sim/install.py,
# with a trust store holding a key made for this test), a game played on it, then
# `tafel update` to N+1 over the pseudo-terminal at 115200: the device restarts into N+1,
# `tafel info` says so, the game is still there. Then an interrupted update is resumed, and a
# bundle signed with another key is refused with the device left as it was.
#
# The test key reaches the simulated device the way any key reaches a device: inside the
# trust store (update/trusted.py) of the version installed on it. Nothing in the firmware
# or the simulator accepts a key from elsewhere.
import subprocess

import pytest

from simlink import ROOT, SimPort
from tafel import wire
from tafel_host import bundle_build, keys, update_client
from tafel_host.cli import main
from tafel_host.link_client import Link
from tafel_host.sim import find_micropython

INSTALL = ROOT / "firmware" / "sim" / "install.py"
# A standard game to 200 for Anna, Ben and Cleo, one round saved (docs/screens.txt's start).
GAME = """1 D A
D # # 2 6 6 wait:1200 6 6 2
#
# # 2 2 3 3 6 6 #
# # 2 2 2 5 5 5 3 3 6 6 6 #
D #
A D 3 6 D 5 0 B 3
# #"""


class Setup:
    pass


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    s = Setup()
    s.dir = tmp_path_factory.mktemp("e2e-update")
    s.store = s.dir / "trusted.py"
    s.store.write_text((ROOT / "firmware" / "update" / "trusted.py").read_text())
    s.key_path, s.pub_path, s.public = keys.generate(s.dir / "keys")
    keys.add_to_trust_store(s.store, s.public, "test")
    mpy_cross = bundle_build.find_mpy_cross()
    s.bundles = {}
    for version in ("0.8.0", "0.9.0"):
        path = s.dir / ("tafel-%s.bundle" % version)
        bundle_build.build(path, s.key_path, version, trust_store=s.store, mpy_cross=mpy_cross)
        s.bundles[version] = path
    stranger_key, _, _ = keys.generate(s.dir / "stranger", "stranger")
    s.foreign = s.dir / "foreign.bundle"
    bundle_build.build(s.foreign, stranger_key, "1.0.0", trust_store=_store_with(s, stranger_key),
                       mpy_cross=mpy_cross)
    return s


def _store_with(s, key_path):
    store = s.dir / "stranger-trusted.py"
    store.write_text((ROOT / "firmware" / "update" / "trusted.py").read_text())
    keys.add_to_trust_store(store, keys.public_bytes(keys.load_private(key_path)), "stranger")
    return store


def install(setup, flash, version):
    done = subprocess.run([str(find_micropython()), "-X", "heapsize=8M", str(INSTALL), "--flash", str(flash), "--pub",
                           setup.public.hex(), str(setup.bundles[version])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == version


def script(setup, name, keys_):
    path = setup.dir / name
    path.write_text(keys_ + "\n")
    return path


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
        assert update_client.back_again(link, "0.9.0") == "0.9.0"
        link.close()
