# The MQTT broker built into `tafel club serve` (amqtt's, in the hub's own process), for a club
# without a broker of its own.
#
# Every client may connect: on a club's network the signature (HMAC over topic and body), not the
# broker, decides what the hub believes. The door is open but no client is "anonymous" in amqtt's
# sense, because amqtt keeps no queued messages for anonymous clients: with OpenDoor a persistent
# session (clean session off, QoS 1) keeps what comes while its client is away, the hub's and a
# table's alike. Sessions and queues live in memory: a restart of the hub (and so of this broker)
# loses what was queued, which the tables send again, since they keep every record the hub has not
# acknowledged (docs/club.md).
from amqtt.broker import Broker
from amqtt.plugins.base import BaseAuthPlugin


class OpenDoor(BaseAuthPlugin):
    """amqtt authentication: every client is let in, none marked anonymous (so sessions keep messages)."""

    async def authenticate(self, *, session):
        return True


def config(host, port):
    """amqtt's broker configuration: one TCP listener, the open door, no $SYS topics."""
    return {
        "listeners": {"default": {"type": "tcp", "bind": "%s:%d" % (host, port)}},
        "plugins": {"%s.%s" % (__name__, OpenDoor.__name__): {}},
    }


async def start(host, port):
    """The broker, listening; amqtt's BrokerError if it cannot (the port taken, the address not ours)."""
    broker = Broker(config(host, port))
    await broker.start()
    return broker
