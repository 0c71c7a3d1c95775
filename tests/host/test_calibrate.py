# `tafel calibrate` against the simulator: the heap scenarios' keys played on the "board" through
# MicroPython's raw REPL (mpremote), the chip's own figures printed, the table's games untouched,
# the app running again afterwards.
#
# The simulator boots an installed app from its flash (sim/flashboot.py, as a board does), so
# the board's profile is /board.json there too. Its raw REPL's soft reset does not empty the heap
# (the stopped app stays in it): the figures here prove the tool, not the chip; on a board the
# soft reset leaves only boot.py's and this tool's bytes ("before the app").
import json

from needs import POSIX, needs, tool
from simlink import SimPort, play
from simupdate import GAME, install, signed_versions
from tafel_host.cli import main
from tafel_host.hardware import calibrate, heap_keys

pytestmark = [
    needs(POSIX, "pseudo-terminals", "the simulator's serial is one: run it on Linux or macOS"),
]


def test_the_keys_go_in_chunks_and_every_key_of_the_scenario_is_sent():
    todo = calibrate.commands(["tour"], chunk=50)
    assert todo[0][1].endswith("cal = Cal()\ncal.end()\n")  # the chip's code, then the app on an empty store
    assert todo[1][1] == "cal.begin('tour')" and todo[-2][1] == "cal.end()" and todo[-1][1] == "cal.close()"
    sent = []
    for _, code in todo:
        if code.startswith("cal.play("):
            sent += code[len("cal.play("):code.index(")\n")].strip("'").split()
    assert sent == " ".join(k for k, _ in heap_keys.tour_keys()).split()
    assert len([c for _, c in todo if c.startswith("cal.play(")]) == -(-len(sent) // 50)


def test_the_chips_lines_become_rows_and_a_table():
    row = {"scenario": "tour", "keys": 148, "peak": 40960, "free_at_peak": 20480, "heap": 61440, "base": 3072,
           "stack": 3900, "idf": [120000, 90000, 80000], "median_ms": 12, "p95_ms": 30, "worst_ms": 41,
           "seconds": 9, "errors": 0}
    rows, other = calibrate.parse(["GC: total: 61440", "TAFELCAL " + json.dumps(row), "TAFELCAL-KEYS 148",
                                   "TAFELCAL-DONE"])
    assert rows == [row] and other == ["GC: total: 61440"]
    text = calibrate.table(rows)
    assert "| tour " in text and "40.0 KB" in text and "117.2 KB / 87.9 KB / 78.1 KB" in text
    assert "12 / 30 / 41 ms" in text


def test_only_names_what_can_be_played_by_keys(capsys):
    assert main(["calibrate", "--port", "/dev/null", "--only", "export"]) == 2
    assert "--only takes tour, evening" in capsys.readouterr().err


@needs(tool("mpremote") is not None, "mpremote", "it comes with the tool: make's .venv, pip install .")
def test_a_board_is_measured_and_its_games_are_untouched(tmp_path, capsys):
    flash = tmp_path / "board.img"
    install(signed_versions(tmp_path, ("0.8.0",), seed=b"calibrate"), flash, "0.8.0")
    play(_script(tmp_path, GAME), flash)  # the table's game: three players, one round
    out = tmp_path / "cal.json"
    with SimPort(_script(tmp_path, ""), flash, tmp_path) as sim:
        assert main(["calibrate", "--port", sim.port, "--only", "tour", "--json", str(out)]) == 0
        said = capsys.readouterr().out
        assert "| tour " in said and "| start " in said
        report = json.loads(out.read_text())
        start, tour = report["scenarios"]
        assert (start["scenario"], start["keys"]) == ("start", 0)
        tokens = " ".join(k for k, _ in heap_keys.tour_keys()).split()
        assert tour["keys"] == len([t for t in tokens if not t.startswith("wait:")])
        assert tour["errors"] == 0 and tour["peak"] > tour["base"] > 0 and tour["heap"] >= tour["peak"]
        assert report["device"]["firmware"] == "0.8.0"
        # the app again, with the table's game as it was, and nothing of the calibration on its flash
        assert main(["info", "--port", sim.port]) == 0
        assert "games    1 stored" in capsys.readouterr().out


def _script(tmp_path, keys):
    path = tmp_path / ("keys-%d.txt" % len(keys))
    path.write_text(keys + "\n")
    return path
