# The simulator's USB serial: the pty/FIFO shuttle, its line rate, and `tafel sim --stay --port-file`.
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tafel import wire
from tafel_host.cli import main
from tafel_host.sim.serial import Pacer, SimSerial, write_port_file

ROOT = Path(__file__).resolve().parents[2]
ANNA = "# # 2 6 6 wait:1200 6 6 2 #"
BEN = "# # 2 2 3 3 6 6 #"
CLEO = "# # 2 2 2 5 5 5 3 3 6 6 6 #"
WORKED_EXAMPLE = "1 D D\n%s\n%s\n%s\nD #\nA D 3 6 D 5 0 B 3\n# #\n" % (ANNA, BEN, CLEO)

serial = pytest.importorskip("serial")


class FakeTime:
    def __init__(self):
        self.now = 100.0
        self.slept = []

    def clock(self):
        return self.now

    def sleep(self, s):
        self.slept.append(round(s, 6))
        self.now += s


def test_pacer_lets_the_line_rate_through():
    t = FakeTime()
    pacer = Pacer(11520, t.clock, t.sleep)
    pacer.take(1152)  # the line is free: goes at once
    assert t.slept == []
    pacer.take(1152)  # waits for the first 0.1 s to go out
    assert t.slept == [0.1]
    t.now += 5  # idle: no credit is saved up beyond the line being free
    pacer.take(64)
    assert t.slept == [0.1]


def read_all(fd, n, timeout=5.0):
    got = b""
    end = time.monotonic() + timeout
    while len(got) < n and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            got += os.read(fd, 4096)
    return got


def test_bytes_go_both_ways_at_the_baud_rate():
    link = SimSerial(baud=115200)
    try:
        args = link.device_args()
        assert args[0::2] == ["--serial-in", "--serial-out", "--baud", "--serial-session"] and args[5] == "115200"
        assert link.path.startswith("/dev/")
        host = os.open(link.path, os.O_RDWR | os.O_NOCTTY)
        dev_in = os.open(link.to_device, os.O_RDONLY | os.O_NONBLOCK)
        dev_out = os.open(link.from_device, os.O_WRONLY)
        try:
            data = bytes(range(256)) * 9  # 2304 bytes: 0.2 s at 115200, control bytes too
            start = time.monotonic()
            os.write(dev_out, data)
            assert read_all(host, len(data)) == data  # not a byte changed: a raw line
            assert time.monotonic() - start >= 0.17
            os.write(host, b"TAFEL?\n\x03\r\n")
            assert read_all(dev_in, 10) == b"TAFEL?\n\x03\r\n"
        finally:
            for fd in (host, dev_in, dev_out):
                os.close(fd)
    finally:
        link.close()
    assert not os.path.exists(link.dir)


def _send_unread(session, ring=260):
    """1 KB from the host to a device that reads nothing meanwhile: (bytes dropped, what it then reads)."""
    link = SimSerial(baud=115200, ring=ring)
    try:
        if session:  # what the device's SimUSB.guard writes when a link session begins
            with open(link.session, "wb") as f:
                f.write(b"1")
        host = os.open(link.path, os.O_RDWR | os.O_NOCTTY)
        dev_in = os.open(link.to_device, os.O_RDONLY | os.O_NONBLOCK)
        try:
            data = bytes(range(256)) * 4
            os.write(host, data)
            assert link.wait_taken(len(data), 5)
            got = read_all(dev_in, len(data) - link.overflowed)
            os.write(host, b"TAFEL?\n")  # once the device has read, the ring takes more
            assert read_all(dev_in, 7) == b"TAFEL?\n"
            return link.overflowed, got
        finally:
            for fd in (host, dev_in):
                os.close(fd)
    finally:
        link.close()


DATA = bytes(range(256)) * 4


def test_in_a_session_bytes_beyond_the_devices_receive_ring_are_lost():
    # The app reads the port: what it leaves unread beyond 260 bytes is dropped, as a UART overflow drops it.
    assert _send_unread(session=True) == (len(DATA) - 260, DATA[:260])


def test_outside_a_session_the_repl_keeps_up_and_nothing_is_lost():
    # On the device the REPL (C code) empties the ring faster than the line fills it.
    assert _send_unread(session=False) == (0, DATA)


def test_without_a_ring_nothing_is_dropped():
    assert _send_unread(session=True, ring=None) == (0, DATA)


def test_the_device_says_when_its_session_begins_and_ends():
    link = SimSerial(baud=115200)
    try:
        assert not link.in_session()
        for flag, expected in ((b"1", True), (b"0", False)):
            with open(link.session, "wb") as f:
                f.write(flag)
            assert link.in_session() is expected
    finally:
        link.close()


