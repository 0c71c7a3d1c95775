# End to end: a simulated table paired with `tafel club pair`, reporting to a real MQTT broker (amqtt)
# on a loopback port, and a hub on it (what host_tools/club's hub does with records: each checked
# and stored in order, an ACK for every signed one). The table plays over the broker's restart: every
# record arrives signed and in order, the table catches up from its cursor once the broker is back,
# and nothing the table had been told the hub has comes twice. Its status mark is read off its glass.
#
# The table is the simulator's chip (SimDevice: the device build where there is one) with its USB
# serial (SimSerial); its time follows the laptop's while the test waits on the hub's messages.
# The second test does the same with the real hub, `tafel club serve` (host_tools/club), killed and
# started again: the game is in the history, every record stored once, nothing refused. The third
# has the organiser draw a round on that hub: the table offers it on home and starts it.
import asyncio
import socket
import threading
import time
from pathlib import Path

from needs import POSIX, needs
from tafel import club
from tafel_host.cli import main
from tafel_host.club.registry import Registry
from tafel_host.sim.device import SimDevice
from tafel_host.sim.launcher import DEFAULT_BOARD, auto_command, find_board, find_run_py
from tafel_host.sim.serial import SimSerial

try:
    from amqtt.broker import Broker
    from amqtt.client import MQTTClient
    from amqtt.mqtt.constants import QOS_1
except ImportError:  # the `club` extra
    Broker = None

pytestmark = [needs(POSIX, "pseudo-terminals", "run it on Linux or macOS"),
              needs(Broker is not None, "amqtt (the club extra)", "pip install -e '.[club]' (make's .venv has it)")]

CLUB = "testclub"
WLAN = "4 C C C # 8 2 3 3 3 wait:1200 3 3 5 5 5 # # # * *"  # from home: network "tafel", no password, home again
GAME = ("1 D D # # 2 6 6 wait:1200 6 6 2 # # # 2 2 3 3 6 6 # # # 2 2 2 5 5 5 3 3 6 6 6 # D # "
        "A D 3 6 D 5 0 B 3 # #")  # Anna, Ben, Cleo; the worked example's round (Anna 89)
