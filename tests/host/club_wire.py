# The club evening on the wire, for the hub's end-to-end tests: `tafel club serve` as a process of its
# own, a table that speaks MQTT as the device does (amqtt's client), Mosquitto on a port of its own.
# Nothing sleeps: every wait is for a line, an ACK or a process, with a timeout.
import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading

from amqtt.client import MQTTClient
from amqtt.mqtt.constants import QOS_1

from club_fixtures import CLUB, DEVICE, SECRET
from tafel import club, journal

WAIT = 30  # s: the longest any one wait may take before the test fails


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def mosquitto():
    """The mosquitto program (Debian puts it in /usr/sbin, off a user's PATH), or None."""
    return shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto",) if os.access(p, os.X_OK)), None)


class Process:
    """A program whose output lines are collected as they come; wait_for(text) waits for one holding it."""

    def __init__(self, argv, **kwargs):
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
                                     **kwargs)
        self.lines = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stdout:
            with self._changed:
                self.lines.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self.lines.append(None)  # the end
            self._changed.notify_all()

    def wait_for(self, text, after=0, timeout=WAIT):
        """The index of the first line from `after` on that holds `text` (or one of several texts);
        AssertionError if none comes, or the program ends first."""
        texts = (text,) if isinstance(text, str) else text

        def found():
            for i in range(after, len(self.lines)):
                if self.lines[i] is None or any(t in self.lines[i] for t in texts):
                    return i
            return None

        with self._changed:
            at = self._changed.wait_for(lambda: found() is not None, timeout)
            i = found() if at else None
        assert i is not None and self.lines[i] is not None, "no line with %r from %s:\n%s" % (
            text, self.argv[:4], "\n".join(line for line in self.lines if line is not None))
        return i

    async def wait(self, text, after=0, timeout=WAIT):
        return await asyncio.to_thread(self.wait_for, text, after, timeout)

    def stop(self, sig=signal.SIGINT, timeout=WAIT):
        """Signal it and wait for its end; its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        status = self.proc.wait(timeout)
        self._reader.join(timeout)
        return status

    def kill(self):
        return self.stop(signal.SIGKILL)

    def output(self):
        return "\n".join(line for line in self.lines if line is not None)


def hub(db, *args):
    """`tafel club serve --db DB ARGS` in a process of its own (the live board on a port the system picks,
    unless ARGS name one)."""
    http = () if "--http" in args else ("--http", "127.0.0.1:0")
    return Process([sys.executable, "-m", "tafel_host.cli", "club", "serve", "--db", str(db), *http, *args])


def _on_a_free_port(start, ready, taken, port=None):
    # A server on `port`, else on a free one: a port found free can be taken by another test before
    # the server binds it, so then another one is tried. (process, port), the process ready.
    for _ in range(1 if port else 5):
        at = port or free_port()
        proc = start(at)
        i = proc.wait_for((ready, taken))
        if ready in proc.lines[i]:
            return proc, at
        proc.kill()
    raise AssertionError("no port to listen on:\n" + proc.output())


def hub_listening(db, port=None):
    """`tafel club serve` with the broker built in on 127.0.0.1 (`port`, else a free one), ready: (process, port)."""
    return _on_a_free_port(lambda at: hub(db, "--listen", "127.0.0.1:%d" % at), "ready", "cannot listen", port)


def broker(tmp_path, port=None):
    """Mosquitto on 127.0.0.1 (`port`, else a free one), sessions in memory only, running: (process, port)."""
    def start(at):
        conf = tmp_path / ("mosquitto-%d.conf" % at)
        # its log on stderr: stdout into a pipe is held back in a buffer until it ends
        conf.write_text("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\n" % at)
        return Process([mosquitto(), "-c", str(conf)])

    return _on_a_free_port(start, " running", "Address already in use", port)


class Table:
    """A table as the device is on the wire: its records published QoS 1 on its records topic, the ACKs
    read from its ack topic (signature checked); it keeps every record not acknowledged and sends
    those again after connecting again (send_unacked)."""

    def __init__(self, url, payloads, game_id=7, device=DEVICE, secret=SECRET, club_name=CLUB):
        self.url = url
        self.payloads = payloads
        self.game_id = game_id
        self.device = device
        self.secret = secret
        self.club = club_name
        self.acked = 0  # every record before it is stored, as the highest ACK says
        self.acks = []  # every ACK's next sequence, as they came
        self.client = None
        self._reader = None
        self._changed = None

    async def connect(self):
        self._changed = self._changed or asyncio.Condition()
        self.client = MQTTClient(client_id=self.device, config={"auto_reconnect": False, "connection_timeout": 5})
        await self.client.connect(self.url, cleansession=False)
        await self.client.subscribe([(club.topic(self.club, self.device, "ack").decode(), QOS_1)])
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self):
        while True:
            message = await self.client.deliver_message()
            if message is None:  # the connection is gone
                return
            body = club.open_signed(self.secret, message.topic.encode(), bytes(message.data))
            assert body is not None, "an ACK the table cannot verify"
            game_id, next_seq = club.decode_ack(body)
            assert game_id == self.game_id
            async with self._changed:
                self.acks.append(next_seq)
                self.acked = max(self.acked, next_seq)  # an old ACK never takes the table back
                self._changed.notify_all()

    async def send(self, seqs):
        name = club.topic(self.club, self.device, "records")
        for seq in seqs:
            body = club.encode_record(self.game_id, journal.frame(seq, self.payloads[seq]))
            await self.client.publish(name.decode(), club.sign(self.secret, name, body), QOS_1)

    async def send_unacked(self, upto=None):
        """Every record from the highest ACK on (to `upto`): what a device sends after connecting again."""
        await self.send(range(self.acked, len(self.payloads) if upto is None else upto))

    async def status(self, text):
        await self.client.publish(club.topic(self.club, self.device, "status").decode(), text, QOS_1, retain=True)

    async def wait_acked(self, n, timeout=WAIT):
        """Until the hub has acknowledged every record before `n`."""
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: self.acked >= n), timeout)

    async def wait_acks(self, count, timeout=WAIT):
        """Until `count` ACKs have come in all."""
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: len(self.acks) >= count), timeout)

    async def wait_gone(self, timeout=WAIT):
        """Until the connection has dropped (the broker went away)."""
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)

    async def close(self):
        if self.client is not None:
            try:
                await self.client.disconnect()
            except Exception:  # gone already
                pass
            await self.client.cancel_tasks()
        if self._reader is not None:
            self._reader.cancel()
