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
#
# Many tables connecting at once (the evening's start, the broker back after a restart) meet two
# faults of amqtt 0.12.1's broker, which HubBroker mends: a session that resumes walks the
# subscription table of every client while awaiting, so a subscription made meanwhile ends that
# connection with "dictionary changed size during iteration"; and it sends the resuming client the
# retained messages of every filter anyone holds (each table would get every table's status and
# STATE). Here the walk goes over a copy, and retained messages go only to a filter the client holds.
from amqtt.broker import Broker
from amqtt.plugins.base import BaseAuthPlugin


class _Subscriptions(dict):
    """amqtt's topic filter -> [(session, qos)]: iterated over a copy of its keys, so it may change meanwhile."""

    def __iter__(self):
        return iter(list(self.keys()))


class HubBroker(Broker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._subscriptions = _Subscriptions(self._subscriptions)

    async def _publish_retained_messages_for_subscription(self, subscription, session):
        holders = self._subscriptions.get(subscription[0], ())
        if any(held.client_id == session.client_id for held, _ in holders):
            await super()._publish_retained_messages_for_subscription(subscription, session)


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
    broker = HubBroker(config(host, port))
    await broker.start()
    return broker