def test_port_file_is_written_whole(tmp_path):
    write_port_file(tmp_path / "port", "/dev/pts/9")
    assert (tmp_path / "port").read_text() == "/dev/pts/9\n"
    assert os.listdir(tmp_path) == ["port"]


def test_stay_needs_a_script(capsys):
    assert main(["sim", "--stay"]) == 2
    assert "--stay goes with --script" in capsys.readouterr().err


def start_sim(tmp_path):
    """`tafel sim --script ... --stay --port-file` with the worked example; (process, port path)."""
    script = tmp_path / "script.txt"
    script.write_text(WORKED_EXAMPLE, encoding="utf-8")
    port_file = tmp_path / "port"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tafel_host.cli", "sim", "--script", str(script), "--stay",
         "--port-file", str(port_file), "--flash", str(tmp_path / "flash.img")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env=dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data")))  # its port file: never in the user's folder
    # It says "serial: <path>" at once, and its summary once the script has run and the port file
    # is written: read what it says (a minute at most for each line), no polling for the file.
    said = []
    while not port_file.exists():
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        line = proc.stdout.readline() if ready else ""
        if not line:  # it ended, or said nothing for a minute
            proc.kill()
            raise AssertionError("no port file: %s%s" % ("".join(said), proc.stderr.read()))
        said.append(line)
    proc.said = "".join(said)  # what it printed before the port was there, for the test to read
    return proc, port_file.read_text().strip()


def stop_sim(proc):
    """Ends a start_sim() simulator as a user does (its standard input closed), killed if it will not."""
    proc.stdin.close()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def test_sim_stay_serves_the_link_on_the_pty_until_stdin_closes(tmp_path):
    proc, path = start_sim(tmp_path)
    port_file = tmp_path / "port"
    try:
        with serial.Serial(path, 115200, timeout=5) as port:
            port.write(b"\nTAFEL?\n")
            hello = wire.parse_hello(port.readline())
            assert hello["proto"] == 1 and hello["id"].startswith("sim-")
            port.write(wire.encode(wire.INFO, 1))
            kind, seq, body = wire.decode(port.readline())
            assert (kind, seq) == (wire.OK, 1)
            info = wire.parse_info(body)
            assert info["games"] == 1 and info["running"] == 1 and not info["clock_set"]
            port.write(wire.encode(wire.BYE, 2))
            assert wire.decode(port.readline())[:2] == (wire.OK, 2)
        proc.stdin.close()
        assert proc.wait(15) == 0
        out = proc.said + proc.stdout.read()
        assert out.startswith("serial: " + path + "\n")
        assert "tafel sim:" in out
        assert not port_file.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def mpremote(path, *args):
    return subprocess.run([sys.executable, "-m", "mpremote", "connect", path] + list(args),
                          capture_output=True, text=True, timeout=60)


def test_mpremote_lists_files_while_the_app_runs(tmp_path):
    pytest.importorskip("mpremote")
    proc, path = start_sim(tmp_path)
    try:
        with serial.Serial(path, 115200, timeout=5) as port:  # the app answers the link
            port.write(b"TAFEL?\n")
            assert port.readline().startswith(b"TAFEL! ")
            port.write(wire.encode(wire.BYE, 1))
            assert wire.decode(port.readline())[:2] == (wire.OK, 1)
        got = mpremote(path, "ls")  # Ctrl-C stops the app, the raw REPL lists the flash
        assert got.returncode == 0, got.stderr
        assert "data/" in got.stdout
        got = mpremote(path, "ls", ":data")
        assert "games/" in got.stdout or "live/" in got.stdout, got.stdout
        with serial.Serial(path, 115200, timeout=5) as port:  # Ctrl-D at the prompt: the app again
            port.write(b"\r\x02")  # the friendly REPL's prompt first
            assert port.read_until(b">>> ").endswith(b">>> "), "no prompt"
            port.write(b"\x04")
            assert port.read_until(b"soft reboot").endswith(b"soft reboot"), "no soft reboot"
            port.timeout = 1
            line = b""
            for _ in range(10):  # asked until the app that started again answers (each ask waits 1 s)
                port.write(b"\nTAFEL?\n")
                line = port.readline()
                while line and not line.startswith(b"TAFEL!"):
                    line = port.readline()
                if line:
                    break
            assert line.startswith(b"TAFEL!"), "the app did not come back"
    finally:
        stop_sim(proc)
