# The link client and the device commands against a fake device on a loopback socket (pyserial socket://).
import json
import socket
import threading
import time

import pytest

from export_fixtures import comeback_game, play, worked_example
from fakedevice import FakeDevice
from tafel import journal, wire
from tafel_host.cli import main
from tafel_host.link.client import Link
from tafel_host.link.errors import DeviceError, DeviceGone, NoAnswer
from tafel_host.link.export_state import DeviceState

FAST = {"reply": 0.3, "stream": 1.0, "nudge": 0.3, "handshake": 0.3}


def segments(data, *cuts):
    """A journal split into files at frame boundaries (closed journal, then live segments)."""
    frames = [journal.frame(seq, payload) for seq, payload in journal.scan(data)[0]]
    bounds = [0, *cuts, len(frames)]
    return [b"".join(frames[a:b]) for a, b in zip(bounds, bounds[1:])]


def many_games(n):
    out = []
    for game_id in range(1, n + 1):
        _, data = play([("Anna", {"Ben": game_id, "Cleo": 3}), ("Ben", {"Anna": 5, "Cleo": 7})], game_id=game_id)
        out.append((game_id, [data]))
    return out


@pytest.fixture
def device():
    _, data = comeback_game(game_id=2)
    dev = FakeDevice([(1, [worked_example(game_id=1)[1]]), (2, segments(data, 2, 3))])
    yield dev
    dev.close()


def collect(link, mode=wire.ALL, arg=None):
    got = {}
    result = link.export(mode, arg, lambda gid, flags, doc, size: got.__setitem__(gid, doc))
    return got, result


def test_handshake_info_and_list(device):
    link = Link.open(device.url, timeouts=FAST)
    assert link.hello["id"] == "fake-0001" and link.hello["proto"] == 1
    assert link.info()["games"] == 2 and not link.info()["clock_set"]
    summaries = link.games()
    assert [g["id"] for g in summaries] == [1, 2]
    assert summaries[1]["winners"] == ["Cleo"] and summaries[0]["rounds"] == 1
    link.close()


def test_export_all_decodes_every_game_with_the_core(device):
    link = Link.open(device.url, timeouts=FAST)
    got, result = collect(link)
    assert result.games == 2 and result.received == result.bytes and result.cursor == "2:4"
    assert dict(zip(got[1]["players"], got[1]["totals"])) == {"Anna": 89, "Ben": 0, "Cleo": 0}
    assert got[2]["winners"] == ["Cleo"] and got[2]["records"] == 4 and got[2]["damage"] is None
    link.close()


def test_damaged_and_missing_stream_frames_are_sent_again(device):
    device.garble, device.skip = {1, 6}, {3}
    link = Link.open(device.url, timeouts=FAST)
    got, result = collect(link)
    assert got[1]["totals"] == [89, 0, 0] and got[2]["totals"] == [0, 100, 200]
    assert device.sent_stream > len(range(result.games)) + 3
    link.close()


def test_a_lost_reply_is_asked_for_again_and_the_request_is_done_once(device):
    link = Link.open(device.url, timeouts=FAST)
    device.drop_replies = 1
    assert link.set_clock(1700000000) == 0
    assert [name for name, _ in device.log].count("clock") == 1 and device.clock == 1700000000
    link.close()


def test_export_since_a_cursor_sends_what_is_new_or_unmarked(device):
    link = Link.open(device.url, timeouts=FAST)
    _, result = collect(link)
    sizes = {gid: sum(len(f) for f in g["files"]) for gid, g in device.games.items()}
    assert link.mark([(1, sizes[1] + 1)]) == 0  # played on since the export: stays unmarked
    assert link.mark([(1, sizes[1]), (2, sizes[2])]) == 2
    got, again = collect(link, wire.SINCE, result.cursor)
    assert got == {} and again.cursor == result.cursor
    device.add(3, [worked_example(game_id=3)[1]])
    got, _ = collect(link, wire.SINCE, result.cursor)
    assert list(got) == [3]
    link.close()


def test_device_that_vanishes_mid_export_hands_out_the_games_that_came_whole():
    dev = FakeDevice(many_games(5), chunk=32)
    dev.vanish_after = 12
    link = Link.open(dev.url, timeouts=FAST)
    got = {}
    with pytest.raises(DeviceGone):
        link.export(wire.ALL, None, lambda gid, flags, doc, size: got.__setitem__(gid, doc))
    assert 1 <= len(got) < 5 and all(doc is not None for doc in got.values())
    dev.close()


def test_device_that_goes_silent_mid_export_times_out():
    dev = FakeDevice(many_games(3), chunk=32)
    dev.mute_after = 5
    link = Link.open(dev.url, timeouts=FAST)
    with pytest.raises(DeviceGone, match="silent"):
        link.export(wire.ALL)
    dev.close()


def test_roster_in_parts_and_pages(device):
    link = Link.open(device.url, timeouts=FAST)
    names = ["Spieler Nummer %02d" % i for i in range(30)]
    assert link.roster_push(names) == 30
    assert device.roster == names and [n for n, _ in device.log].count("roster_push") > 1
    assert link.roster_pull() == names
    link.close()


def test_an_error_reply_is_a_device_error(device):
    link = Link.open(device.url, timeouts=FAST)
    with pytest.raises(DeviceError) as err:
        link.export(wire.ONE, 99)
    assert err.value.code == "no_game"
    link.close()


class Listener:
    """A socket that answers the handshake with `reply` lines (or not at all)."""

    def __init__(self, reply=b""):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.url = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        threading.Thread(target=self._serve, args=(reply,), daemon=True).start()

    def _serve(self, reply):
        conn, _ = self.server.accept()
        with conn:
            while conn.recv(100):
                conn.sendall(reply)


