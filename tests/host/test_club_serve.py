# `tafel club serve` end to end: a table publishes its game over MQTT (the broker built in, or
# Mosquitto), the hub stores it as `tafel history import` would and acknowledges every record; sent
# again, replayed, or across a hub or broker killed mid-game, every record is stored exactly once.
import asyncio
import socket

import pytest

from club_fixtures import (
    CLUB,
    DEVICE,
    SECRET,
    TABLE,
    evening_game,
    game_rows,
    imported_as_history_import,
    stored_records,
)
from needs import needs
from tafel_host.cli import main
from tafel_host.club.registry import Registry

try:
    import club_wire as wire
except ImportError:  # no amqtt: skipped here, an error where everything is required (.ci/run)
    wire = None

pytestmark = needs(wire is not None, "amqtt (the club extra)", "make's .venv has it; or pip install -e '.[club]'")
with_mosquitto = needs(wire is not None and wire.mosquitto() is not None, "mosquitto",
                       "apt-get install mosquitto (Debian, Ubuntu), brew install mosquitto (macOS)")


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 180))


@pytest.fixture
def db(tmp_path):
    """A history database with the table paired for the club."""
    path = tmp_path / "history.sqlite3"
    with Registry(path) as registry:
        registry.pair(DEVICE, TABLE, SECRET, CLUB)
    return path


def stored_once_as_imported(tmp_path, db, payloads):
    assert [seq for _, seq, _ in stored_records(db)] == list(range(len(payloads)))
    assert game_rows(db) == imported_as_history_import(tmp_path, payloads)


def test_a_game_reaches_the_history_through_the_hub_and_ctrl_c_stops_it(tmp_path, db):
    payloads = evening_game()
    hub, port = wire.hub_listening(db)

    async def evening():
        table = wire.Table("mqtt://127.0.0.1:%d" % port, payloads)
        await table.connect()
        await table.status(b"online")
        await table.send(range(len(payloads)))
        await table.wait_acked(len(payloads))
        assert table.acks == list(range(1, len(payloads) + 1))  # one ACK per record, in order
        await table.send([2, 0, 7, 7, 5])  # sent again: answered again, stored once
        await table.wait_acks(len(payloads) + 5)
        assert table.acks[len(payloads):] == [len(payloads)] * 5
        await hub.wait("Tisch 3 (%s): online" % DEVICE)
        await table.close()

    try:
        run(evening())
    finally:
        status = hub.stop()  # Ctrl-C
    assert status == 0, hub.output()
    hub.wait_for("hub stopped: 8 records stored, 0 messages refused")
    for seq, kind in enumerate(["new game", "round", "round", "round", "round edited", "round undone", "round",
                                "game ended"]):
        hub.wait_for("Tisch 3 (%s): game 7, record %d (%s) stored" % (DEVICE, seq, kind))
    hub.wait_for("stored before (answered again)")
    stored_once_as_imported(tmp_path, db, payloads)
    with Registry(db) as registry:
        assert {r.reason for r in registry.rejections()} == {"duplicate"}
        assert [(live.device, live.status) for live in registry.live()] == [(DEVICE, "online")]


def test_a_hub_killed_mid_game_loses_and_duplicates_nothing(tmp_path, db):
    # The broker built in dies with the hub: the table connects again and sends what was not acknowledged.
    payloads = evening_game()
    hub, port = wire.hub_listening(db)
    url = "mqtt://127.0.0.1:%d" % port

    async def evening():
        nonlocal hub
        table = wire.Table(url, payloads)
        await table.connect()
        await table.send(range(4))
        await table.wait_acked(4)
        await table.send([4, 5])  # in flight when the hub dies
        hub.kill()
        await table.wait_gone()
        hub, _ = await asyncio.to_thread(wire.hub_listening, db, port)  # the same port: the tables know it
        await table.connect()
        await table.send(range(3))  # replayed from long ago: duplicates
        await table.send_unacked()
        await table.wait_acked(len(payloads))
        await table.close()

    try:
        run(evening())
    finally:
        status = hub.stop()
    assert status == 0, hub.output()
    stored_once_as_imported(tmp_path, db, payloads)


@with_mosquitto
def test_with_mosquitto_a_game_reaches_the_history(tmp_path, db):
    payloads = evening_game()
    broker, port = wire.broker(tmp_path)
    url = "mqtt://127.0.0.1:%d" % port
    hub = wire.hub(db, "--broker", url)

    async def evening():
        await hub.wait("ready: %s" % url)
        table = wire.Table(url, payloads)
        await table.connect()
        await table.send(range(len(payloads)))
        await table.send(range(len(payloads)))  # everything twice
        await table.wait_acks(2 * len(payloads))
        assert table.acked == len(payloads)
        await table.close()

    try:
        run(evening())
    finally:
        status = hub.stop()
        broker.stop()
    assert status == 0, hub.output()
    stored_once_as_imported(tmp_path, db, payloads)


