# `tafel sim`: key scripts, where things are found, snapshots, and headless runs of the real firmware on the unix port.
import json
import sys
from pathlib import Path

import pytest

import fakechip
from tafel_host import paths
from tafel_host.cli import main
from tafel_host.sim import launcher as sim
from tafel_host.sim import runtime as sim_runtime
from tafel_host.sim.device import Glass, SimDevice, SimError, parse_snap
from tafel_host.sim.launcher import ScriptError, SetupError, Step, parse_script
from test_png import read_png

ROOT = Path(__file__).resolve().parents[2]
RUN_PY = ROOT / "firmware" / "sim" / "run.py"

# From power-on: a standard game for Anna, Ben and Cleo, and the worked example's round (Anna +89) saved.
ANNA = "# # 2 6 6 wait:1200 6 6 2 #"
BEN = "# # 2 2 3 3 6 6 #"
CLEO = "# # 2 2 2 5 5 5 3 3 6 6 6 #"
WORKED_EXAMPLE = "1 D D\n%s\n%s\n%s\nD #\nA D 3 6 D 5 0 B 3\n" % (ANNA, BEN, CLEO)


def needs_firmware():
    # Never a skip: a simulator that moved must fail these tests, not make them pass on nothing.
    assert RUN_PY.is_file(), "the simulator is gone from %s" % RUN_PY


# -- key scripts --

def test_script_tokens_become_steps_with_their_places():
    steps = parse_script("1 # *\n  A  CW CCW PUSH\nwait:1500 snap:home power-cut D")
    assert steps[:3] == [Step("key", "1", 1, 1), Step("key", "#", 1, 3), Step("key", "*", 1, 5)]
    assert steps[3] == Step("key", "A", 2, 3)
    assert [s.arg for s in steps[4:7]] == ["CW", "CCW", "PUSH"]
    assert steps[7:] == [Step("wait", 1500, 3, 1), Step("snap", "home", 3, 11), Step("power-cut", None, 3, 21),
                         Step("key", "D", 3, 31)]


def test_every_key_is_a_token():
    steps = parse_script("0 1 2 3 4 5 6 7 8 9 A B C D * # CW CCW PUSH")
    assert [s.arg for s in steps] == list("0123456789ABCD*#") + ["CW", "CCW", "PUSH"]


def test_comment_lines_and_empty_scripts():
    assert parse_script("") == []
    assert parse_script("// setup\n   // indented comment # 1 2\n\n5") == [Step("key", "5", 4, 1)]


@pytest.mark.parametrize("text, place, words", [
    ("1 2\n3 E 4", "s.txt:2:3:", "unknown token 'E'"),
    ("a", "s.txt:1:1:", "capitals: 'A'"),
    ("cw", "s.txt:1:1:", "'CW'"),
    ("1 // later", "s.txt:1:3:", "whole line"),
    ("wait", "s.txt:1:1:", "wait:<ms>"),
    ("wait:1.5", "s.txt:1:1:", "whole milliseconds"),
    ("wait:-5", "s.txt:1:1:", "whole milliseconds"),
    ("wait:", "s.txt:1:1:", "whole milliseconds"),
    ("snap:../up", "s.txt:1:1:", "snapshot name"),
    ("snap:", "s.txt:1:1:", "snapshot name"),
    ("snap:a/b", "s.txt:1:1:", "snapshot name"),
    ("snap:x 1\n snap:x", "s.txt:2:2:", "used before, at line 1"),
    ("powercut", "s.txt:1:1:", "unknown token"),
])
def test_script_errors_say_where(text, place, words):
    with pytest.raises(ScriptError) as err:
        parse_script(text, "s.txt")
    assert str(err.value).startswith(place)
    assert words in str(err.value)


