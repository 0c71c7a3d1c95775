# `tafel club serve`: the hub on the organiser's laptop. It subscribes to every table's records,
# state and status, hands each message to ingest and publishes the ACK ingest gives back.
#
# Nothing is lost or stored twice across restarts of the hub or the broker:
#   - an ACK goes out only after its record is committed (ingest), and a table sends again every
#     record not acknowledged; a record stored twice is refused as a duplicate and acknowledged again;
#   - the hub's session is persistent (a fixed client id per club, clean session off, QoS 1), so a
#     broker that stays up (Mosquitto, --broker) keeps what comes while the hub is away and hands it
#     over when the hub is back; after any lost connection the hub connects and subscribes again.
# Ctrl-C (SIGINT) or SIGTERM stops it: the connection is closed, the broker built in stopped, the
# database's pending lines written; exit status 0.
import asyncio
import logging
import signal
import time

from amqtt.client import MQTTClient
from amqtt.mqtt.constants import QOS_1

from ..lang import count, say
from . import broker as embedded
from .board import Board
from .ingest import DUPLICATE, Ingest

log = logging.getLogger("tafel.club")

FLUSH_EVERY = 1.0  # s: the rejection log and the board's rows are written at least this often
RETRY_MAX = 5.0  # s: the longest wait between two tries to reach the broker
BATCH_MAX = 200  # messages taken at one commit at most (those already received when one is delivered)


def client_id(club_name):
    """The hub's MQTT client id: fixed per club, so the broker keeps its session across restarts."""
    return "tafel-hub-" + club_name


def topics(club_name):
    return ["tafel/%s/+/%s" % (club_name, what) for what in ("records", "state", "status")]


class Hub:
    """The hub's MQTT side for one club: run(stop) until `stop` is set. `say` prints a line; `ready`
    (an asyncio.Event) is set once it is subscribed, and cleared while the broker is away."""

    def __init__(self, registry, club_name, url, say_line=print):
        self.registry = registry
        self.club = club_name
        self.url = url
        self.board = Board(registry, club_name)
        self.ingest = Ingest(registry, club_name, self.board)
        self.say = say_line
        self.ready = asyncio.Event()
        self.changed = asyncio.Event()  # set after every message taken: the live board redraws
        self.client = None  # the connected MQTT client, None while the broker is away
        self.stored = 0
        self.refused = 0
        self._flushed = time.monotonic()

    async def run(self, stop):
        delay, told, lost_before = 0.25, False, False
        while not stop.is_set():
            client = MQTTClient(client_id=client_id(self.club),
                                config={"auto_reconnect": False, "keep_alive": 30, "connection_timeout": 10})
            try:
                if not await _unless_stopped(stop, self._subscribed(client)):
                    await _close(client)
                    break
            except Exception as err:  # amqtt raises ConnectError, OSError, TimeoutError ... : all mean "not now"
                if not told:
                    self.say(say("club_no_broker", self.url, err))
                    told = True
                await _close(client)
                await _wait(stop, delay)
                delay = min(delay * 2, RETRY_MAX)
                continue
            delay, told = 0.25, False
            if lost_before:
                self.say(say("club_back"))
            self.client = client
            self.ready.set()
            lost = await self._consume(client, stop)
            self.ready.clear()
            self.client = None
            await _close(client)
            if lost is not None and not stop.is_set():
                self.say(say("club_lost_broker", lost))
                lost_before = True
        self.registry.flush()

    async def _subscribed(self, client):
        await client.connect(self.url, cleansession=False)
        await client.subscribe([(name, QOS_1) for name in topics(self.club)])

    async def _consume(self, client, stop):
        # Messages until `stop` (None) or the connection is lost (why).
        stopping = asyncio.ensure_future(stop.wait())
        deliver = asyncio.ensure_future(client.deliver_message())
        try:
            while True:
                done, _ = await asyncio.wait({deliver, stopping}, timeout=FLUSH_EVERY,
                                             return_when=asyncio.FIRST_COMPLETED)
                self._flush_due()
                if stopping in done:
                    return None
                if deliver not in done:
                    continue
                try:
                    message = deliver.result()
                except asyncio.CancelledError:  # amqtt cancelled its delivery: the connection closed
                    return "connection closed"
                except Exception as err:
                    return err
                if message is None:  # amqtt's word for a closed connection
                    return "connection closed"
                acks = self.take_all([message] + _waiting(client))
                try:  # the ACKs of a batch together, once it is committed
                    await asyncio.gather(*(client.publish(topic, data, QOS_1) for topic, data in acks))
                except Exception as err:  # the table sends its record again and is answered then
                    return err
                deliver = asyncio.ensure_future(client.deliver_message())
        finally:
            for task in (deliver, stopping):
                task.cancel()

    async def publish(self, topic, data, retain=False):
        """Publish on the connected broker (QoS 1); ValueError, said, while there is none."""
        if self.client is None:
            raise ValueError(say("club_not_connected"))
        await self.client.publish(topic.decode() if isinstance(topic, bytes) else topic, data, QOS_1, retain=retain)

    def take(self, topic, data):
        """One message through ingest, said on the console; the ACK to publish or None."""
        acks = self.take_all([_Message(topic, data)])
        return acks[0] if acks else None

    def take_all(self, messages):
        """Messages (.topic, .data) through ingest at one commit, said on the console once it is made;
        the ACKs to publish then. Many tables at once, or one catching up, cost one commit, not one each."""
        self.changed.set()
        verdicts = []
        self.ingest.begin()
        try:
            for message in messages:
                verdicts.append((message.topic, self.ingest.handle(message.topic, message.data)))
            self.ingest.commit()
        except Exception:  # the database failed under it: no ACK, so the tables send it all again
            log.exception("%d messages not handled", len(messages))
            self.ingest.rollback()
            return []
        return [ack for ack in (self._said(topic, verdict) for topic, verdict in verdicts) if ack is not None]

    def _said(self, topic, verdict):
        # A verdict on the console (and counted); its ACK.
        if verdict.stored:
            self.stored += 1
            self.say(say("club_stored", verdict.table, verdict.device, verdict.game, verdict.seq,
                         say("club_kind_" + verdict.kind)))
        elif verdict.reason is not None:
            if verdict.reason != DUPLICATE:
                self.refused += 1
            self.say(say("club_refused", topic, say("club_why_" + verdict.reason),
                         ": " + verdict.detail if verdict.detail else ""))
        elif verdict.what == "status":
            self.say(say("club_status", verdict.table, verdict.device, verdict.detail))
        return verdict.ack

    def _flush_due(self):
        if time.monotonic() - self._flushed >= FLUSH_EVERY:
            self.registry.flush()
            self._flushed = time.monotonic()


