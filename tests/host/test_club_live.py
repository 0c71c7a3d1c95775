# The hub's live board end to end: a table's rounds reach the board's event stream, the leaderboard follows,
# and the organiser's round goes to the table as a signed, retained TABLE message, and outlives a restart of the hub.
import asyncio
import json
import re
import socket
import time
import urllib.request

import pytest

from club_fixtures import CLUB, DEVICE, OTHER, OTHER_SECRET, SECRET, TABLE, evening_game
from needs import needs
from tafel import club
from tafel_host.club import draw
from tafel_host.club.registry import Registry
from tafel_host.history.database import evening_of

try:
    import club_wire as wire
except ImportError:  # no amqtt: skipped here, an error where everything is required (.ci/run)
    wire = None

pytestmark = needs(wire is not None, "amqtt (the club extra)", "make's .venv has it; or pip install -e '.[club]'")


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "history.sqlite3"
    with Registry(path) as registry:
        registry.pair(DEVICE, TABLE, SECRET, CLUB)
    return path


class Events:
    """The board's Server-Sent Events, read as they come: until(test) is the first board that passes."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=wire.WAIT)
        self.sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        self.buf = b""
        self._next(b"\r\n\r\n")

    def _next(self, end=b"\n\n"):
        while end not in self.buf:
            chunk = self.sock.recv(65536)
            assert chunk, "the event stream ended"
            self.buf += chunk
        event, _, self.buf = self.buf.partition(end)
        return event

    def until(self, test):
        end = time.monotonic() + wire.WAIT
        while time.monotonic() < end:
            event = self._next()
            if event.startswith(b"data: "):
                board = json.loads(event[6:])
                if test(board):
                    return board
        raise AssertionError("no board passed the test")

    def close(self):
        self.sock.close()


def board_port(hub):
    line = hub.lines[hub.wait_for("live board: http://")]
    return int(re.search(r":(\d+)/", line).group(1))


def post_round(port, doc):
    request = urllib.request.Request("http://127.0.0.1:%d/round" % port, data=json.dumps(doc).encode(),
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=wire.WAIT) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_a_tables_rounds_reach_the_board_and_the_organisers_round_reaches_the_table(db):
    payloads = evening_game(created=int(time.time()), players=("Anna", "Ben", "Cleo", "Dora"))
    hub, port = wire._on_a_free_port(
        lambda at: wire.hub(db, "--listen", "127.0.0.1:%d" % at, "--password", "geheim"), "ready",
        "cannot listen")
    events = Events(board_port(hub))

    async def evening():
        table = wire.Table("mqtt://127.0.0.1:%d" % port, payloads)
        await table.connect()
        await table.status(b"online")
        await table.send(range(3))  # the game and two rounds
        await table.wait_acked(3)
        board = events.until(lambda b: b["tables"] and b["tables"][0]["round"] == 2)
        seat = board["tables"][0]
        assert seat["table"] == TABLE and seat["status"] == "online" and seat["players"] == ["Anna", "Ben", "Cleo",
                                                                                             "Dora"]
        assert seat["last_round"] is not None and not seat["finished"]
        await table.send(range(3, len(payloads)))  # on to the end: an edit, an undo, a round, ended early
        await table.wait_acked(len(payloads))
        board = events.until(lambda b: b["tables"][0]["finished"])
        assert board["leaderboard"] and board["leaderboard"][0]["variant"] == "standard"
        assert {r["name"] for r in board["leaderboard"][0]["rows"]} == {"Anna", "Ben", "Cleo", "Dora"}
        assert all(r["wins"] == 0 for r in board["leaderboard"][0]["rows"])  # ended early: nobody won

        # the organiser draws round 1 for one table: the table's device gets it, signed and retained
        watcher = wire.MQTTClient(client_id="watcher", config={"auto_reconnect": False})
        await watcher.connect("mqtt://127.0.0.1:%d" % port)
        name = club.topic(CLUB, DEVICE, "table")
        await watcher.subscribe([(name.decode(), wire.QOS_1)])
        players = ["Anna", "Ben", "Cleo", "Dora"]
        loop = asyncio.get_running_loop()
        assert (await loop.run_in_executor(None, post_round, board_port(hub),
                                           {"password": "falsch", "players": players, "tables": 1}))[0] == 403
        status, drawn = await loop.run_in_executor(None, post_round, board_port(hub), {
            "password": "geheim", "players": players, "tables": 1, "variant": "penalty", "target": 300})
        assert status == 200 and drawn["round"] == 1 and sorted(drawn["tables"][0]) == sorted(players)
        assert drawn["devices"] == [TABLE]
        message = await asyncio.wait_for(watcher.deliver_message(), wire.WAIT)
        while message.topic != name.decode():  # amqtt hands a new subscriber other retained messages too
            message = await asyncio.wait_for(watcher.deliver_message(), wire.WAIT)
        body = club.open_signed(SECRET, name, bytes(message.data))
        assert body is not None and club.decode_table(body) == (1, 1, 1, 300, drawn["tables"][0])
        late = wire.MQTTClient(client_id="late", config={"auto_reconnect": False})  # a table that comes online later
        await late.connect("mqtt://127.0.0.1:%d" % port)
        await late.subscribe([(name.decode(), wire.QOS_1)])
        kept = await asyncio.wait_for(late.deliver_message(), wire.WAIT)
        while kept.topic != name.decode():
            kept = await asyncio.wait_for(late.deliver_message(), wire.WAIT)
        assert kept.publish_packet.retain_flag and bytes(kept.data) == bytes(message.data)
        await late.disconnect()
        board = events.until(lambda b: b["tournament"] is not None)
        assert board["tournament"]["round"] == 1
        status, answer = await loop.run_in_executor(None, post_round, board_port(hub), {
            "password": "geheim", "players": players + ["Emil", "Fritz"], "tables": 2})
        assert status == 400 and "2 tables asked for, 1 paired" in answer["error"]
        await watcher.disconnect()
        await table.close()

    try:
        asyncio.run(asyncio.wait_for(evening(), 120))
    finally:
        events.close()
        status = hub.stop()
    assert status == 0, hub.output()


@pytest.fixture
def two_tables(tmp_path):
    path = tmp_path / "history.sqlite3"
    with Registry(path) as registry:
        registry.pair(DEVICE, "Tisch 1", SECRET, CLUB)
        registry.pair(OTHER, "Tisch 2", OTHER_SECRET, CLUB)
    return path


def organisers_hub(db):
    """`tafel club serve` with the organiser's password, ready: (process, the broker's port)."""
    return wire._on_a_free_port(
        lambda at: wire.hub(db, "--listen", "127.0.0.1:%d" % at, "--password", "geheim"), "ready", "cannot listen")


def board_now(port):
    with urllib.request.urlopen("http://127.0.0.1:%d/board.json" % port, timeout=wire.WAIT) as answer:
        return json.loads(answer.read())


async def table_message(port, device, secret):
    """The TABLE message a table coming online finds for `device` (round, table, variant, target, names)."""
    watcher = wire.MQTTClient(client_id="watcher-" + device, config={"auto_reconnect": False})
    await watcher.connect("mqtt://127.0.0.1:%d" % port)
    name = club.topic(CLUB, device, "table")
    await watcher.subscribe([(name.decode(), wire.QOS_1)])
    message = await asyncio.wait_for(watcher.deliver_message(), wire.WAIT)
    while message.topic != name.decode():
        message = await asyncio.wait_for(watcher.deliver_message(), wire.WAIT)
    await watcher.disconnect()
    return club.decode_table(club.open_signed(secret, name, bytes(message.data)))


def test_a_hub_started_again_keeps_its_round_and_draws_the_next_as_swiss(two_tables):
    players = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"]
    hub, _ = organisers_hub(two_tables)
    try:
        status, one = post_round(board_port(hub), {"password": "geheim", "players": players, "tables": 2,
                                                   "variant": "penalty", "target": 300})
        assert status == 200 and one["round"] == 1
    finally:
        assert hub.stop() == 0, hub.output()

    hub, port = organisers_hub(two_tables)  # the broker built in is new too: it kept nothing
    try:
        assert board_now(board_port(hub))["tournament"] == {"round": 1, "tables": one["tables"]}
        assert asyncio.run(table_message(port, OTHER, OTHER_SECRET)) == (1, 2, 1, 300, one["tables"][1])
        status, two = post_round(board_port(hub), {"password": "geheim", "players": players, "tables": 2})
        assert status == 200 and two["round"] == 2
        assert asyncio.run(table_message(port, DEVICE, SECRET)) == (2, 1, 0, 500, two["tables"][0])
    finally:
        assert hub.stop() == 0, hub.output()
    with Registry(two_tables) as registry:
        kept = registry.rounds(CLUB, evening_of(time.time()))
    assert [r.number for r in kept] == [1, 2] and kept[1].seed == kept[0].seed + 1
    # Swiss, parting who met, with the seed the hub would have used had it never stopped
    assert two["tables"] == draw.next_round(players, 2, [], [one["tables"]], kept[0].seed + 1)
    assert draw.repeats(two["tables"], [one["tables"]]) == 2  # tables of three out of two tables of three: the least
