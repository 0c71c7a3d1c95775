# A simulator that behaves like the device (issue 15): its clock keeps to the wall clock over hours,
# garbage outside a session is the REPL's business and never ends the simulator, a device at the
# MicroPython prompt is reported as such (exit 4) by every command, a garbled handshake is asked again.
import socket
import threading
import time

import pytest

from tafel import wire
from tafel_host.cli import main
from tafel_host.link import ports
from tafel_host.link.client import Link
from tafel_host.link.errors import AtRepl, NoAnswer
from tafel_host.sim.launcher import STAY_TICK, follow_real_time
from test_sim_serial import start_sim, stop_sim

FAST = {"reply": 0.3, "stream": 1.0, "nudge": 0.3, "handshake": 0.3}
serial = pytest.importorskip("serial")


# -- the clock: real time over hours, without sleeping --

class FakeWall:
    """A monotonic clock that moves only when the stop's wait is called: each tick STAY_TICK and a
    busy laptop's overhead (0 to 9.9 ms, repeatable), an hour in all."""

    def __init__(self, seconds):
        self.now = 1000.0
        self.end = self.now + seconds
        self.x = 7

    def clock(self):
        return self.now

    def wait(self, s):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        self.now += s + (self.x % 100) / 10000.0

    def is_set(self):
        return self.now >= self.end


class StepDevice:
    """Stands in for the device process: runs 10 ms steps as firmware/sim/device.py does (a wait ends
    on the first step at or past the total asked for so far)."""

    starts = 1

    def __init__(self):
        self.asked = self.ticks = self.waits = 0

    def wait(self, ms):
        self.waits += 1
        self.asked += ms
        while self.ticks < self.asked:
            self.ticks += 10


def test_an_hour_of_stay_keeps_the_device_clock_on_the_wall_clock():
    wall = FakeWall(3600)
    device = StepDevice()
    started = wall.now
    follow_real_time(device, wall, clock=wall.clock)
    elapsed_ms = (wall.now - started) * 1000
    assert device.waits > 3600 / (STAY_TICK * 2)  # waits of 10 to 20 ms, as the real loop makes
    assert abs(device.asked - elapsed_ms) < 20  # the fractions are carried here
    assert abs(device.ticks - elapsed_ms) < 30  # and the steps' overshoot there: not +423 s in 13.5 min


# -- the handshake: a REPL, a garbled answer --

class Answers:
    """A socket that answers each thing the host writes with the next of `replies` (the last repeats)."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.url = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        self.heard = b""
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        conn, _ = self.server.accept()
        with conn:
            while True:
                got = conn.recv(100)
                if not got:
                    return
                self.heard += got
                if got.rstrip().endswith(wire.HANDSHAKE):
                    conn.sendall(self.replies.pop(0) if len(self.replies) > 1 else self.replies[0])


def test_the_friendly_prompt_is_reported_even_without_a_line_end():
    # What MicroPython's prompt sends back for "TAFEL?": its echo, and the prompt with no line end.
    with pytest.raises(AtRepl, match="the device is at the MicroPython prompt: the Tafel app is not running"):
        Link.open(Answers(b"TAFEL?>>> ").url, timeouts=FAST)


def test_a_traceback_from_the_prompt_is_the_prompt_too():
    with pytest.raises(AtRepl, match="Ctrl-D"):
        Link.open(Answers(b"TAFEL?\r\nTraceback (most recent call last):\r\n  File \"<stdin>\", line 1\r\n"
                          b"SyntaxError: invalid syntax\r\n>>> ").url, timeouts=FAST)


def test_silence_is_no_answer_and_not_the_prompt():
    with pytest.raises(NoAnswer, match="no answer to the handshake") as err:
        Link.open(Answers(b"").url, timeouts=FAST)
    assert not isinstance(err.value, AtRepl)


class RawRepl(Answers):
    """MicroPython's raw REPL (Ctrl-A; a killed mpremote leaves it so): it echoes nothing and answers
    nothing until Ctrl-D runs what it gathered; Ctrl-B takes it to the friendly prompt, whose banner
    answers."""

    def _serve(self):
        conn, _ = self.server.accept()
        with conn:
            raw = True
            while True:
                got = conn.recv(100)
                if not got:
                    return
                self.heard += got
                if raw and b"\x02" in got:
                    raw = False
                    got = got[got.index(b"\x02") + 1:]
                    conn.sendall(b"\r\nMicroPython v1.28.0 on 2026-04-06; Generic ESP32 module with ESP32\r\n"
                                 b"Type \"help()\" for more information.\r\n>>> ")
                if not raw and got.rstrip().endswith(wire.HANDSHAKE):
                    conn.sendall(b"TAFEL?\r\nTraceback (most recent call last):\r\n>>> ")


def test_the_raw_prompt_is_reported_after_ctrl_b_takes_it_to_the_friendly_one():
    device = RawRepl()
    with pytest.raises(AtRepl, match="the device is at the MicroPython prompt"):
        Link.open(device.url, timeouts=FAST)
    first = device.heard.index(wire.HANDSHAKE)
    assert b"\x02" not in device.heard[:first]  # a device that answers at once never sees Ctrl-B
    assert device.heard.count(b"\x02") == 1


def test_a_garbled_handshake_answer_is_asked_again():
    good = wire.hello_line("fake-0001", "0.1.0", 4, 384)
    garbled = good.replace(b"proto", b"pr\xf4to")
    listener = Answers(garbled, good)
    link = Link.open(listener.url, timeouts=FAST)
    assert link.hello["id"] == "fake-0001"
    assert listener.heard.count(wire.HANDSHAKE) == 2
    link.close()


def test_an_answer_garbled_every_time_says_the_line_is_noisy():
    garbled = wire.hello_line("fake-0001", "0.1.0", 4, 384).replace(b"proto", b"pr\xf4to")
    with pytest.raises(NoAnswer, match="garbled handshake answer, 8 times.*noisy"):
        Link.open(Answers(garbled).url, timeouts=FAST)


def test_ports_find_gives_the_prompt_its_own_exit_code():
    def probe(name):
        raise AtRepl("the device is at the MicroPython prompt: ...")

    with pytest.raises(ports.PortError) as err:
        ports.find(probe, port="/dev/ttyUSB0")
    assert err.value.code == 4 and str(err.value).startswith("/dev/ttyUSB0: the device is at the MicroPython prompt")

    class Info:
        device, vid, pid = "/dev/ttyUSB0", 0x10C4, 0xEA60

    with pytest.raises(ports.PortError) as err:
        ports.find(probe, env={}, list_ports=lambda: [Info()])
    assert err.value.code == 4 and "MicroPython prompt" in str(err.value)


# -- the simulator's port, end to end --

def tafel(*argv):
    return main(list(argv))


def hello(port):
    """The app's answer to a handshake on an open port (asked again while the device restarts), or None."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        port.write(b"\nTAFEL?\n")
        line = port.readline()  # the port's timeout paces the tries
        while line:
            if line.startswith(b"TAFEL!"):
                return wire.parse_hello(line)
            line = port.readline()
    return None


