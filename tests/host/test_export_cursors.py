# Two laptops, one device: each laptop's `tafel export --since` brings every game changed since its own last export.
import json

from simlink import SimPort, play
from tafel_host.cli import main
from tafel_host.link.export_state import DeviceState

NAMES = """# # 2 6 6 wait:1200 6 6 2 #
# # 2 2 3 3 6 6 #
# # 2 2 2 5 5 5 3 3 6 6 6 #
"""
ROUND = "A D 3 6 D 5 0 B 3 # #\n"  # the worked example's round: Anna 89
TWO_GAMES = "1 D D\n" + NAMES + "D #\n" + ROUND + "*\n1 D D\n" + NAMES + "D #\n#\n" + ROUND
FINISH_GAME_1 = "*\n3\nD # #\n#\n# A D 5 0 0 D 0 # #\n"  # history, game 1, continue: Anna +500 = 589, over


def export_since(laptop, monkeypatch, sim, out):
    monkeypatch.setenv("XDG_DATA_HOME", str(laptop))
    assert main(["export", "--port", sim.port, "--since", "-o", str(out)]) == 0
    return dict((g["id"], g) for g in json.loads(out.read_text())["games"])


def test_a_game_finished_after_both_laptops_exported_reaches_both(tmp_path, monkeypatch):
    monkeypatch.delenv("TAFEL_PORT", raising=False)
    a, b = tmp_path / "laptop-a", tmp_path / "laptop-b"
    flash = tmp_path / "flash.img"
    idle = tmp_path / "idle.txt"
    idle.write_text("wait:10\n")
    two = tmp_path / "two.txt"
    two.write_text(TWO_GAMES)
    play(two, flash)  # game 1 put away at Anna 89, game 2 running
    with SimPort(idle, flash, tmp_path) as sim:
        for laptop in (a, b):
            games = export_since(laptop, monkeypatch, sim, laptop.with_suffix(".1.json"))
            assert sorted(games) == [1, 2] and games[1]["totals"] == [89, 0, 0] and not games[1]["finished"]
    finish = tmp_path / "finish.txt"
    finish.write_text(FINISH_GAME_1)
    play(finish, flash)  # on the device, game 1 is continued and won: 589
    with SimPort(idle, flash, tmp_path) as sim:
        games = export_since(a, monkeypatch, sim, tmp_path / "a.2.json")
        assert games[1]["totals"] == [589, 0, 0] and games[1]["finished"]  # and A marks it exported
        games = export_since(b, monkeypatch, sim, tmp_path / "b.2.json")
        assert games[1]["totals"] == [589, 0, 0] and games[1]["finished"]  # B gets it all the same
        assert export_since(a, monkeypatch, sim, tmp_path / "a.3.json") == {}  # nothing new: nothing
        assert export_since(b, monkeypatch, sim, tmp_path / "b.3.json") == {}
    monkeypatch.setenv("XDG_DATA_HOME", str(a))
    cursor_a = [p for p in (a / "tafel" / "devices").glob("*.json")]
    assert len(cursor_a) == 1 and "/" in json.loads(cursor_a[0].read_text())["cursor"]


def test_a_laptop_with_a_cursor_from_before_the_change_log_gets_every_game(tmp_path, monkeypatch):
    monkeypatch.delenv("TAFEL_PORT", raising=False)
    flash = tmp_path / "flash.img"
    two = tmp_path / "two.txt"
    two.write_text(TWO_GAMES)
    play(two, flash)
    idle = tmp_path / "idle.txt"
    idle.write_text("wait:10\n")
    with SimPort(idle, flash, tmp_path) as sim:
        export_since(tmp_path / "laptop", monkeypatch, sim, tmp_path / "1.json")
        device = json.loads((tmp_path / "1.json").read_text())["device"]["id"]
        DeviceState(device).save_cursor("2:2")  # as a tafel from before the change log kept it
        games = export_since(tmp_path / "laptop", monkeypatch, sim, tmp_path / "2.json")
        assert sorted(games) == [1, 2]  # never less: every game, then a cursor with the change log
        assert "/" in DeviceState(device).cursor()