def test_no_tafel_and_a_bare_repl_are_told_apart():
    with pytest.raises(NoAnswer, match="no answer"):
        Link.open(Listener().url, timeouts=FAST)
    with pytest.raises(NoAnswer, match="at the MicroPython prompt"):
        Link.open(Listener(b"\r\n>>> \r\n").url, timeouts=FAST)


# -- the commands --

def test_tafel_export_writes_json_and_remembers_the_cursor(device, data_home, tmp_path, capsys):
    out = tmp_path / "e.json"
    assert main(["export", "--port", device.url, "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["format"] == "tafel-export" and doc["device"]["id"] == "fake-0001"
    assert [g["id"] for g in doc["games"]] == [1, 2] and doc["games"][0]["totals"] == [89, 0, 0]
    assert DeviceState("fake-0001").cursor() == "2:4"
    assert all(g["exported"] for g in device.games.values())
    assert main(["export", "--port", device.url, "--since", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["games"] == []
    assert "e.json: 0 games" in capsys.readouterr().out


def test_tafel_export_csv_to_standard_output(device, data_home, capsys):
    assert main(["export", "--port", device.url, "-o", "-", "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("device,game,created") and len(out) == 1 + 3 + 9
    assert out[1].split(",")[7:12] == ["Anna", "1", "0", "89", "89"]


def test_an_export_cut_short_is_continued_by_since(data_home, tmp_path, capsys):
    dev = FakeDevice(many_games(6), chunk=32)
    dev.vanish_after = 14
    first = tmp_path / "first.json"
    assert main(["export", "--port", dev.url, "-o", str(first)]) == 1
    err = capsys.readouterr().err
    assert "run `tafel export --since` to continue" in err and not first.exists()
    kept, cursor, marks = DeviceState("fake-0001").spooled()
    assert sorted(marks) == sorted(kept)
    assert 1 <= len(kept) < 6 and cursor == "%d:3" % max(kept)
    dev.vanish_after = None
    second = tmp_path / "second.json"
    assert main(["export", "--port", dev.url, "--since", "-o", str(second)]) == 0
    doc = json.loads(second.read_text())
    assert [g["id"] for g in doc["games"]] == [1, 2, 3, 4, 5, 6]
    assert DeviceState("fake-0001").spooled() is None and DeviceState("fake-0001").cursor() == "6:3"
    exports = [body for name, body in dev.log if name == "export"]
    assert exports[-1][0] == wire.SINCE  # it asked only for the rest


def test_info_clock_and_roster_commands(device, data_home, capsys):
    assert main(["info", "--port", device.url]) == 0
    out = capsys.readouterr().out
    assert "device   fake-0001" in out and "clock    not set" in out and "Anna, Ben, Cleo" in out
    assert main(["clock", "--port", device.url]) == 0
    assert device.clock > 1700000000 and "was not set" in capsys.readouterr().out
    assert main(["roster", "push", "Dora", "Emil", "--port", device.url]) == 0
    assert device.roster == ["Dora", "Emil"]
    assert main(["roster", "--port", device.url, "pull"]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == ["Dora", "Emil"]


def test_exit_codes_no_device_and_usage(data_home, capsys, monkeypatch):
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()  # nothing listens there now
    assert main(["info", "--port", "socket://127.0.0.1:%d" % port]) == 3
    assert "cannot open" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["export", "--since", "twelve"])
    assert exit_.value.code == 2
    assert main(["roster", "push"]) == 2
    monkeypatch.setattr("tafel_host.link.ports.comports", lambda: [])
    assert main(["info"]) == 3
    assert "no Tafel found" in capsys.readouterr().err


def test_many_games_are_exported_and_marked_twenty_a_request(data_home, tmp_path):
    dev = FakeDevice(many_games(45), chunk=384)
    out = tmp_path / "e.json"
    assert main(["export", "--port", dev.url, "-o", str(out)]) == 0
    assert len(json.loads(out.read_text())["games"]) == 45
    assert all(g["exported"] for g in dev.games.values())
    assert [name for name, _ in dev.log].count("mark") == 3
    dev.close()


class _SilentPort:
    """A port that takes every write and never brings a byte: a device gone quiet."""

    def __init__(self):
        self.written = b""
        self.reads = 0
        self.in_waiting = 0

    def write(self, data):
        self.written += data

    def flush(self):
        pass

    def read(self, n):
        self.reads += 1
        return b""


def test_after_a_failure_bye_is_sent_once_and_not_waited_for():
    port = _SilentPort()
    link = Link(port, {"proto": 1, "window": 6, "chunk": 384})
    link.bye(wait=False)
    assert wire.decode(port.written.rstrip(b"\n"))[0] == wire.BYE and port.written.count(b"\n") == 1
    assert port.reads == 0  # no answer waited for: the device ends the session on its own


class _DamagingPort(_SilentPort):
    """Answers each request with its OK, but the first answer arrives damaged."""

    def __init__(self):
        _SilentPort.__init__(self)
        self.pending = b""
        self.requests = 0

    def write(self, data):
        _SilentPort.write(self, data)
        kind, seq, _ = wire.decode(data.rstrip(b"\n"))
        self.requests += 1
        good = wire.encode(wire.OK, seq, b"\x07")
        self.pending += good[:5] + b"#" + good[6:] if self.requests == 1 else good

    def read(self, n):
        got, self.pending = self.pending[:n], self.pending[n:]
        return got


def test_a_request_whose_answer_comes_damaged_is_asked_again_at_once():
    port = _DamagingPort()
    link = Link(port, {"proto": 1}, timeouts={"reply": 30.0})
    started = time.monotonic()
    assert link.request(wire.INFO) == b"\x07"
    assert port.requests == 2 and time.monotonic() - started < 5  # not after the 30 s reply timeout
