# The `tafel` command line: version, card points and how it reports bad input.
import shutil
import subprocess
import sys
from pathlib import Path

from tafel.version import VERSION
from tafel_host.cli import main


def test_points_prints_each_card_and_the_total(capsys):
    assert main(["points", "red 7", "blue 9", "green draw2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[-1] for line in lines] == ["7", "9", "20", "36"]
    assert lines[-1].split() == ["total", "36"]
    assert lines[2].startswith("green draw2")


def test_points_accepts_german_names_and_black_cards(capsys):
    assert main(["points", "Grün Aussetzen", "wild4"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["total", "70"]


def test_house_rule_values(capsys):
    assert main(["points", "swap", "red 1", "--value", "swap=50"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["total", "51"]


def test_bad_card_is_reported_on_stderr_with_exit_2(capsys):
    assert main(["points", "red 7", "purple 3"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "purple" in err and err.startswith("tafel: ")


def test_points_take_cards_without_colour_as_the_readme_lists_them(capsys):
    # A card's colour never changes its points, so numbers and action cards need none.
    assert main(["points", "7", "9", "Zieh Zwei"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["total", "36"]
    assert main(["points", "Aussetzen", "Retour", "Richtungswechsel", "skip", "reverse", "draw two"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["total", "120"]


def test_points_take_the_seeds_names_of_the_black_cards(capsys):
    assert main(["points", "Joker", "Farbwahl", "schwarz +4", "Zieh-Vier", "wild", "wild draw four"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[-1] for line in lines] == ["50"] * 6 + ["300"]
    assert lines[2].startswith("schwarz +4")


def test_house_values_apply_to_cards_named_without_colour(capsys):
    assert main(["points", "Zieh Zwei", "blau 7", "--value", "draw two=25", "--value", "7=10"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["total", "35"]


def test_a_malformed_card_is_an_error_naming_it(capsys):
    for card in ("blue -1", "red 10", "blau 12"):
        assert main(["points", "red 7", card]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert "'%s'" % card in err


def test_bad_value_is_reported_with_exit_2(capsys):
    assert main(["points", "red 7", "--value", "wild=lots"]) == 2
    assert "wild" in capsys.readouterr().err


def test_console_script_runs():
    # The installed `tafel` script sits next to the interpreter in the venv.
    script = Path(sys.executable).parent / "tafel"
    command = [str(script)] if script.exists() else [shutil.which("tafel") or "tafel"]
    result = subprocess.run(command + ["--version"], capture_output=True, text=True)
    assert result.returncode == 0
    assert result.stdout.strip() == "tafel " + VERSION
    result = subprocess.run(command + ["points", "blue"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "blue" in result.stderr
