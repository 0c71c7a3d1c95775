# End to end: games played by key script in the headless simulator, taken home over its pseudo-terminal
# with `tafel export`, and compared with what was played.
import csv
import io
import json
import shutil
import subprocess
import threading

import pytest

import sim_games
from needs import POSIX, needs
from simlink import ROOT, SimPort, play, tafel
from tafel.game import Game
from tafel_host.cli import main
from tafel_host.link.export_state import DeviceState
from tafel_host.sim.launcher import find_micropython

pytestmark = [
    needs(POSIX, "pseudo-terminals", "the simulator's serial is one: run it on Linux or macOS"),
]

WORKED = """1 D D
# # 2 6 6 wait:1200 6 6 2 #
# # 2 2 3 3 6 6 #
# # 2 2 2 5 5 5 3 3 6 6 6 #
D #
A D 3 6 D 5 0 B 3 # #
"""


@pytest.fixture(scope="module")
def hundred(tmp_path_factory):
    """A flash image with 100 short games played to their end by key script, and what they must be."""
    tmp = tmp_path_factory.mktemp("hundred")
    games = sim_games.plan(100, target=30, seats=2, hands=(30, 60))
    script = tmp / "hundred.txt"
    script.write_text(sim_games.script(games))
    play(script, tmp / "flash.img")
    return tmp / "flash.img", sim_games.expected(games)


def idle_script(tmp_path):
    path = tmp_path / "idle.txt"
    path.write_text("wait:10\n")
    return path


def copy_flash(hundred, tmp_path):
    flash = tmp_path / "flash.img"
    shutil.copyfile(hundred[0], flash)
    return flash


def assert_as_played(doc, expected):
    assert [g["id"] for g in doc["games"]] == list(range(1, len(expected) + 1))
    for game, (totals, winners) in zip(doc["games"], expected):
        assert dict(zip(game["players"], game["totals"])) == totals, game["id"]
        assert game["winners"] == winners and game["finished"] and game["damage"] is None


def test_the_worked_example_played_on_the_device_exports_as_anna_89(tmp_path, data_home, capsys):
    script = tmp_path / "worked.txt"
    script.write_text(WORKED)
    with SimPort(script, tmp_path / "flash.img", tmp_path) as sim:
        assert main(["info", "--port", sim.port]) == 0
        assert "1 stored, game 1 running" in capsys.readouterr().out
        assert main(["export", "--port", sim.port, "-o", str(tmp_path / "e.json")]) == 0
        assert main(["export", "--port", sim.port, "-o", str(tmp_path / "e.csv")]) == 0
    doc = json.loads((tmp_path / "e.json").read_text())
    assert doc["format"] == "tafel-export" and doc["device"]["id"].startswith("sim-")
    (game,) = doc["games"]
    assert game["players"] == ["Anna", "Ben", "Cleo"] and game["created"] is None
    assert game["rounds"] == [{"number": 1, "winner": "Anna", "hands": [0, 36, 53], "scores": [89, 0, 0]}]
    assert dict(zip(game["players"], game["totals"])) == {"Anna": 89, "Ben": 0, "Cleo": 0}
    rows = list(csv.DictReader(io.StringIO((tmp_path / "e.csv").read_text())))
    assert [(r["player"], r["hand"], r["score"]) for r in rows] == [("Anna", "0", "89"), ("Ben", "36", "0"),
                                                                    ("Cleo", "53", "0")]
    db = str(tmp_path / "h.sqlite3")
    assert main(["history", "import", str(tmp_path / "e.json"), "--db", db]) == 0
    assert main(["history", "import", str(tmp_path / "e.json"), "--db", db]) == 0
    assert "0 new, 0 updated, 1 already there" in capsys.readouterr().out


def test_a_hundred_games_come_home_as_played_and_since_then_brings_none(hundred, tmp_path, data_home):
    flash = copy_flash(hundred, tmp_path)
    with SimPort(idle_script(tmp_path), flash, tmp_path) as sim:
        assert main(["export", "--port", sim.port, "-o", str(tmp_path / "all.json")]) == 0
        assert main(["export", "--port", sim.port, "--since", "-o", str(tmp_path / "new.json")]) == 0
    doc = json.loads((tmp_path / "all.json").read_text())
    assert_as_played(doc, hundred[1])
    assert doc["cursor"].startswith("100:2/100@")  # create and the winning round; 100 games put away
    assert json.loads((tmp_path / "new.json").read_text())["games"] == []
    db = str(tmp_path / "h.sqlite3")
    assert main(["history", "import", str(tmp_path / "all.json"), "--db", db]) == 0
    assert main(["history", "import", str(tmp_path / "all.json"), str(tmp_path / "new.json"), "--db", db]) == 0


def spool_games(device_id):
    got = DeviceState(device_id).spooled()
    return len(got[0]) if got else 0


def device_id(port):
    from tafel_host.link.client import Link

    link = Link.open(port)
    try:
        return link.hello["id"]
    finally:
        link.bye()
        link.close()