def read_until(port, mark, seconds=10):
    got = b""
    end = time.monotonic() + seconds
    while mark not in got and time.monotonic() < end:
        got += port.read(max(1, port.in_waiting))
    return got


def bye(port):
    port.write(wire.encode(wire.BYE, 1))
    assert wire.decode(port.readline())[:2] == (wire.OK, 1)  # the session is over: Ctrl-C interrupts again


def test_garbage_outside_a_session_never_ends_the_simulator_and_the_prompt_is_reported(tmp_path, capsys,
                                                                                      monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    proc, path = start_sim(tmp_path)
    try:
        with serial.Serial(path, 115200, timeout=0.5) as port:
            assert hello(port)["proto"] == 1
            bye(port)
            # Ctrl-C stops the app, Ctrl-A the raw REPL, a byte that is no text, Ctrl-D runs it (issue 15)
            port.write(b"\x03\x01\xff\x04")
            got = read_until(port, b"\x04>")
            assert b"NameError" in got and got.endswith(b"\x04>")  # the REPL's error, and its prompt
            # back to the friendly prompt; control bytes and bytes that are no text, run with Enter
            port.write(b"\x02" + bytes(range(5, 32)).replace(b"\r", b"") + bytes(range(128, 256)) + b"\r")
            assert b"Error" in read_until(port, b"Error")
            port.write(b"import sys\rsys.exit()\r")  # at the prompt: the soft reboot MicroPython does
            assert b"MPY: soft reboot" in read_until(port, b"MPY: soft reboot")
            assert hello(port)["proto"] == 1  # the app again
            bye(port)
            port.write(b"\x03")  # stopped at the prompt once more
            assert b">>> " in read_until(port, b">>> ")
        assert proc.poll() is None
        assert tafel("info", "--port", path) == 4
        err = capsys.readouterr().err
        assert "the device is at the MicroPython prompt: the Tafel app is not running" in err
        assert "Traceback" not in err
        with serial.Serial(path, 115200, timeout=0.5) as port:
            port.write(b"\x01")  # the raw REPL, where mpremote leaves a device it was killed in
            assert read_until(port, b"CTRL-B to exit\r\n>").endswith(b"CTRL-B to exit\r\n>")
        assert tafel("export", "--port", path, "-o", str(tmp_path / "out.json")) == 4
        assert "the device is at the MicroPython prompt" in capsys.readouterr().err
        assert not (tmp_path / "out.json").exists()
        assert proc.poll() is None
    finally:
        stop_sim(proc)
