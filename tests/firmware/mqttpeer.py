# Club tests' helpers: a tiny MQTT broker for one client over a real loopback socket, and a hub on it.
#
# The Peer speaks just what club/mqtt.py does (MQTT 3.1.1: CONNECT, SUBSCRIBE, PUBLISH at QoS 0 and 1,
# PUBACK, PINGREQ, DISCONNECT), never blocking: a test steps the device and then poll()s the peer,
# in one MicroPython process. The Hub keeps what a real hub would (host_tools/club): the records in
# order per game, an ACK for every signed record with the next sequence it wants.
import errno
import socket

from tafel import club

SECRET = bytes(range(1, 33))
_FIRST_PORT = 47600


def _listen():
    for port in range(_FIRST_PORT, _FIRST_PORT + 200):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
        except OSError as err:
            s.close()
            if err.args[0] == errno.EADDRINUSE:
                continue
            raise
        s.listen(2)
        s.setblocking(False)
        return s, port
    raise OSError("no free port")


def _string(data):
    return bytes((len(data) >> 8, len(data) & 0xFF)) + data


def packet(head, body):
    out = bytearray((head,))
    n = len(body)
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            break
    return bytes(out) + body


class Peer:
    def __init__(self, port=None):
        if port is None:
            self.srv, self.port = _listen()
        else:
            self.port = port
            self.srv = None
            self.listen()
        self.conn = None
        self.buf = b""
        self.connects = []  # (client id, flags, keepalive, will topic, will message)
        self.published = []  # (topic, payload, head) as they came, QoS 1's PUBACKed
        self.subscribed = []
        self.retained = {}
        self.kept = {}  # the hub's retained messages: delivered again on every SUBSCRIBE to them
        self.disconnects = 0
        self.pid = 0
        self.up = False

    def listen(self):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(socket.getaddrinfo("127.0.0.1", self.port)[0][-1])
        s.listen(2)
        s.setblocking(False)
        self.srv = s

    def stop(self):
        """The broker goes away: the listening socket and the connection close."""
        self.drop()
        if self.srv is not None:
            self.srv.close()
            self.srv = None

    def drop(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None
            self.up = False
        self.buf = b""

    def poll(self):
        if self.srv is not None and self.conn is None:
            try:
                got = self.srv.accept()
            except OSError:
                got = None
            if got is not None:
                self.conn = got[0]
                self.conn.setblocking(False)
                self.conn.setsockopt(6, 1, 1)  # TCP_NODELAY: the device's time runs faster than a delayed ACK's
        if self.conn is None:
            return
        try:
            data = self.conn.read(512)
        except OSError:
            data = None
        if data is not None and not data:  # the client closed
            self.drop()
            return
        if data:
            self.buf += data
        while len(self.buf) >= 2:
            n, i, mul = 0, 1, 1
            while True:
                if i >= len(self.buf):
                    return
                b = self.buf[i]
                n += (b & 0x7F) * mul
                mul <<= 7
                i += 1
                if b < 0x80:
                    break
            if len(self.buf) < i + n:
                return
            head, body = self.buf[0], self.buf[i:i + n]
            self.buf = self.buf[i + n:]
            self._packet(head, body)

    def _packet(self, head, body):
        kind = head & 0xF0
        if kind == 0x10:
            at = 2 + body[1] + 1  # protocol name, level
            flags = body[at]
            keepalive = body[at + 1] << 8 | body[at + 2]
            at += 3
            fields = []
            while at < len(body):
                n = body[at] << 8 | body[at + 1]
                fields.append(body[at + 2:at + 2 + n])
                at += 2 + n
            self.connects.append((fields[0], flags, keepalive, fields[1] if len(fields) > 1 else None,
                                  fields[2] if len(fields) > 2 else None))
            self.up = True
            self.write(b"\x20\x02\x00\x00")
        elif kind == 0x30:
            n = body[0] << 8 | body[1]
            topic = body[2:2 + n]
            at = 2 + n
            if head & 0x06:
                pid = body[at:at + 2]
                at += 2
                self.write(b"\x40\x02" + pid)
            payload = body[at:]
            self.published.append((topic, payload, head))
            if head & 1:
                self.retained[topic] = payload
        elif kind == 0x80:
            pid = body[:2]
            at = 2
            topics = []
            while at < len(body):
                n = body[at] << 8 | body[at + 1]
                topics.append(body[at + 2:at + 2 + n])
                at += 3 + n
            self.subscribed.extend(topics)
            self.write(packet(0x90, pid + b"\x01" * len(topics)))
            for topic in topics:  # as a broker does: what is retained there follows the SUBACK
                if topic in self.kept:
                    self.publish(topic, self.kept[topic], retain=True)
        elif kind == 0xC0:
            self.write(b"\xd0\x00")
        elif kind == 0xE0:
            self.disconnects += 1
            self.drop()

    def write(self, data):
        if self.conn is not None:
            try:
                self.conn.write(data)
            except OSError:
                self.drop()

    def publish(self, topic, payload, qos=1, retain=False):
        """To the client; retain=True: kept too, and sent again after each SUBSCRIBE to `topic`."""
        if retain:
            self.kept[topic] = payload
        body = _string(topic)
        if qos:
            self.pid += 1
            body += bytes((self.pid >> 8, self.pid & 0xFF))
        self.write(packet(0x30 | qos << 1 | (1 if retain else 0), body + payload))

    def messages(self, what):
        """The payloads published to topics ending in /what, in order."""
        end = b"/" + what
        return [payload for topic, payload, _ in self.published if topic.endswith(end)]


class Hub:
    """What the club's hub does with the records a Peer got: each checked, stored in order, acknowledged."""

    def __init__(self, peer, club_name, device_id, secret=SECRET):
        self.peer = peer
        self.secret = secret
        self.records = club.topic(club_name, device_id, "records")
        self.ack_topic = club.topic(club_name, device_id, "ack")
        self.stored = {}  # game -> [frames]
        self.seen = 0  # records of peer.published looked at
        self.looked = 0
        self.late = []  # (game, seq) that came after the device had been told the hub had them
        self.told = {}  # game -> the highest ACK sent
        self.quiet = False  # True: records are taken, no ACK goes back

    def take(self):
        published = self.peer.published
        while self.looked < len(published):
            topic, payload, _ = published[self.looked]
            self.looked += 1
            if topic != self.records:
                continue
            body = club.open_signed(self.secret, topic, payload)
            assert body is not None, "a record that does not verify"
            game, seq, _, frame = club.decode_record(body)
            frames = self.stored.setdefault(game, [])
            if seq < self.told.get(game, 0):
                self.late.append((game, seq))
            if seq == len(frames):
                frames.append(frame)
            elif seq < len(frames):
                assert frames[seq] == frame, "record %d of game %d came with other bytes" % (seq, game)
            if not self.quiet:
                self.ack(game, len(frames))

    def ack(self, game, next_seq):
        self.told[game] = max(self.told.get(game, 0), next_seq)
        self.peer.publish(self.ack_topic, club.sign(self.secret, self.ack_topic, club.encode_ack(game, next_seq)))
