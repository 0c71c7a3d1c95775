# The launcher on the colour board: snap565 lines, RGB PNG snapshots, the terminal's colour half-blocks, headless and interactive runs.
import json
import os
import select
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from needs import POSIX, needs
from tafel_host.cli import main
from tafel_host.sim import launcher as sim
from tafel_host.sim.device import ColourGlass, SimError, parse_snap, rgb888
from tafel_host.sim.render import (
    GLASS_ON,
    RESET,
    colour_blocks,
    colour_mode,
    compose,
    display_lines,
    fit_factor,
    shrink,
    visible_len,
    xterm256,
)
from test_png import read_rgb_png

ROOT = Path(__file__).resolve().parents[2]
BOARD = "lilygo-tdisplay-st7789"
PALETTE = json.loads((ROOT / "hardware" / "boards" / (BOARD + ".json")).read_text())["display"]["palette"]
WHITE, RED, GREEN, BLUE = 0xFFFF, 0xF800, 0x07E0, 0x001F
WORKED_EXAMPLE = ("1 D D\n# # 2 6 6 wait:1200 6 6 2 #\n# # 2 2 3 3 6 6 #\n# # 2 2 2 5 5 5 3 3 6 6 6 #\nD #\n"
                  "A D 3 6 D 5 0 B 3\n")


def glass_of(rows, text=("top", "", "bottom")):
    height, width = len(rows), len(rows[0])
    data = b"".join(bytes((c >> 8, c & 0xFF)) for row in rows for c in row)
    return ColourGlass(width, height, data, list(text))


# -- snap565 and colour --

def test_snap565_lines_become_a_colour_glass():
    glass = parse_snap("snap565 2 2 " + "ffff" + "f800" + "07e0" + "001f", ["a"])
    assert glass.colour and (glass.width, glass.height) == (2, 2)
    assert [glass.pixel(0, 0), glass.pixel(1, 0), glass.pixel(0, 1), glass.pixel(1, 1)] == [WHITE, RED, GREEN, BLUE]
    assert glass.rows() == [[WHITE, RED], [GREEN, BLUE]] and glass.text == ["a"]
    for bad in ("snap565 2 2 ffff", "snap565 2 2 zz", "snap565 2", "snap566 2 2 " + "00" * 8):
        with pytest.raises(SimError):
            parse_snap(bad, [])
    assert not parse_snap("snap 8 8 " + "00" * 8, []).colour


def test_rgb565_to_rgb888_fills_the_low_bits():
    assert rgb888(WHITE) == (255, 255, 255) and rgb888(0) == (0, 0, 0)
    assert rgb888(RED) == (255, 0, 0) and rgb888(GREEN) == (0, 255, 0) and rgb888(BLUE) == (0, 0, 255)
    assert rgb888(0x8410) == (132, 130, 132)  # mid grey


def test_colour_snapshot_is_rgb_at_2x(tmp_path):
    glass = glass_of([[RED, 0], [0, BLUE]])
    sim.save_snapshot(glass, tmp_path, "c")
    width, height, rows = read_rgb_png((tmp_path / "c.png").read_bytes())
    assert (width, height) == (4, 4)
    assert rows[0] == rows[1] == [(255, 0, 0)] * 2 + [(0, 0, 0)] * 2
    assert rows[3] == [(0, 0, 0)] * 2 + [(0, 0, 255)] * 2
    assert (tmp_path / "c.txt").read_text(encoding="utf-8") == "top\n\nbottom\n"


# -- the terminal --

def test_truecolor_half_blocks_put_the_upper_pixel_in_front():
    lines = colour_blocks(glass_of([[RED, RED, 0], [BLUE, RED, 0]]), 1, "truecolor")
    assert len(lines) == 1
    line = lines[0]
    assert line.startswith("\x1b[48;2;0;0;255m\x1b[38;2;255;0;0m▀")  # red over blue
    assert "\x1b[48;2;255;0;0m " in line  # red over red: a space on red
    assert line.endswith("\x1b[48;2;0;0;0m " + RESET)
    assert visible_len(line) == 3


def test_256_colours_and_no_colours():
    assert xterm256(WHITE) == 231 and xterm256(0) == 16 and xterm256(RED) == 196 and xterm256(BLUE) == 21
    assert 232 <= xterm256(0x8410) <= 255  # a grey goes to the grey ramp
    line = colour_blocks(glass_of([[RED, 0], [0, 0]]), 1, "256")[0]
    assert "\x1b[38;5;196m▀" in line and "\x1b[48;5;16m" in line
    # mono: lit is anything but the most common colour
    assert colour_blocks(glass_of([[RED, 0, 0], [0, 0, BLUE]]), 1, "mono") == ["▀ ▄"]


