# Lightweight club tables for bench/club_load.py: a bare MQTT 3.1.1 client on asyncio streams and a table on it.
#
# A table speaks what firmware/club/table.py speaks: CONNECT with clean session 0 and its retained
# "offline" will, SUBSCRIBE to its ack topic, status "online" (retained), then every record the
# hub has not acknowledged, in order, signed (tafel.club), and STATE (retained) after each record.
# It plays one round every `period` seconds, keeps every record until an ACK names a later
# number, and after a lost connection tries again after 1, 2, 4 ... s and sends from its highest ACK.
# A thousand of these fit in one process: no amqtt client (its tasks per client would be the load).
import asyncio
import random
import struct
import time

from tafel import club, journal
from tafel.game import Game

TARGET = 500
MAX_ROUNDS = 25  # then the game ends and the next begins: at most 15 points a round, no one reaches TARGET


def _string(data):
    return struct.pack(">H", len(data)) + data


def _packet(kind, body):
    size, head = len(body), bytearray([kind])
    while True:
        byte, size = size & 0x7F, size >> 7
        head.append(byte | (0x80 if size else 0))
        if not size:
            return bytes(head) + body


class Connection:
    """One MQTT connection: publish() and the messages that come (on_message(topic, payload))."""

    def __init__(self, on_message):
        self.on_message = on_message
        self.reader = self.writer = None
        self.task = None
        self.pid = 0

    async def open(self, host, port, client_id, will_topic, will_message, keepalive=60):
        self.reader, self.writer = await asyncio.open_connection(host, port)
        flags = 0x04 | 0x08 | 0x20  # a will, QoS 1, retained; clean session 0
        body = _string(b"MQTT") + bytes([4, flags]) + struct.pack(">H", keepalive)
        body += _string(client_id.encode()) + _string(will_topic) + _string(will_message)
        self.writer.write(_packet(0x10, body))
        kind, data = await self._read()
        if kind >> 4 != 2 or data[1] != 0:
            raise ConnectionError("CONNACK %r" % data)
        self.task = asyncio.ensure_future(self._loop(keepalive))

    async def _read(self):
        kind = (await self.reader.readexactly(1))[0]
        size, shift = 0, 0
        while True:
            byte = (await self.reader.readexactly(1))[0]
            size |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        return kind, await self.reader.readexactly(size)

    async def _loop(self, keepalive):
        ping = asyncio.ensure_future(self._ping(keepalive))
        try:
            while True:
                kind, data = await self._read()
                if kind >> 4 == 3:  # PUBLISH
                    qos = (kind >> 1) & 3
                    n = struct.unpack(">H", data[:2])[0]
                    topic, at = data[2:2 + n], 2 + n
                    if qos:
                        self.writer.write(_packet(0x40, data[at:at + 2]))
                        at += 2
                    self.on_message(topic, data[at:])
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            ping.cancel()

    async def _ping(self, keepalive):
        while True:
            await asyncio.sleep(keepalive / 2)
            self.writer.write(_packet(0xC0, b""))

    def _pid(self):
        self.pid = self.pid % 65535 + 1
        return struct.pack(">H", self.pid)

    def subscribe(self, topic):
        self.writer.write(_packet(0x82, self._pid() + _string(topic) + b"\x01"))

    def publish(self, topic, payload, retain=False):
        """QoS 1 (its PUBACK is not waited for: the hub's ACK is what the table counts on)."""
        self.writer.write(_packet(0x32 | (1 if retain else 0), _string(topic) + self._pid() + bytes(payload)))

    async def wait_closed(self):
        await asyncio.shield(self.task)

    def close(self):
        if self.writer is not None:
            self.writer.close()
        if self.task is not None:
            self.task.cancel()