@with_mosquitto
def test_with_mosquitto_what_comes_while_the_hub_is_away_waits_for_it(tmp_path, db):
    # The hub's persistent session: Mosquitto keeps the records sent while the hub was killed and hands
    # them over when it is back; the table sends nothing again.
    payloads = evening_game()
    broker, port = wire.broker(tmp_path)
    url = "mqtt://127.0.0.1:%d" % port
    hub = wire.hub(db, "--broker", url)

    async def evening():
        nonlocal hub
        await hub.wait("ready")
        table = wire.Table(url, payloads)
        await table.connect()
        await table.send(range(3))
        await table.wait_acked(3)
        hub.kill()
        await table.send(range(3, len(payloads)))  # the hub is away: Mosquitto queues them for it
        assert table.acked == 3
        hub = wire.hub(db, "--broker", url)
        await table.wait_acked(len(payloads))
        assert table.acks == list(range(1, len(payloads) + 1))  # each once: nothing was sent again
        await table.close()

    try:
        run(evening())
    finally:
        status = hub.stop()
        broker.stop()
    assert status == 0, hub.output()
    stored_once_as_imported(tmp_path, db, payloads)


@with_mosquitto
def test_with_mosquitto_a_broker_restarted_mid_game_loses_and_duplicates_nothing(tmp_path, db):
    payloads = evening_game()
    broker, port = wire.broker(tmp_path)
    url = "mqtt://127.0.0.1:%d" % port
    hub = wire.hub(db, "--broker", url)

    async def evening():
        nonlocal broker
        await hub.wait("ready")
        table = wire.Table(url, payloads)
        await table.connect()
        await table.send(range(4))
        await table.wait_acked(4)
        await table.send([4])
        broker.kill()  # every session and queue gone with it (persistence off)
        await table.wait_gone()
        lost = await hub.wait("lost the broker")
        broker, _ = await asyncio.to_thread(wire.broker, tmp_path, port)
        await hub.wait("connected to the broker again", after=lost)
        await table.connect()
        await table.send_unacked()
        await table.wait_acked(len(payloads))
        await table.close()

    try:
        run(evening())
    finally:
        status = hub.stop()
        broker.stop()
    assert status == 0, hub.output()
    stored_once_as_imported(tmp_path, db, payloads)


# ---- the command line ----------------------------------------------------------------------

def test_serve_refuses_what_it_cannot_use(tmp_path, db, capsys):
    empty = tmp_path / "empty.sqlite3"
    for argv, said in [
        (["--db", str(db), "--listen", "1883"], "--listen takes HOST:PORT"),
        (["--db", str(db), "--listen", "localhost:99999"], "--listen takes HOST:PORT"),
        (["--db", str(db), "--broker", "http://pi.local"], "--broker takes mqtt://"),
        (["--db", str(db), "--broker", "mqtt://"], "--broker takes mqtt://"),
        (["--db", str(db), "--club", "karten club"], "a club's name is"),
        (["--db", str(empty)], "no device is paired yet"),
    ]:
        assert main(["club", "serve", *argv]) == 2, argv
        assert said in capsys.readouterr().err
    with Registry(empty) as registry:
        registry.pair(DEVICE, TABLE, SECRET, CLUB)
        registry.pair("esp32-000000000001", "Brett 1", SECRET, "schachclub")
    assert main(["club", "serve", "--db", str(empty)]) == 2
    assert "devices are paired for kartenclub, schachclub" in capsys.readouterr().err


def test_a_port_taken_is_said_in_the_laptops_language(tmp_path, db, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["club", "serve", "--db", str(db), "--listen", "127.0.0.1:%d" % port, "--lang", "de"]) == 1
    out = capsys.readouterr().out
    assert "kann nicht auf 127.0.0.1:%d lauschen" % port in out


def test_a_broker_out_of_reach_is_said_and_ctrl_c_still_stops_the_hub(tmp_path, db):
    url = "mqtt://127.0.0.1:%d" % wire.free_port()  # nobody listens there
    hub = wire.hub(db, "--broker", url)
    try:
        hub.wait_for("cannot reach the broker at %s" % url)
    finally:
        status = hub.stop()
    assert status == 0, hub.output()
    hub.wait_for("hub stopped: 0 records stored, 0 messages refused")
    assert not any("ready" in line for line in hub.lines if line)
