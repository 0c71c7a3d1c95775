# tafel export and info with a device that set damaged bytes aside, reports its boot check, or answers "busy".
import json

import pytest

from export_fixtures import play, worked_example
from fakedevice import FakeDevice
from tafel import journal, wire
from tafel.records import put_text, put_varint
from tafel_host.cli import main
from tafel_host.link import client as link_client
from tafel_host.link.export_state import DeviceState


class Device(FakeDevice):
    """The fake with GAME file numbers of its own (keep/ files), a storage report in
    INFO, and MARK answered "busy" the first `busy` times."""

    def __init__(self, games=(), numbers=None, report=(), busy=0):
        FakeDevice.__init__(self, games)
        self.numbers = numbers or {}  # game id -> the GAME file number of each file
        self.report = list(report)  # (key, game id or 0, detail text)
        self.busy = busy

    def _do(self, kind, r):
        if kind == wire.MARK and self.busy:
            self.busy -= 1
            raise wire.WireError("busy")
        out, stream = FakeDevice._do(self, kind, r)
        if kind == wire.INFO:
            for n in (0, 0, 3, 60000, 20000, 0):
                put_varint(out, n)
            put_text(out, "")
            put_varint(out, 0)
            put_varint(out, len(self.report))
            for key, game, detail in self.report:
                put_text(out, key)
                put_varint(out, game)
                put_text(out, detail)
        if kind == wire.EXPORT:
            stream = [self._renumber(k, body) for k, body in stream]
        return out, stream

    def _renumber(self, kind, body):
        if kind == wire.GAME:
            game_id, flags, files = wire.parse_game(body)
            numbers = self.numbers.get(game_id, range(len(files)))
            body = bytearray()
            put_varint(body, game_id)
            body.append(flags)
            put_varint(body, len(files))
            for number, (_, size) in zip(numbers, files):
                put_varint(body, number)
                put_varint(body, size)
        elif kind == wire.DATA:
            game_id, index, offset, data = wire.parse_data(body)
            body = bytearray()
            for n in (game_id, self.numbers.get(game_id, range(index + 1))[index], offset):
                put_varint(body, n)
            body += data
        return kind, body


@pytest.fixture
def data_home(data_home, monkeypatch):
    monkeypatch.setattr(link_client, "BUSY_WAIT", 0)  # no waiting between tries
    return data_home


def damaged_game(game_id=1, rounds=25, bad=11):
    """(live segment as the store leaves it, its damaged bytes set aside in keep/)."""
    plays = [(("Anna", "Ben", "Cleo")[r % 3], {"Anna": 4 + r, "Ben": 9, "Cleo": 2 * r}) for r in range(rounds)]
    for winner, hands in plays:
        hands[winner] = 0
    _, data = play(plays, game_id=game_id)
    frames = [journal.frame(seq, payload) for seq, payload in journal.scan(data)[0]]
    broken = bytearray(frames[bad])
    broken[8] ^= 0x20
    return b"".join(frames[:bad]), b"".join(frames[:bad]) + bytes(broken) + b"".join(frames[bad + 1:])