class Table:
    """One simulated table. `made`: every record's (game id, seq, frame); `sent_at[(game, rounds)]` the
    time a round record first went out; `acked_at` the times the hub's ACKs of rounds came."""

    def __init__(self, index, club_name, secret, host, port, period, rng):
        self.device = "bench-%04d" % index
        self.name = "Tisch %d" % (index + 1)
        self.index = index
        self.club, self.secret, self.host, self.port = club_name, secret, host, port
        self.period, self.rng = period, rng
        self.topics = {what: club.topic(club_name, self.device, what) for what in ("records", "ack", "status", "state")}
        self.games = []  # [(game id, Game, [payloads])]
        self.acked = {}  # game id -> next seq the hub has
        self.sent_at = {}  # (game id, rounds) -> monotonic time of its first send
        self.acked_rounds = []  # monotonic times of ACKs that took a round for the first time
        self.conn = None
        self.connects = 0
        self._new_game()

    def _new_game(self):
        game_id = len(self.games) + 1
        players = ["T%dG%d%s" % (self.index + 1, game_id, s) for s in "abcd"]
        game = Game(players, "standard", TARGET, None, int(time.time()), game_id)
        self.games.append((game_id, game, [game.create_record()]))
        self.acked[game_id] = 0

    def players(self, game_id):
        return self.games[game_id - 1][1].players

    def made(self):
        for game_id, _, payloads in self.games:
            for seq, payload in enumerate(payloads):
                yield game_id, seq, journal.frame(seq, payload)

    def owed(self):
        return sum(len(p) - self.acked[g] for g, _, p in self.games)

    def _on_message(self, topic, payload):
        body = club.open_signed(self.secret, topic, payload)
        if body is None or topic != self.topics["ack"]:
            return
        game_id, next_seq = club.decode_ack(body)
        before = self.acked.get(game_id, 0)
        if next_seq > before:
            self.acked[game_id] = next_seq
            now = time.monotonic()
            self.acked_rounds.extend(now for seq in range(before, next_seq) if seq > 0)

    def _send(self, game_id, seq):
        payloads = self.games[game_id - 1][2]
        body = club.encode_record(game_id, journal.frame(seq, payloads[seq]))
        self.conn.publish(self.topics["records"], club.sign(self.secret, self.topics["records"], body))

    def _send_state(self):
        game_id, game, _ = self.games[-1]
        body = club.encode_state(game_id, len(game.rounds), game.players.index(game.dealer()),
                                 game.finished or game.ended_early, game.players, [t for _, t in game.totals()])
        self.conn.publish(self.topics["state"], club.sign(self.secret, self.topics["state"], body), retain=True)

    async def _connect(self):
        delay = 1.0
        while True:
            conn = Connection(self._on_message)
            try:
                await conn.open(self.host, self.port, self.device, self.topics["status"], b"offline")
            except (OSError, ConnectionError, asyncio.IncompleteReadError):
                conn.close()
                await asyncio.sleep(delay * (0.5 + self.rng.random()))  # tables come back spread out
                delay = min(delay * 2, 60.0)
                continue
            self.conn = conn
            self.connects += 1
            conn.subscribe(self.topics["ack"])
            conn.publish(self.topics["status"], b"online", retain=True)
            for game_id, _, payloads in self.games:  # what the hub lacks, in order
                for seq in range(self.acked[game_id], len(payloads)):
                    self._send(game_id, seq)
            self._send_state()
            return

    def play_round(self):
        """One round on the table (a new game when this one has had its rounds); sent if connected."""
        game_id, game, payloads = self.games[-1]
        if len(game.rounds) >= MAX_ROUNDS:
            payload = game.finish_record(int(time.time()))
            game.apply(payload)
            payloads.append(payload)
            if self.conn is not None:
                self._send(game_id, len(payloads) - 1)
            self._new_game()
            game_id, game, payloads = self.games[-1]
            if self.conn is not None:
                self._send(game_id, 0)
        names = game.players
        winner = names[self.rng.randrange(len(names))]
        hands = {n: self.rng.randint(1, 5) for n in names if n != winner}
        payload = game.round_record(hands, winner)
        game.apply(payload)
        payloads.append(payload)
        self.sent_at[(game_id, len(game.rounds))] = time.monotonic()
        if self.conn is not None:
            self._send(game_id, len(payloads) - 1)
            self._send_state()

    async def run(self, start, until):
        """Connected from `start` (monotonic), a round every period from a random phase until `until`; after a
        lost connection, connected again. Returns when the last round is played."""
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        await self._connect()
        keeper = asyncio.ensure_future(self._keep_connected())
        try:
            at = time.monotonic() + self.rng.uniform(0, self.period)
            while at < until:
                await asyncio.sleep(max(0.0, at - time.monotonic()))
                self.play_round()
                at += self.period
        finally:
            self._keeper = keeper

    async def _keep_connected(self):
        while True:
            await self.conn.wait_closed()
            self.conn = None
            await asyncio.sleep(self.rng.uniform(0.5, 1.5))
            await self._connect()

    def close(self):
        keeper = getattr(self, "_keeper", None)
        if keeper is not None:
            keeper.cancel()
        if self.conn is not None:
            self.conn.close()


def tables(n, club_name, host, port, period, seed=1):
    """n tables, each with its secret (pair them in the registry before they connect)."""
    rng = random.Random(seed)
    return [Table(i, club_name, rng.randbytes(32), host, port, period, random.Random(seed * 100003 + i))
            for i in range(n)]