ROUND = "# A D 1 2 D 7 # #"  # the next round: the first seat goes out, 12 and 7 left
OFFLINE, CATCHING_UP, ONLINE = "offline", "catching up", "online"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Hub:
    """A broker (amqtt) and a hub client on it, in an asyncio loop of their own (a thread)."""

    def __init__(self, port):
        self.port = port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.broker = self.client = None
        self.secret = None
        self.stored = {}  # game -> [frames], in order
        self.arrivals = []  # (game, seq, stored before): every record as it came
        self.problems = []  # what a hub would refuse
        self.status = None
        self.state = None
        self.news = threading.Event()  # something came

    def run(self, coro, timeout=20):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def start(self):
        self.run(self._start())

    async def _start(self):
        self.broker = Broker({"listeners": {"default": {"type": "tcp", "bind": "127.0.0.1:%d" % self.port}},
                              "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {}}})
        await self.broker.start()
        self.client = MQTTClient(client_id="hub", config={"auto_reconnect": False})
        await self.client.connect("mqtt://127.0.0.1:%d/" % self.port)
        await self.client.subscribe([("tafel/%s/+/records" % CLUB, QOS_1), ("tafel/%s/+/status" % CLUB, QOS_1),
                                     ("tafel/%s/+/state" % CLUB, QOS_1)])
        self.reader = asyncio.ensure_future(self._read(self.client))

    def stop(self):
        self.run(self._stop())

    async def _stop(self):
        self.reader.cancel()
        try:
            await self.client.disconnect()
        except Exception:
            pass
        await self.broker.shutdown()
        self.status = None

    async def _read(self, client):
        while True:
            message = await client.deliver_message()
            if message is None:
                return
            try:
                await self._take(client, message.topic, bytes(message.data))
            except Exception as err:  # noqa: BLE001 (a test's hub: said, then the test fails on it)
                self.problems.append(repr(err))
            self.news.set()

    async def _take(self, client, topic, data):
        _, device, what = club.topic_parts(topic)
        if what == "status":
            self.status = data
            return
        body = club.open_signed(self.secret, topic.encode(), data)
        if body is None:
            self.problems.append("%s: not signed with the secret" % topic)
            return
        if what == "state":
            self.state = club.decode_state(body)
            return
        game, seq, _, frame = club.decode_record(body)
        frames = self.stored.setdefault(game, [])
        self.arrivals.append((game, seq, len(frames)))
        if seq == len(frames):
            frames.append(frame)
        elif seq < len(frames):
            if frames[seq] != frame:
                self.problems.append("record %d of game %d with other bytes" % (seq, game))
        else:
            self.problems.append("record %d of game %d after only %d" % (seq, game, len(frames)))
        name = club.topic(CLUB, device, "ack")
        await client.publish(name.decode(), club.sign(self.secret, name, club.encode_ack(game, len(frames))), QOS_1)

    def close(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class Table:
    """The simulated device with its serial, keys pressed, its time following the laptop's."""

    def __init__(self, flash, device_id=None):
        self.serial = SimSerial()
        command = auto_command(find_run_py(), flash, find_board(DEFAULT_BOARD)) + self.serial.device_args()
        if device_id is not None:  # else the simulator's own, from the flash file's folder
            command += ["--device-id", device_id]
        self.dev = SimDevice(command, log=open(Path(flash).with_suffix(".log"), "w"))
        self.dev.start()
        self.at = time.monotonic()
        self.ms = 0  # the device's time the waits below let pass

    def command(self, argv):
        """A tafel command on this table's serial while the table runs (its time following the
        laptop's): its exit status."""
        done = []
        command = threading.Thread(target=lambda: done.append(main(argv)))
        command.start()
        self.until(lambda: not command.is_alive(), threading.Event(), what=" ".join(argv[:2]))
        return done[0]

    def keys(self, script):
        for token in script.split():
            if token.startswith("wait:"):
                self.dev.wait(int(token[5:]))
            else:
                self.dev.key(token)
        self.at = time.monotonic()

    def until(self, done, event, timeout=60.0, what="it"):
        """Let the device run as the laptop's clock goes (woken by `event`) until done(); fails after timeout."""
        end = time.monotonic() + timeout
        while not done():
            if time.monotonic() > end:
                raise AssertionError("%s did not happen within %.0f s" % (what, timeout))
            event.wait(0.02)
            event.clear()
            now = time.monotonic()
            ms = max(10, int((now - self.at) * 1000))
            self.dev.wait(ms)
            self.ms += ms
            self.at = now

    def acknowledged(self, event, what):
        """Until the table holds every ACK: its mark says online a second (its time) after the
        records went (it says "catching up" once one has waited a second for its ACK)."""
        sent = self.ms
        self.until(lambda: self.ms >= sent + 1100 and self.mark() == ONLINE, event, what=what)

    def mark(self):
        """The club's mark as the glass shows it at the title row's right end (ui/canvas.py)."""
        glass = self.dev.snap()
        x = glass.width - 8
        bg = glass.pixel(x + 7, 0)
        rim = [glass.pixel(x + 7, y) != bg for y in range(8)]
        if any(rim):  # a letter in the cell: the pattern in its last pixel column
            return {(3, 4): OFFLINE, (1, 3, 5): CATCHING_UP, (1, 2, 3, 4, 5, 6): ONLINE}.get(
                tuple(y for y in range(8) if rim[y]))
        middle = tuple(y for y in range(8) if glass.pixel(x + 3, y) != bg)
        return {(1, 5): OFFLINE, (0, 1, 2, 3, 4, 5): CATCHING_UP, (1, 2, 3, 4, 5): ONLINE}.get(middle)

    def text(self):
        """The rows of text on the glass now."""
        return self.dev.snap().text

    def close(self):
        self.dev.close()
        self.serial.close()


def test_a_paired_table_reports_every_record_and_catches_up_after_the_broker_was_away(tmp_path, data_home):
    hub = Hub(free_port())
    hub.start()
    table = Table(tmp_path / "flash.img")
    try:
        table.keys(WLAN)
        db = tmp_path / "hub.sqlite3"
        assert table.command(["club", "pair", "--port", table.serial.path, "--hub", "127.0.0.1:%d" % hub.port,
                              "--table", "7", "--club", CLUB, "--db", str(db)]) == 0
        with Registry(db) as registry:  # the secret the laptop made, as the hub reads it
            (device, secret), = registry.db.execute("SELECT id, secret FROM club_devices").fetchall()
            assert registry.secret(device) == secret
        hub.secret = bytes(secret)
        assert len(hub.secret) == club.SECRET_SIZE
        table.until(lambda: hub.status == b"online", hub.news, what="status online")

        table.keys(GAME)
        table.keys(ROUND)
        table.until(lambda: sum(len(f) for f in hub.stored.values()) == 3, hub.news, what="three records")
        table.acknowledged(hub.news, "every ACK at the table, the mark online")
        (game, frames), = hub.stored.items()
        table.until(lambda: hub.state is not None and hub.state[1] == 2, hub.news, what="the state after round 2")
        assert hub.state[0] == game and hub.state[4:] == (["Anna", "Ben", "Cleo"], [89 + 19, 0, 0])

        hub.stop()  # the broker goes away: the table plays on, its records wait on its flash
        table.until(lambda: table.mark() == OFFLINE, threading.Event(), what="the mark offline")
        table.keys(ROUND)
        table.keys(ROUND)
        before = len(hub.arrivals)
        hub.start()  # back on the same port: the table finds it within its backoff (at most a minute)
        table.until(lambda: len(hub.stored[game]) == 5, hub.news, timeout=120, what="the records played offline")
        table.until(lambda: table.mark() == ONLINE, hub.news, what="the mark online again")

        assert hub.problems == []
        seqs = [seq for _, seq, _ in hub.arrivals]
        assert seqs == [0, 1, 2, 3, 4], seqs  # in order, and none twice: nothing acknowledged came again
        assert [seq for _, seq, _ in hub.arrivals[before:]] == [3, 4]
        records = [journal_payload(frame) for frame in hub.stored[game]]
        from tafel.game import Game

        assert Game.from_records(records).totals()[0] == ("Anna", 89 + 3 * 19)
    finally:
        table.close()
        try:
            hub.stop()
        except Exception:
            pass
        hub.close()


def journal_payload(frame):
    from tafel import journal

    return journal.read_frame(frame)[1]


def test_a_paired_table_reports_to_tafel_club_serve_and_catches_up_after_the_hub_was_killed(tmp_path, data_home):
    import club_wire
    from club_fixtures import game_rows, stored_records

    port = free_port()
    db = tmp_path / "history.sqlite3"
    table = Table(tmp_path / "flash.img")
    hub = None
    wake = threading.Event()  # nothing sets it: the device's time follows the laptop's in steps of 20 ms
    try:
        table.keys(WLAN)
        assert table.command(["club", "pair", "--port", table.serial.path, "--hub", "127.0.0.1:%d" % port,
                              "--table", "Tisch 7", "--club", CLUB, "--db", str(db)]) == 0
        with Registry(db) as registry:
            (device,), = registry.db.execute("SELECT id FROM club_devices").fetchall()
        hub, _ = club_wire.hub_listening(db, port)  # the one club paired: no --club needed
        table.keys(GAME)
        table.keys(ROUND)
        table.until(lambda: len(stored_records(db, device)) == 3, wake, what="three records in the history")
        table.acknowledged(wake, "every ACK at the table, the mark online")
        hub.kill()  # the hub's laptop goes away (its broker with it)
        table.until(lambda: table.mark() == OFFLINE, wake, what="the mark offline")
        table.keys(ROUND)
        table.keys(ROUND)
        hub, _ = club_wire.hub_listening(db, port)
        table.until(lambda: len(stored_records(db, device)) == 5, wake, timeout=120, what="the records played offline")
        records = stored_records(db, device)
        assert [seq for _, seq, _ in records] == [0, 1, 2, 3, 4]
        from tafel.game import Game

        game = Game.from_records([journal_payload(frame) for _, _, frame in records])
        assert game.totals()[0] == ("Anna", 89 + 3 * 19)
        with Registry(db) as registry:
            assert [r for r in registry.rejections() if r.device == device] == []  # nothing refused, none twice
        history = game_rows(db, device)["columns"]  # the game in the history, as tafel history import keeps it
        assert len(history) == 1 and history[0][-1] == 5 and not history[0][-2]
    finally:
        table.close()
        if hub is not None:
            hub.stop()


def test_the_organisers_round_is_offered_on_the_tables_home_and_started_there(tmp_path, data_home):
    # `tafel club serve --password`, a round drawn by POST /round: the table offers it (home's 0) and
    # # starts that game, whose records reach the history with the round's seats, variant and target.
    import club_wire
    from club_fixtures import stored_records
    from tafel.game import Game
    from test_club_live import board_port, post_round

    port = free_port()
    db = tmp_path / "history.sqlite3"
    table = Table(tmp_path / "flash.img")
    hub = None
    wake = threading.Event()  # nothing sets it: the device's time follows the laptop's in steps of 20 ms
    try:
        table.keys(WLAN)
        assert table.command(["club", "pair", "--port", table.serial.path, "--hub", "127.0.0.1:%d" % port,
                              "--table", "Tisch 3", "--club", CLUB, "--db", str(db)]) == 0
        with Registry(db) as registry:
            (device,), = registry.db.execute("SELECT id FROM club_devices").fetchall()
        hub, _ = club_wire._on_a_free_port(
            lambda at: club_wire.hub(db, "--listen", "127.0.0.1:%d" % at, "--password", "geheim"), "ready",
            "cannot listen", port)
        table.until(lambda: table.mark() == ONLINE, wake, what="the table online")
        players = ["Anna", "Ben", "Cleo", "Dora"]
        status, drawn = post_round(board_port(hub), {"password": "geheim", "players": players, "tables": 1,
                                                     "variant": "penalty", "target": 300})
        assert status == 200 and drawn["devices"] == ["Tisch 3"]
        table.until(lambda: "0=Turnier R1" in table.text(), wake, what="the round offered on home: %r" % table.text())
        table.keys("0")
        assert table.text()[1:3] == ["Runde 1, Tisch 1", "Minuspunkte,"], table.text()
        table.keys("#")  # started
        table.until(lambda: len(stored_records(db, device)) == 1, wake, what="the round's game in the history")
        (_, _, frame), = stored_records(db, device)
        game = Game.from_records([journal_payload(frame)])
        assert list(game.players) == drawn["tables"][0] and game.variant == "penalty" and game.target == 300
    finally:
        table.close()
        if hub is not None:
            hub.stop()