def test_unknown_token_exits_2_before_starting_anything(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("1 2 3\n# X\n")
    assert main(["sim", "--script", str(script), "--out", str(tmp_path / "out"), "--flash", str(tmp_path / "f.img")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tafel sim: ") and "s.txt:2:3: unknown token 'X'" in err
    assert not (tmp_path / "out").exists() and not (tmp_path / "f.img").exists()


def test_missing_script_and_misplaced_options_exit_2(tmp_path, capsys):
    assert main(["sim", "--script", str(tmp_path / "none.txt"), "--flash", str(tmp_path / "f.img")]) == 2
    assert "cannot read the script" in capsys.readouterr().err
    assert main(["sim", "--out", str(tmp_path), "--flash", str(tmp_path / "f.img")]) == 2
    assert "--out goes with --script" in capsys.readouterr().err


def test_interactive_mode_without_a_terminal_points_to_script(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", open(__file__))  # not a TTY
    try:
        assert main(["sim", "--flash", str(tmp_path / "f.img")]) == 2
    finally:
        sys.stdin.close()
    err = capsys.readouterr().err
    assert "needs a terminal" in err and "--script" in err
    assert not (tmp_path / "data").exists() and not (tmp_path / "f.img").exists()


def test_windows_is_told_about_wsl():
    from tafel_host.sim.terminal import unavailable

    assert "WSL" in unavailable(sys.stdin, sys.stdout, system="nt")


# -- where things are --

def test_user_data_dir_per_platform(tmp_path, monkeypatch):
    # The folders Tafel always used, now found by platformdirs: nobody's history or keys move.
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert paths.user_data_dir("linux") == home / ".local" / "share" / "tafel"
    monkeypatch.setenv("XDG_DATA_HOME", "/x/data")
    assert paths.user_data_dir("linux") == Path("/x/data/tafel")
    monkeypatch.setenv("XDG_DATA_HOME", "relative")
    assert paths.user_data_dir("linux") == home / ".local" / "share" / "tafel"
    assert paths.user_data_dir("darwin") == home / "Library" / "Application Support" / "tafel"
    if sys.platform == "win32":  # platformdirs asks Windows itself for the roaming AppData folder
        monkeypatch.setenv("APPDATA", str(tmp_path / "appdata"))
        assert paths.user_data_dir().parent.name != "tafel"  # no publisher folder between: ...\AppData\Roaming\tafel
        assert paths.user_data_dir().name == "tafel" and "Roaming" in str(paths.user_data_dir())


def test_default_flash_lives_in_the_data_dir(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert sim.default_flash_path() == tmp_path / "tafel" / "sim-flash.img"


def test_repo_parts_are_found():
    assert sim.repo_root() == ROOT
    assert sim.find_board(sim.DEFAULT_BOARD) == ROOT / "hardware" / "boards" / (sim.DEFAULT_BOARD + ".json")
    assert sim.DEFAULT_BOARD in sim.boards()
    assert sim.find_micropython().name.startswith("micropython")


def test_unknown_board_lists_the_known_ones():
    with pytest.raises(SetupError) as err:
        sim.find_board("no-such-board")
    assert "no-such-board" in str(err.value) and sim.DEFAULT_BOARD in str(err.value)


def test_a_profile_file_can_be_given_as_a_path(tmp_path):
    profile = tmp_path / "mine.json"
    profile.write_text("{}")
    assert sim.find_board(str(profile)) == profile.resolve()


def test_missing_firmware_is_explained(tmp_path):
    with pytest.raises(SetupError) as err:
        sim.find_run_py(tmp_path)
    assert "firmware/sim/run.py" in str(err.value).replace("\\", "/") and "pip install" in str(err.value)


def _board(tmp_path, python):
    board = tmp_path / "b.json"
    board.write_text(json.dumps({"name": "b", "python": python}))
    return board


def test_the_device_command_on_a_host_port_scales_the_boards_heap(tmp_path):
    board = _board(tmp_path, {"deployment": "frozen", "heap": 56 * 1024, "system_heap": "esp32"})
    command = sim.device_command("/v/bin/micropython", "/r/firmware/sim/run.py", "/d/f.img", board)
    heap = int(112 * 1024 * sim_runtime.HOST_SCALE)  # never the megabytes a laptop could give
    assert command == ["/v/bin/micropython", "-X", "heapsize=%d" % heap, "/r/firmware/sim/run.py",
                       "--flash", "/d/f.img", "--board", str(board)]


def test_the_device_build_gets_the_boards_heap_exactly(tmp_path):
    board = _board(tmp_path, {"deployment": "frozen", "heap": 57344, "system_heap": "esp32"})
    build = tmp_path / sim_runtime.DEVICE_BUILD
    build.parent.mkdir(parents=True)
    build.write_text("")
    build.chmod(0o755)
    runtime = sim_runtime.choose(board, tmp_path, lambda: "/v/bin/micropython")
    assert runtime.kind == "device" and runtime.micropython == build
    # the first area, and the modelled ESP-IDF heap it grows from; the chip side is frozen in (-m), nothing
    # of the simulator is granted or taken out
    assert sim_runtime.command(runtime, "/r/firmware/sim/run.py", "/d/f.img", board) == [
        str(build), "-X", "heapsize=57344", "-m", "sim.run", "--firmware", "/r/firmware",
        "--system-heap", "esp32", "--flash", "/d/f.img", "--board", str(board)]
    assert sim_runtime.choose(board, tmp_path, lambda: "/v/mp", "host").kind == "host"


def test_a_psram_board_and_a_missing_device_build(tmp_path):
    board = _board(tmp_path, {"deployment": "mpy", "heap": 57344, "system_heap": 4136960})
    runtime = sim_runtime.choose(board, tmp_path, lambda: "/v/bin/micropython")
    assert runtime.kind == "host"  # stock MicroPython's deployment: the host port, scaled
    with pytest.raises(sim_runtime.NoRuntime, match="make device-build"):
        sim_runtime.choose(board, tmp_path, lambda: "/v/mp", "device")


# -- snapshots --

def _glass_with(points, width=16, height=16):
    data = bytearray(width * height // 8)
    for x, y in points:
        data[(y // 8) * width + x] |= 1 << (y % 8)
    return Glass(width, height, data, ["top", "", "bottom"])


def test_glass_pixels_are_mono_vlsb():
    glass = _glass_with([(0, 0), (3, 9), (15, 15)])
    assert [(x, y) for y in range(16) for x in range(16) if glass.pixel(x, y)] == [(0, 0), (3, 9), (15, 15)]
    assert glass.rows()[9][3] == 1 and sum(map(sum, glass.rows())) == 3


def test_snapshot_png_is_4x_with_lit_pixels_light(tmp_path):
    glass = _glass_with([(1, 2)])
    sim.save_snapshot(glass, tmp_path, "one")
    width, height, depth, rows = read_png((tmp_path / "one.png").read_bytes())
    assert (width, height, depth) == (64, 64, 8)
    lit = {(x, y) for y in range(64) for x in range(64) if rows[y][x] > 100}
    assert lit == {(x, y) for x in range(4, 8) for y in range(8, 12)}
    assert rows[8][4] > rows[11][7] > rows[0][0] == 0  # the face brighter than the seam, the glass black
    assert (tmp_path / "one.txt").read_text(encoding="utf-8") == "top\n\nbottom\n"


def test_snap_lines_are_checked():
    glass = parse_snap("snap 16 8 " + "00ff" * 8, ["a"])
    assert glass.pixel(1, 7) == 1 and glass.pixel(0, 7) == 0
    for bad in ("snap 16 8 00", "snap 16 8 zz", "snap 16", "snip 16 8 00"):
        with pytest.raises(SimError):
            parse_snap(bad, [])


def test_a_device_that_dies_is_reported_with_its_last_words(tmp_path):
    log = (tmp_path / "log.txt").open("w")
    device = SimDevice([sys.executable, "-c", fakechip.script([], then="exit")], log=log, profile=fakechip.PROFILE)
    try:
        assert device.start().board == "esp32-devkitc-ssd1306"
        with pytest.raises(SimError) as err:
            device.key("5")
        assert "stopped (exit code 1)" in str(err.value) and "broken chip" in str(err.value)
    finally:
        device.close()
        log.close()
    assert "broken chip" in (tmp_path / "log.txt").read_text()


# -- the real firmware, headless --

def run_headless(tmp_path, script, capsys, flash="flash.img"):
    needs_firmware()
    (tmp_path / "script.txt").write_text(script, encoding="utf-8")
    out = tmp_path / "out"
    code = main(["sim", "--script", str(tmp_path / "script.txt"), "--out", str(out), "--flash", str(tmp_path / flash)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return out, captured.out


def test_power_on_shows_the_german_home_menu(tmp_path, capsys):
    out, said = run_headless(tmp_path, "snap:home", capsys)
    rows = (out / "home.txt").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 8
    assert "Neues Spiel" in rows[1]
    width, height, depth, pixels = read_png((out / "home.png").read_bytes())
    assert (width, height, depth) == (512, 256, 8)
    assert any(any(row) for row in pixels)
    assert "1 snapshot" in said and "home" in said
    assert (tmp_path / "flash.img").stat().st_size > 0


def test_worked_example_shows_anna_89_and_survives_a_power_cut(tmp_path, capsys):
    script = WORKED_EXAMPLE + "snap:hint\n# # snap:saved\npower-cut\nsnap:after\n"
    out, said = run_headless(tmp_path, script, capsys)
    assert (out / "hint.txt").read_text(encoding="utf-8").splitlines()[-1] == "Anna +89"
    saved = (out / "saved.txt").read_text(encoding="utf-8").splitlines()
    assert saved[0].startswith("Stand R1") and saved[1].split()[:2] == ["Anna", "89"]
    after = (out / "after.txt").read_text(encoding="utf-8").splitlines()
    assert after[:6] == saved[:6]  # the same standings after the plug was pulled
    assert "1 power cut" in said


def test_a_game_survives_into_the_next_run_on_the_same_flash(tmp_path, capsys):
    run_headless(tmp_path, WORKED_EXAMPLE + "# #", capsys)
    out, _ = run_headless(tmp_path, "snap:again", capsys)
    again = (out / "again.txt").read_text(encoding="utf-8").splitlines()
    assert again[0].startswith("Stand R1") and again[1].split()[:2] == ["Anna", "89"]


def test_script_from_stdin_and_no_snapshots_need_no_out(tmp_path, monkeypatch, capsys):
    needs_firmware()
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("D wait:100 CW CCW PUSH *"))
    assert main(["sim", "--script", "-", "--flash", str(tmp_path / "f.img")]) == 0
    assert "6 steps" in capsys.readouterr().out


def test_snapshots_without_out_exit_2(tmp_path, capsys):
    needs_firmware()
    (tmp_path / "s.txt").write_text("snap:x")
    assert main(["sim", "--script", str(tmp_path / "s.txt"), "--flash", str(tmp_path / "f.img")]) == 2
    assert "--out" in capsys.readouterr().err
