# A running simulator is found without --port (its port file in the data folder), shows its port while it runs, and keeps the laptop's time.
import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest

from tafel_host.cli import main
from tafel_host.link import ports, simports
from tafel_host.sim.render import compose
from tafel_host.sim.terminal import status_lines

ROOT = Path(__file__).resolve().parents[2]
serial = pytest.importorskip("serial")


# -- port files: fresh ones are candidates, stale ones are ignored and removed --

def dead_pid():
    """The id of a process that has ended (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_registered_simulator_is_running_until_it_unregisters(tmp_path):
    master, slave = os.openpty()
    try:
        port = os.ttyname(slave)
        path = simports.register(port, base=tmp_path)
        assert path.parent == tmp_path / "sims"
        assert simports.running(base=tmp_path) == [(port, os.getpid())]
        simports.unregister(path)
        assert simports.running(base=tmp_path) == []
        simports.unregister(path)  # twice is harmless
    finally:
        os.close(master)
        os.close(slave)


def test_a_port_file_whose_process_is_gone_is_ignored_and_removed(tmp_path):
    master, slave = os.openpty()
    try:
        path = simports.register(os.ttyname(slave), pid=dead_pid(), base=tmp_path)
        assert simports.running(base=tmp_path) == []
        assert not path.exists()
    finally:
        os.close(master)
        os.close(slave)


def test_a_port_file_whose_pseudo_terminal_is_gone_is_ignored_and_removed(tmp_path):
    path = simports.register("/dev/pts/no-such-pty", base=tmp_path)  # this process lives
    assert simports.running(base=tmp_path) == []
    assert not path.exists()


def test_garbage_is_removed_and_a_file_being_written_is_left_alone(tmp_path):
    folder = tmp_path / "sims"
    folder.mkdir()
    (folder / "1.port").write_text("no pid here\n")
    (folder / "2.tmp").write_text("/dev/pts/3\n")
    assert simports.running(base=tmp_path, alive=lambda pid: True, exists=lambda port: True) == []
    assert sorted(os.listdir(folder)) == ["2.tmp"]


def test_no_data_folder_means_no_simulators(tmp_path):
    assert simports.running(base=tmp_path / "never") == []


def test_a_running_simulator_is_one_candidate_beside_the_usb_bridges():
    tried = []

    def probe(port):
        tried.append(port)
        if port != "/dev/pts/7":
            raise OSError("no answer")
        return "link"

    got = ports.find(probe, env={}, list_ports=lambda: [], sims=lambda: [("/dev/pts/7", 4242)])
    assert got == ("/dev/pts/7", "link") and tried == ["/dev/pts/7"]
    with pytest.raises(ports.PortError) as err:
        ports.find(probe, env={}, list_ports=lambda: [], sims=lambda: [("/dev/pts/8", 4243)])
    assert "/dev/pts/8 (Tafel simulator, pid 4243)" in str(err.value)
    with pytest.raises(ports.PortError) as err:
        ports.find(probe, env={}, list_ports=lambda: [], sims=list)
    assert "no simulator running" in str(err.value) and err.value.code == 3


# -- the status line --

def test_the_port_has_a_status_line_of_its_own():
    lines = status_lines("/tmp/f.img", "5", "on", "/dev/pts/4")
    assert lines[0].startswith("serial port /dev/pts/4 ")
    assert "flash /tmp/f.img" in lines[1] and "/dev/pts/4" not in lines[1]
    screen = compose(["x" * 128] * 32, 128, 170, 40, "Tafel", lines)
    assert "serial port /dev/pts/4" in screen[-2] and "flash /tmp/f.img" in screen[-1]
    small = compose(["x" * 128] * 32, 128, 80, 24, "Tafel", lines)  # too small for the display
    assert any("serial port /dev/pts/4" in line for line in small)


# -- end to end: the simulator started as a user does, tafel without --port --

def port_files(data_home):
    folder = data_home / "sims"
    return sorted(folder.glob("*.port")) if folder.exists() else []


def info_lines(capsys):
    assert main(["info"]) == 0, capsys.readouterr().err
    return capsys.readouterr().out.splitlines()


def clock_offset(lines):
    """Seconds between the device's clock and this laptop's, as tafel info says them."""
    line = next(line for line in lines if line.startswith("clock"))
    found = re.search(r"\(([+-]\d+) s from this laptop\)", line)
    assert found, line
    return int(found.group(1))


def test_tafel_info_without_port_finds_a_headless_simulator_and_its_file_goes_with_it(data_home, tmp_path, capsys):
    script = tmp_path / "empty.txt"
    script.write_text("")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tafel_host.cli", "sim", "--script", str(script), "--stay", "--clock", "wall",
         "--flash", str(tmp_path / "flash.img")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        said = []
        for line in proc.stdout:  # "serial: PATH", then the summary once the port is announced
            said.append(line)
            if line.startswith("tafel sim:"):
                break
        else:
            raise AssertionError("the simulator ended early: %s%s" % ("".join(said), proc.stderr.read()))
        port = said[0].split()[1]
        assert [simports.read(path) for path in port_files(data_home)] == [(port, proc.pid)]
        lines = info_lines(capsys)
        assert lines[0].startswith("device   sim-")
        assert abs(clock_offset(lines)) <= 5  # --clock wall: set from power-on, no tafel clock
        proc.stdin.close()
        assert proc.wait(15) == 0
        assert port_files(data_home) == []
        assert main(["info"]) == 3
        assert "no simulator running" in capsys.readouterr().err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


class Screen:
    """What the interactive simulator wrote to its terminal, read all along (so it never blocks on a
    full terminal); wait_for() waits for the reader's news, no sleeping."""

    def __init__(self, fd):
        self.fd, self.data, self.done = fd, b"", False
        self.news = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # the simulator closed its terminal (EIO), or the test closed ours
                data = b""
            with self.news:
                self.data += data
                self.done = not data
                self.news.notify_all()
            if not data:
                return

    def wait_for(self, pattern, timeout=120):
        with self.news:
            self.news.wait_for(lambda: self.done or re.search(pattern, self.data), timeout)
            return re.search(pattern, self.data)


def test_interactive_simulator_shows_its_port_is_found_and_keeps_the_laptops_time(data_home, tmp_path, capsys):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 45, 170, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tafel_host.cli", "sim", "--flash", str(tmp_path / "flash.img")],
        stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, start_new_session=True)
    os.close(slave)
    screen = Screen(master)
    try:
        found = screen.wait_for(rb"serial port (/dev/\S+) ")
        assert found, screen.data[-2000:]
        shown = found.group(1).decode()
        assert [simports.read(path)[0] for path in port_files(data_home)] == [shown]
        lines = info_lines(capsys)  # tafel finds it: no --port, no TAFEL_PORT
        assert abs(clock_offset(lines)) <= 5  # the clock is the laptop's from the start
        os.write(master, b"q")
        assert proc.wait(30) == 0
        assert port_files(data_home) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        screen.thread.join(2)
