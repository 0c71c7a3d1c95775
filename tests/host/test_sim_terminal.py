# The interactive simulator: keyboard decoding, half-block drawing, screen layout, and a session in a pseudo-terminal.
import io
import os
import select
import subprocess
import sys
import time
from pathlib import Path

from needs import POSIX, needs
from tafel_host.sim.device import Glass
from tafel_host.sim.render import LEGEND, compose, half_blocks, visible_len
from tafel_host.sim.terminal import Terminal, decode_keys

RUN_PY = Path(__file__).resolve().parents[2] / "firmware" / "sim" / "run.py"


def test_keys_map_to_the_keypad_and_the_knob():
    assert decode_keys(b"0123456789") == list("0123456789")
    assert decode_keys(b"abcdABCD*#") == list("ABCDABCD*#")
    assert decode_keys(b"\x7f\x08") == ["*", "*"]  # Backspace is back / delete
    assert decode_keys(b"\r") == ["PUSH"] and decode_keys(b"\r\n") == ["PUSH"]
    assert decode_keys(b"\x1b[A\x1b[D\x1b[B\x1b[C") == ["CCW", "CCW", "CW", "CW"]
    assert decode_keys(b"\x1bOA\x1bOC") == ["CCW", "CW"]  # application cursor mode


def test_simulator_keys_and_ignored_ones():
    assert decode_keys(b"!") == ["POWER"] and decode_keys(b"\x1b[15~") == ["POWER"] and decode_keys(b"\x1b[[E") == ["POWER"]
    assert decode_keys(b"q") == ["QUIT"] and decode_keys(b"\x03") == ["QUIT"]
    assert decode_keys(b"xyz \x1b \x1b[2~\x1b[1;5C\xc3\xa4e") == []  # letters, Escape, Insert, Ctrl+Right, umlaut
    assert decode_keys(b"5\x1b[17~6") == ["5", "6"]  # F6 between keys


def _glass(points, width=8, height=16):
    data = bytearray(width * height // 8)
    for x, y in points:
        data[(y // 8) * width + x] |= 1 << (y % 8)
    return Glass(width, height, data, [])


def test_half_blocks_put_two_pixel_rows_in_a_cell():
    lines = half_blocks(_glass([(0, 0), (1, 1), (2, 0), (2, 1), (3, 14), (4, 15)]))
    assert len(lines) == 8 and all(len(line) == 8 for line in lines)
    assert lines[0] == "▀▄█     "
    assert lines[7] == "   ▀▄   "
    assert set("".join(lines[1:7])) == {" "}


def test_a_wide_terminal_gets_the_legend_beside_the_display():
    glass = ["x" * 128] * 32
    screen = compose(glass, 128, 170, 40, "Tafel", "status")
    assert screen[0].startswith("┌ Tafel ") and screen[33].startswith("└")
    assert len(screen) == 35 and "status" in screen[-1]
    assert all(visible_len(line) <= 170 for line in screen)
    assert "keypad" in screen[0] and any("power cut" in line for line in screen[:len(LEGEND)])
    assert all(visible_len(line[:line.index("│", 1) + 1]) == 130 for line in screen[1:33])


def test_a_narrower_terminal_gets_a_short_legend_below():
    screen = compose(["x" * 128] * 32, 128, 132, 40, "Tafel", "status")
    assert all(visible_len(line) <= 132 for line in screen)
    assert len(screen) <= 40
    assert "Backspace" in screen[34] and "power cut" in screen[35]


def test_a_small_terminal_is_asked_to_grow():
    screen = compose(["x" * 128] * 32, 128, 80, 24, "Tafel", "status")
    assert "80 x 24" in screen[0] and "130 x 37" in screen[0]
    assert all(visible_len(line) <= 80 for line in screen[2:])


def test_only_changed_lines_are_written():
    out = io.StringIO()
    term = Terminal(out)
    term.draw(["a", "b", "c"], (10, 5))
    first = out.getvalue()
    assert first.startswith("\x1b[2J") and "\x1b[3;1Hc" in first
    out.seek(0), out.truncate()
    term.draw(["a", "B"], (10, 5))
    assert out.getvalue() == "\x1b[2;1HB\x1b[0m\x1b[K\x1b[3;1H\x1b[K"
    out.seek(0), out.truncate()
    term.draw(["a", "B"], (10, 5))
    assert out.getvalue() == ""
    term.draw(["a", "B"], (12, 5))  # resized: everything again
    assert out.getvalue().startswith("\x1b[2J")


@needs(POSIX, "pseudo-terminals", "run it on Linux or macOS")
def test_a_session_in_a_pseudo_terminal(tmp_path):
    assert RUN_PY.is_file(), "the simulator is gone from %s" % RUN_PY  # never a skip: fail if it moved
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 170, 0, 0))
    before = termios.tcgetattr(slave)
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.Popen([sys.executable, "-m", "tafel_host.cli", "sim", "--flash", str(tmp_path / "f.img")],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    seen = bytearray()

    def read_until(marker, seconds=30):
        deadline = time.monotonic() + seconds
        while marker not in seen:
            left = deadline - time.monotonic()
            assert left > 0, "no %r in %r" % (marker, bytes(seen[-400:]))
            if select.select([master], [], [], left)[0]:
                seen.extend(os.read(master, 65536))

    try:
        read_until("└".encode())
        read_until(b"last key: -")
        os.write(master, b"\x1b[B")
        read_until(b"last key: CW")
        os.write(master, b"!")
        read_until(b"power cut at")
        os.write(master, b"q")
        read_until(b"switched off")
        assert proc.wait(30) == 0
        assert termios.tcgetattr(slave) == before  # raw mode undone
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    assert b"\x1b[?1049h" in seen and b"\x1b[?1049l" in seen  # in and out of the alternate screen
    assert (tmp_path / "data" / "tafel" / "sim.log").exists() and (tmp_path / "f.img").exists()
