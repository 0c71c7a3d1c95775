# The broker built into `tafel club serve` when many tables come at once: a table resuming its session gets
# the retained messages of its own subscriptions only, and tables resuming together all stay connected.
import asyncio

from needs import needs

try:
    from amqtt.client import MQTTClient
    from amqtt.mqtt.constants import QOS_1

    import club_wire as wire
    from tafel_host.club import broker as embedded
except ImportError:  # no amqtt: skipped here, an error where everything is required (.ci/run)
    wire = None

pytestmark = needs(wire is not None, "amqtt (the club extra)", "make's .venv has it; or pip install -e '.[club]'")
TABLES = 40


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


async def client(url, name, topics=()):
    c = MQTTClient(client_id=name, config={"auto_reconnect": False, "connection_timeout": 10})
    await c.connect(url, cleansession=False)
    if topics:
        await c.subscribe([(t, QOS_1) for t in topics])
    return c


async def close(c):
    await c.disconnect()
    await c.cancel_tasks()


async def received_until(c, last_topic):
    """The topics of the messages a client gets, up to one on `last_topic`."""
    got = []
    while not got or got[-1] != last_topic:
        got.append((await asyncio.wait_for(c.deliver_message(), 30)).topic)
    return got


def test_a_table_resuming_its_session_gets_no_other_tables_retained_messages():
    async def evening():
        port = wire.free_port()
        broker = await embedded.start("127.0.0.1", port)
        url = "mqtt://127.0.0.1:%d" % port
        try:
            hub = await client(url, "tafel-hub-c", ["tafel/c/+/status"])
            other = await client(url, "esp32-other")
            await other.publish("tafel/c/esp32-other/status", b"online", QOS_1, retain=True)
            table = await client(url, "esp32-table", ["tafel/c/esp32-table/ack"])
            await close(table)
            table = await client(url, "esp32-table")  # its session resumed: the ack subscription is kept
            await hub.publish("tafel/c/esp32-table/ack", b"ack", QOS_1)
            assert await received_until(table, "tafel/c/esp32-table/ack") == ["tafel/c/esp32-table/ack"]
            for c in (hub, other, table):
                await close(c)
        finally:
            await broker.shutdown()

    run(evening())


def test_tables_resuming_their_sessions_at_once_all_stay_connected():
    async def evening():
        port = wire.free_port()
        broker = await embedded.start("127.0.0.1", port)
        url = "mqtt://127.0.0.1:%d" % port
        names = ["esp32-%02d" % i for i in range(TABLES)]
        try:
            hub = await client(url, "tafel-hub-c", ["tafel/c/+/status"])
            tables = await asyncio.gather(*(client(url, n, ["tafel/c/%s/ack" % n]) for n in names))
            for n, c in zip(names, tables):
                await c.publish("tafel/c/%s/status" % n, b"online", QOS_1, retain=True)
            await asyncio.gather(*(close(c) for c in tables))
            # back together (the broker came back): each resumes while the others subscribe anew
            tables = await asyncio.gather(*(client(url, n, ["tafel/c/%s/table" % n]) for n in names))
            for n in names:
                await hub.publish("tafel/c/%s/ack" % n, b"ack", QOS_1)
            got = await asyncio.gather(*(received_until(c, "tafel/c/%s/ack" % n) for n, c in zip(names, tables)))
            assert got == [["tafel/c/%s/ack" % n] for n in names]
            for c in [hub] + list(tables):
                await close(c)
        finally:
            await broker.shutdown()

    run(evening())
