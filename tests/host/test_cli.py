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