def test_resume_after_the_host_disappears_mid_export(hundred, tmp_path, data_home):
    flash = copy_flash(hundred, tmp_path)
    with SimPort(idle_script(tmp_path), flash, tmp_path) as sim:
        dev = device_id(sim.port)
        host = subprocess.Popen(tafel("export", "--port", sim.port, "-o", tmp_path / "first.json"),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        while spool_games(dev) < 5:  # until some games came whole; the export is still going
            try:
                host.wait(0.02)
                pytest.fail("the export ended before the host could be stopped: %s" % host.stderr.read())
            except subprocess.TimeoutExpired:
                pass
        host.kill()  # the laptop's process is gone, mid-stream
        host.wait()
        host.stdout.close()
        host.stderr.close()
        kept = spool_games(dev)
        assert 5 <= kept < 100 and not (tmp_path / "first.json").exists()
        assert main(["export", "--port", sim.port, "--since", "-o", str(tmp_path / "rest.json")]) == 0
    assert_as_played(json.loads((tmp_path / "rest.json").read_text()), hundred[1])
    assert DeviceState(dev).spooled() is None and DeviceState(dev).cursor().startswith("100:2/")


def test_resume_after_the_device_vanishes_mid_export(hundred, tmp_path, data_home, capsys):
    flash = copy_flash(hundred, tmp_path)
    idle = idle_script(tmp_path)
    sim = SimPort(idle, flash, tmp_path)
    try:
        dev = device_id(sim.port)
        codes = []
        host = threading.Thread(target=lambda: codes.append(
            main(["export", "--port", sim.port, "-o", str(tmp_path / "first.json")])))
        host.start()
        while spool_games(dev) < 5 and host.is_alive():
            host.join(0.02)
        sim.kill()  # the cable is pulled
        host.join()
    finally:
        sim.close()
    assert codes == [1] and "tafel export --since" in capsys.readouterr().err
    assert 5 <= spool_games(dev) < 100
    with SimPort(idle, flash, tmp_path) as sim:  # plugged in again: a new pseudo-terminal
        assert main(["export", "--port", sim.port, "--since", "-o", str(tmp_path / "rest.json")]) == 0
    assert_as_played(json.loads((tmp_path / "rest.json").read_text()), hundred[1])


# The game (issue 13): 25 rounds, one record damaged in both copies on the flash.
FLIP_RECORD = """
import sys
sys.path[:0] = ["firmware", "lib"]
import vfs
from sim.flashdev import FlashDev
dev = FlashDev(path=sys.argv[1])
vol = vfs.VfsLfs2(dev, mtime=False)
bad = int(sys.argv[2])
for path in ("/data/live/000001.000", "/twin/live/000001.000"):
    f = vol.open(path, "rb")
    data = bytearray(f.read())
    f.close()
    pos = 0
    while pos < len(data):  # frames: u16 length, u32 number, payload, u32 CRC
        if data[pos + 2] | data[pos + 3] << 8 == bad:
            data[pos + 8] ^= 0x20  # in the payload: its CRC no longer holds
            break
        pos += 10 + (data[pos] | data[pos + 1] << 8)
    f = vol.open(path, "wb")
    f.write(data)
    f.close()
dev.close()
"""


def twenty_five_rounds():
    """(key script, [(winner seat, hands)]): a game of Anna, Ben and Cleo to 9999, 25 rounds, still running."""
    rounds = [(r % 3, [0 if s == r % 3 else 1 + (r * 7 + s * 3) % 40 for s in range(3)]) for r in range(25)]
    lines = ["1 D 9 9 9 9 D"] + ["# # " + name for name in sim_games.TYPED] + ["D #"]
    for winner, hands in rounds:
        lines.append(" D ".join("A" if s == winner else " ".join(str(h)) for s, h in enumerate(hands)) + " # # #")
    return "\n".join(lines) + "\n", rounds


def test_the_records_after_a_damaged_one_come_home_set_aside(tmp_path, data_home, capsys):
    keys, rounds = twenty_five_rounds()
    script = tmp_path / "evening.txt"
    script.write_text(keys)
    flash = tmp_path / "flash.img"
    play(script, flash)
    flipped = subprocess.run([str(find_micropython()), "-c", FLIP_RECORD, str(flash), "11"], cwd=ROOT,
                             capture_output=True, text=True)
    assert flipped.returncode == 0, flipped.stderr
    with SimPort(idle_script(tmp_path), flash, tmp_path) as sim:  # boots: the check sets the damage aside
        assert main(["export", "--port", sim.port, "-o", str(tmp_path / "e.json")]) == 0
        err = capsys.readouterr().err
        assert main(["info", "--port", sim.port]) == 0
        info = capsys.readouterr().out
    assert "game 1 is damaged: 10 rounds replayed; 14 intact records after the gap could not be replayed" in err
    doc = json.loads((tmp_path / "e.json").read_text())
    (game,) = doc["games"]
    played = Game(("Anna", "Ben", "Cleo"), target=9999)
    for winner, hands in rounds[:10]:
        played.add_round({p: hands[s] for s, p in enumerate(played.players) if s != winner}, played.players[winner])
    assert game["totals"] == [total for _, total in played.totals()] and len(game["rounds"]) == 10
    assert [r["seq"] for r in game["set_aside"]] == list(range(12, 26))  # record 11 is round 11
    assert [(r["winner"], r["hands"]) for r in game["set_aside"]] == [
        (game["players"][w], h) for w, h in rounds[11:]]
    assert "missing: 11" in game["damage"]
    assert any(n["key"] == "game_damaged" and n["game"] == 1 for n in doc["storage_report"])
    assert "flash check: game 1 had damaged records" in info