def test_export_brings_the_records_set_aside_and_the_storage_report(data_home, tmp_path, capsys):
    live, kept = damaged_game()
    dev = Device([(1, [live, kept]), (2, [worked_example(game_id=2)[1]])], numbers={1: [1, wire.KEEP_FILE]},
                 report=[("game_damaged", 1, "bad frame at byte 209"), ("index_rebuilt", 0, "2")])
    try:
        out = tmp_path / "e.json"
        assert main(["export", "--port", dev.url, "-o", str(out)]) == 0
        err = capsys.readouterr().err
        assert "game 1 is damaged: 10 rounds replayed; 14 intact records after the gap could not be replayed" in err
        assert "game 2" not in err
        # the boot check's damage in plain words; what it made whole again is for tafel info
        assert "the device's flash check: game 1 had damaged records: set aside, their bytes kept and " \
               "exported (bad frame at byte 209)" in err
        assert "history entries rebuilt" not in err
        doc = json.loads(out.read_text())
        game = doc["games"][0]
        assert len(game["rounds"]) == 10 and [r["seq"] for r in game["set_aside"]] == list(range(12, 26))
        assert doc["storage_report"] == [{"key": "game_damaged", "game": 1, "detail": "bad frame at byte 209"},
                                         {"key": "index_rebuilt", "game": None, "detail": "2"}]
        assert doc["games"][1]["damage"] is None and doc["games"][1]["set_aside"] == []
        assert main(["info", "--port", dev.url]) == 0
        lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("flash check: ")]
        assert lines == ["flash check: game 1 had damaged records: set aside, their bytes kept and exported "
                         "(bad frame at byte 209)", "flash check: 2 history entries rebuilt from the journals"]
        assert main(["history", "--db", str(tmp_path / "h.db"), "import", str(out)]) == 0
        err = capsys.readouterr().err
        assert "e.json: the device's flash check: game 1 had damaged records" in err
    finally:
        dev.close()


def test_rounds_the_device_confirmed_but_no_longer_holds_are_told_with_their_game(data_home, tmp_path, capsys):
    # store/watermark.py: damage in both copies cut rounds the screen had said were saved
    dev = Device([(2, [worked_example(game_id=2)[1]])], report=[("rounds_missing", 2, "")])
    try:
        out = tmp_path / "e.json"
        assert main(["export", "--port", dev.url, "-o", str(out)]) == 0
        assert "the device's flash check: game 2 has fewer rounds than the device had confirmed as saved: " \
               "check the paper or another laptop's copy for the rest" in capsys.readouterr().err
        assert json.loads(out.read_text())["storage_report"] == [
            {"key": "rounds_missing", "game": 2, "detail": None}]
    finally:
        dev.close()


def test_info_of_a_device_before_the_storage_report_says_nothing_about_it(data_home, capsys):
    dev = FakeDevice([(1, [worked_example()[1]])])
    try:
        assert main(["info", "--port", dev.url]) == 0
        assert "flash check" not in capsys.readouterr().out
    finally:
        dev.close()


def test_a_mark_answered_busy_is_asked_again_after_acking_done_again(data_home, tmp_path):
    dev = Device([(1, [worked_example(game_id=1)[1]]), (2, [worked_example(game_id=2)[1]])], busy=2)
    try:
        assert main(["export", "--port", dev.url, "-o", str(tmp_path / "e.json")]) == 0
        assert [name for name, _ in dev.log].count("mark") == 3
        assert all(g["exported"] for g in dev.games.values())
    finally:
        dev.close()


def test_a_mark_that_keeps_failing_exits_1_and_the_next_since_loses_nothing(data_home, tmp_path, capsys):
    dev = Device([(1, [worked_example(game_id=1)[1]]), (2, [worked_example(game_id=2)[1]])], busy=99)
    try:
        first = tmp_path / "first.json"
        assert main(["export", "--port", dev.url, "-o", str(first)]) == 1
        err = capsys.readouterr().err
        assert "first.json is written with 2 games, but marking them exported on the device failed" in err
        assert "the device says busy" in err and "tafel export --since" in err
        assert [g["id"] for g in json.loads(first.read_text())["games"]] == [1, 2]
        assert [name for name, _ in dev.log].count("mark") == 1 + link_client.BUSY_TRIES
        assert not any(g["exported"] for g in dev.games.values())
        dev.busy = 0
        second = tmp_path / "second.json"
        assert main(["export", "--port", dev.url, "--since", "-o", str(second)]) == 0
        assert [g["id"] for g in json.loads(second.read_text())["games"]] == [1, 2]
        assert all(g["exported"] for g in dev.games.values())
        assert DeviceState("fake-0001").spooled() is None and DeviceState("fake-0001").cursor() == "2:2"
    finally:
        dev.close()