class _Message:
    __slots__ = ("topic", "data")

    def __init__(self, topic, data):
        self.topic, self.data = topic, data


def _waiting(client, most=BATCH_MAX):
    # The messages amqtt has received and not yet handed over (its session's queue), without waiting:
    # they join the batch of the one just delivered.
    queue = getattr(getattr(client, "session", None), "delivered_message_queue", None)
    out = []
    while queue is not None and len(out) < most and not queue.empty():
        out.append(queue.get_nowait())
    return [m for m in out if m is not None]


async def _close(client):
    try:
        await client.disconnect()
    except Exception:  # a connection already gone: nothing left to close
        pass
    await client.cancel_tasks()


async def _unless_stopped(stop, coro):
    """Run `coro` unless `stop` is set first (then it is cancelled): True if it ran to its end."""
    task = asyncio.ensure_future(coro)
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if not task.done():
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return False
    task.result()  # its exception, if it raised
    return True


async def _wait(stop, seconds):
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except asyncio.TimeoutError:
        pass


def embedded_url(host, port):
    """Where the hub reaches the broker built in: on loopback when it listens on every address."""
    return "mqtt://%s:%d" % ("127.0.0.1" if host in ("", "0.0.0.0", "::") else host, port)


async def serve(registry, club_name, url=None, listen=None, say_line=print, stop=None, web=None):
    """The hub until `stop` is set (default: SIGINT or SIGTERM): the broker built in on `listen`
    (host, port) when no broker `url` is given; with `web` ({"http": (host, port) or None, "password",
    "stale_min", "order"}) the live board too. True, or False if the broker built in or the board could
    not listen."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError, ValueError):  # Windows, or not the main thread
            pass
    broker = None
    if url is None:
        host, port = listen
        try:
            broker = await embedded.start(host, port)
        except Exception as err:  # amqtt's BrokerError, with the OSError inside
            say_line(say("club_cannot_listen", "%s:%d" % (host, port), err.__cause__ or err))
            return False
        url = embedded_url(host, port)
        where = say("club_embedded", "%s:%d" % (host, port))
    else:
        where = url
    hub = Hub(registry, club_name, url, say_line)
    board = None
    if web and web.get("http"):
        try:
            board = await _board(hub, web, stop, say_line)
        except OSError as err:
            say_line(say("club_cannot_listen", "%s:%d" % web["http"], err))
            if broker is not None:
                await broker.shutdown()
            return False
    announce = asyncio.ensure_future(_announce(hub, where, say_line))
    try:
        await hub.run(stop)
    finally:
        announce.cancel()
        if board is not None:
            server, task = board
            server.close()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if broker is not None:
            await broker.shutdown()
        say_line(say("club_stopped", count(hub.stored, "club_record"), count(hub.refused, "club_refusal")))
    return True


async def _announce(hub, where, say_line):
    # The ready line, once: when the hub has first subscribed.
    await hub.ready.wait()
    say_line(say("club_ready", hub.club, where, hub.registry.path,
                 count(len(hub.registry.devices(hub.club)), "club_device")))


async def _resend(hub, rounds, stop):
    # The latest round to its tables again on each new connection to the broker (a restart, the broker back).
    sent_on = None
    while not stop.is_set():
        await hub.ready.wait()
        client = hub.client
        if client is not None and client is not sent_on:
            try:
                await rounds.resend()
                sent_on = client
            except Exception as err:  # the broker gone again: on the next connection, then
                log.warning("the tournament's round not sent again: %s", err)
        await _wait(stop, FLUSH_EVERY)


async def _board(hub, web, stop, say_line):
    # The live board's page and its publishing: (server, task).
    from . import live, tournament
    from . import web as page

    rounds = tournament.Tournament(hub, web["order"])  # this evening's rounds so far, as kept
    board = page.LiveBoard(live.view(hub, web["stale_min"], web["order"], rounds.shown()))
    host, port = web["http"]
    server = await page.serve(board, host, port, rounds.draw, web["password"])
    task = asyncio.gather(live.publish_loop(hub, board, web["stale_min"], web["order"], rounds.shown, stop),
                          _resend(hub, rounds, stop))
    say_line(say("club_board_at", "127.0.0.1" if host in ("", "0.0.0.0", "::") else host,
                 server.sockets[0].getsockname()[1]))
    return server, task