def test_colour_mode_follows_the_terminal():
    assert colour_mode({"COLORTERM": "truecolor", "TERM": "xterm-256color"}) == "truecolor"
    assert colour_mode({"COLORTERM": "24bit"}) == "truecolor"
    assert colour_mode({"TERM": "xterm-256color"}) == "256"
    assert colour_mode({"TERM": "xterm"}) == "256"
    assert colour_mode({"TERM": "dumb"}) == "mono" and colour_mode({}) == "mono"
    assert colour_mode({"TERM": "xterm-256color", "TAFEL_SIM_COLOURS": "mono"}) == "mono"


def test_shrinking_keeps_doubled_pixels_sharp():
    # Rows doubled from row 1 on (as the LCD's picture starts at an odd row): 2x blocks align with the doubling.
    pattern = [[RED, 0, 0, RED], [0, RED, RED, 0]]
    rows = [[0] * 4] + [pattern[0]] * 2 + [pattern[1]] * 2
    assert shrink(rows, 2) == [[0, 0, 0], [RED, 0, RED], [0, RED, 0]]
    assert shrink(rows, 1) == rows
    # A tie goes to the rarer colour: the text's, not the background's.
    rows = [[RED, 0, 0, 0], [0, RED, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert shrink(rows, 2) == [[RED, 0], [0, 0]]


def test_the_display_shrinks_to_fit_the_terminal():
    assert fit_factor(240, 135, 250, 80) == 1
    assert fit_factor(240, 135, 170, 40) == 2  # 120 x 34 with a frame and the short legend
    assert fit_factor(240, 135, 100, 30) == 3
    glass = glass_of([[RED] * 240] * 135)
    lines, width, style = display_lines(glass, 170, 40, "truecolor")
    assert (len(lines), width, style) == (34, 120, "")
    assert all(visible_len(line) == width for line in lines)
    screen = compose(lines, width, 170, 40, "Tafel · " + BOARD, "status", style)
    assert screen[1].startswith("│" + lines[0]) and GLASS_ON not in screen[1]
    assert screen[0].index("┐") == width + 1 and screen[35].startswith("└" + "─" * width + "┘")


# -- the real firmware on the colour board --

def run_headless(tmp_path, script, capsys):
    (tmp_path / "script.txt").write_text(script, encoding="utf-8")
    out = tmp_path / "out"
    code = main(["sim", "--board", BOARD, "--script", str(tmp_path / "script.txt"), "--out", str(out),
                 "--flash", str(tmp_path / "flash.img")])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return out


def test_headless_worked_example_on_the_colour_board(tmp_path, capsys):
    out = run_headless(tmp_path, WORKED_EXAMPLE + "snap:hint\n# # snap:saved\n", capsys)
    assert (out / "hint.txt").read_text(encoding="utf-8").splitlines()[-1] == "Anna +89"
    saved = (out / "saved.txt").read_text(encoding="utf-8").splitlines()
    assert saved[0].startswith("Stand R1") and saved[1].split()[:2] == ["Anna", "89"]
    width, height, rows = read_rgb_png((out / "saved.png").read_bytes())
    assert (width, height) == (480, 270)
    seen = {px for row in rows for px in row}
    assert seen == {rgb888(PALETTE[name]) for name in ("fg", "bg", "accent")}
    assert rows[20][2] == rgb888(PALETTE["accent"])  # the title bar
    assert rows[0][0] == rows[269][479] == rgb888(PALETTE["bg"])  # the margins


@needs(POSIX, "pseudo-terminals", "run it on Linux or macOS")
def test_interactive_colour_session_in_a_pseudo_terminal(tmp_path):
    import fcntl
    import pty
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 170, 0, 0))
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), COLORTERM="truecolor", TERM="xterm-256color")
    env.pop("TAFEL_SIM_COLOURS", None)
    proc = subprocess.Popen([sys.executable, "-m", "tafel_host.cli", "sim", "--board", BOARD,
                             "--flash", str(tmp_path / "f.img")],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    seen = bytearray()

    def read_until(marker, seconds=60):  # generous: a loaded machine starts the unix port slowly
        deadline = time.monotonic() + seconds
        while marker not in seen:
            left = deadline - time.monotonic()
            assert left > 0, "no %r in %r" % (marker, bytes(seen[-400:]))
            if select.select([master], [], [], left)[0]:
                seen.extend(os.read(master, 65536))

    try:
        read_until("└".encode())
        read_until(b"last key: -")
        os.write(master, b"d")
        read_until(b"last key: D")
        os.write(master, b"q")
        read_until(b"switched off")
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    r, g, b = rgb888(PALETTE["accent"])
    assert ("\x1b[38;2;%d;%d;%dm" % (r, g, b)).encode() in seen or ("\x1b[48;2;%d;%d;%dm" % (r, g, b)).encode() in seen
    assert BOARD.encode() in seen
