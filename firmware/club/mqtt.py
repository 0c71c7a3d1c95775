# A minimal MQTT 3.1.1 client that never waits: the club link's (club/table.py), stepped from the main loop.
#
# Why not micropython-lib's umqtt.simple: its connect() sends CONNECT and reads the CONNACK on a
# blocking socket (seconds when the hub's laptop is away, a whole TCP timeout when its address
# does not answer), publish() at QoS 1 reads until the PUBACK comes, and wait_msg()/check_msg()
# read the rest of a packet blocking once its first byte is there. A table's keys must answer
# within 50 ms (docs/design.md, section 8) also while the link connects, publishes or times out,
# so here every wait is a state looked at again in the next 10 ms step: the socket is
# non-blocking from before its connect(), a packet goes out as far as the socket takes it (the
# rest in the next steps), and reads take what has arrived and act on whole packets only.
# Freezing umqtt.simple and driving its socket non-blocking would still leave its reads, which
# take a packet in several calls and give up with an OSError on a packet that is still coming.
#
# What it speaks (OASIS MQTT Version 3.1.1): CONNECT with a clean session 0 (the broker keeps the
# subscriptions and what comes for us while we are away), a will (retained, QoS 1) and a
# keepalive; CONNACK; PUBLISH out at QoS 0 or 1 with packet ids; PUBACK in (counted: the club's
# own acknowledgement is the hub's signed ACK, not the broker's) and out for what comes at QoS 1;
# SUBSCRIBE/SUBACK; PINGREQ/PINGRESP; DISCONNECT. No QoS 2, no user name or password, no TLS.
#
# Memory: `out` holds one packet at a time (the caller builds into it between begin() and
# finish(); a packet larger than it gets a buffer of its own, once) and `rx` what came in; both
# are made with the client, and `rx` grows for a longer packet (up to _RX_MAX: a TABLE of ten long
# names) and keeps that size. An idle step is one non-blocking readinto() straight into `rx`; a
# memoryview slice is made only when bytes go out or a packet came in parts.
#
# No select.poll: on the PyPI unix port the simulator's sockets are the unix port's, subclassed to
# count ESP-IDF's heap (sim/simnet.py), and a subclass of a native socket cannot be polled there. The connection is
# known to be made when the CONNECT's bytes are taken (a write before that says EAGAIN, or
# EINPROGRESS on lwIP), and to have failed when a write or read says why.
import errno

from micropython import const

CLOSED = const(0)  # no socket
OPENING = const(1)  # TCP connecting; CONNECT waits in `out`
WAITING = const(2)  # CONNECT sent or going, no CONNACK yet
UP = const(3)  # connected: the broker took us
_OPEN_MS = const(10000)  # TCP connect and CONNACK, at most
_HEAD = const(5)  # `out` keeps room for the fixed header: a type byte and up to 4 bytes of length
_RX_MAX = const(768)  # a packet longer than rx grows it up to this (a TABLE of ten 20-letter names in UTF-8)
_TOO_LONG = const(7)  # errno E2BIG: a remaining length of more than 4 bytes
_IPPROTO_TCP = const(6)  # the same numbers on lwIP, Linux and macOS (the unix port names neither)
_TCP_NODELAY = const(1)
_NOT_YET = (errno.EAGAIN, errno.EINPROGRESS, errno.ENOTCONN)  # a write while the socket still connects


class Client:
    def __init__(self, client_id, size=384, rx_size=256, keepalive_s=60):
        self.id = client_id
        self.out = bytearray(size)
        self.rx = bytearray(rx_size)
        self._rmv = memoryview(self.rx)
        self.keepalive = keepalive_s
        self.state = CLOSED
        self.sock = None
        self.big = None  # a packet too long for `out`: its own buffer while it goes
        self.start = self.end = 0  # the packet still to write: buffer[start:end]
        self.fill = 0  # bytes held in rx
        self.skip = 0  # bytes of a packet too long for rx still to drop
        self.pid = 0  # the last packet id used
        self.since = 0  # when the state began
        self.sent_at = 0  # when a packet last went out (the keepalive's ping)
        self.heard_at = 0  # when the broker was last heard
        self.acks = []  # packet ids of QoS 1 messages that came and want their PUBACK
        self.subacks = 0  # SUBACKs come
        self.pubacks = 0  # PUBACKs come
        self.error = None  # why the last connection ended (an errno, or a word)

    # ---- connecting and closing ---------------------------------------------------------

    def open(self, addr, will_topic, will_message, now):
        """Start connecting to `addr` (a socket address from getaddrinfo); CONNECT waits in `out`."""
        import socket  # here: in the simulator the station makes it the counted one (sim/simnet.py)

        self.close()
        s = socket.socket()
        try:
            try:  # each packet goes out whole at once: no waiting for the broker's delayed ACK (Nagle)
                s.setsockopt(_IPPROTO_TCP, _TCP_NODELAY, 1)
            except OSError:
                pass
            s.setblocking(False)
            try:
                s.connect(addr)
            except OSError as err:
                if err.args[0] != errno.EINPROGRESS:
                    raise
        except BaseException:
            s.close()
            raise
        self.sock = s
        self.state, self.since = OPENING, now
        self.heard_at = self.sent_at = now
        self.error = None
        self._connect(will_topic, will_message)

    def _connect(self, will_topic, will_message):
        out = self.out
        at = _HEAD
        out[at:at + 7] = b"\x00\x04MQTT\x04"
        at += 7
        out[at] = 0x04 | 0x08 | 0x20  # will, will QoS 1, will retained; clean session 0: the broker keeps ours
        out[at + 1] = self.keepalive >> 8
        out[at + 2] = self.keepalive & 0xFF
        at = self._string(self._string(self._string(at + 3, self.id), will_topic), will_message)
        self.finish(at, 0x10)

    def _string(self, at, data):
        # a 2-byte length and the bytes
        n = len(data)
        out = self.out
        out[at] = n >> 8
        out[at + 1] = n & 0xFF
        out[at + 2:at + 2 + n] = data
        return at + 2 + n

    def close(self):
        """Drop the connection at once (a will is then sent by the broker)."""
        s = self.sock
        self.sock = None
        self.state = CLOSED
        self.start = self.end = self.fill = self.skip = 0
        self.big = None
        self.acks = []
        if s is not None:
            try:
                s.close()
            except OSError:
                pass

    def disconnect(self):
        """Say goodbye if the line is free (the will is not sent then), and close."""
        if self.state == UP and self.end == 0:
            try:
                self.sock.write(b"\xe0\x00")
            except OSError:
                pass
        self.close()

    # ---- the step -------------------------------------------------------------------------

    def step(self, now, on_message):
        """Move on: connect, write, read, ping. on_message(topic, payload) for each PUBLISH that
        comes (memoryviews into rx, valid during the call). Any error closes (self.error says it)."""
        if self.state == CLOSED:
            return
        try:
            if self.end:
                self._write(now)
            if self.state == OPENING:  # the CONNECT not taken yet: still connecting
                if now - self.since >= _OPEN_MS:
                    self._fail("timeout")
                return
            self._read(now, on_message)
            if self.state == WAITING:
                if now - self.since >= _OPEN_MS:
                    self._fail("timeout")
                return
            if self.state == UP:
                self._keep(now)
        except OSError as err:
            self._fail(err.args[0])

    def _fail(self, why):
        self.close()
        self.error = why

    def _keep(self, now):
        if now - self.heard_at >= self.keepalive * 1500:  # the broker said nothing for 1.5 keepalives
            self._fail("silent")
        elif self.end == 0 and self.acks:
            self._small(0x40, self.acks.pop(0))
            self._write(now)
        elif self.end == 0 and now - self.sent_at >= self.keepalive * 500:
            out = self.out
            out[0] = 0xC0
            out[1] = 0
            self.start, self.end = 0, 2
            self._write(now)

    def _small(self, kind, pid):
        out = self.out
        out[0], out[1], out[2], out[3] = kind, 2, pid >> 8, pid & 0xFF
        self.start, self.end = 0, 4

    def _write(self, now):
        buf = self.big if self.big is not None else self.out
        try:
            n = self.sock.write(memoryview(buf)[self.start:self.end])
        except OSError as err:
            if self.state != OPENING or err.args[0] not in _NOT_YET:
                raise
            return  # lwIP: the connection is still being made
        if n:
            self.start += n
            self.sent_at = now
            if self.state == OPENING:
                self.state, self.since = WAITING, now  # the socket took bytes: connected
        if self.start >= self.end:
            self.start = self.end = 0
            self.big = None

    def _read(self, now, on_message):
        rx = self.rx
        if self.fill >= len(rx):  # never: a packet too long is skipped, not kept
            raise OSError(_TOO_LONG)
        n = self.sock.readinto(self._rmv[self.fill:] if self.fill else rx)
        if n is None:
            return
        if not n:
            raise OSError(errno.ECONNRESET)  # the broker closed the connection
        self.heard_at = now
        self.fill += n
        while self.fill:
            if self.skip:
                self._drop(min(self.skip, self.fill))
                continue
            length, i = 0, 1
            while True:  # the remaining length: 1 to 4 bytes of 7 bits, the least first
                if i >= self.fill:
                    return
                b = rx[i]
                length |= (b & 0x7F) << (7 * (i - 1))
                i += 1
                if b < 0x80:
                    break
                if i > 4:
                    raise OSError(_TOO_LONG)
            total = i + length
            if total > len(rx):
                if total > _RX_MAX:  # longer than any message of ours: dropped whole
                    self.skip = total
                    continue
                rx = self._grow(total)  # a TABLE of ten long names: room for it from now on
            if self.fill < total:
                return
            self._packet(rx[0], i, total, on_message)
            self._drop(total)

    def _grow(self, size):
        rx = bytearray(size)
        rx[:self.fill] = self._rmv[:self.fill]
        self.rx, self._rmv = rx, memoryview(rx)
        return rx

    def _drop(self, n):
        rest = self.fill - n
        if rest:
            self.rx[0:rest] = self._rmv[n:self.fill]
        self.fill = rest
        if self.skip:
            self.skip -= n

    def _packet(self, head, at, end, on_message):
        rx = self.rx
        kind = head & 0xF0
        if kind == 0x30:  # PUBLISH
            size = rx[at] << 8 | rx[at + 1]
            topic = self._rmv[at + 2:at + 2 + size]
            at += 2 + size
            if head & 0x06:  # QoS 1 (2 is not asked for): acknowledge it
                self.acks.append(rx[at] << 8 | rx[at + 1])
                at += 2
            on_message(topic, self._rmv[at:end])
        elif kind == 0x20:  # CONNACK: session present, return code
            if rx[at + 1]:
                raise OSError(1000 + rx[at + 1])  # refused: 1001 protocol .. 1005 not authorised
            self.state = UP
        elif kind == 0x40:
            self.pubacks += 1
        elif kind == 0x90:
            self.subacks += 1
        # PINGRESP and anything else: being heard was all

    # ---- packets out ----------------------------------------------------------------------

    def free(self):
        """Connected, and no packet of ours waiting to go: begin() may build the next one."""
        return self.state == UP and self.end == 0 and not self.acks

    def begin(self, prefix, what, qos, size):
        """Start a PUBLISH to topic prefix + what with room for `size` payload bytes; returns
        (buffer, index) where the payload goes. finish(end, ...) sends it."""
        need = _HEAD + 2 + len(prefix) + len(what) + 2 + size
        buf = self.out
        self.big = None
        if need > len(buf):  # a record larger than any the table usually makes: its own buffer
            buf = self.big = bytearray(need)
        at = _HEAD
        n = len(prefix) + len(what)
        buf[at] = n >> 8
        buf[at + 1] = n & 0xFF
        at += 2
        buf[at:at + len(prefix)] = prefix
        at += len(prefix)
        buf[at:at + len(what)] = what
        at += len(what)
        if qos:
            self.pid = self.pid % 0xFFFF + 1
            buf[at] = self.pid >> 8
            buf[at + 1] = self.pid & 0xFF
            at += 2
        return buf, at

    def finish(self, end, head):
        """Send the packet built in the buffer up to `end`, its type byte `head` (0x30 | qos << 1 |
        retain for a PUBLISH): the remaining length goes just before the variable header."""
        buf = self.big if self.big is not None else self.out
        length = end - _HEAD
        n = 1 if length < 0x80 else 2 if length < 0x4000 else 3
        start = _HEAD - n - 1
        buf[start] = head
        i = start + 1
        while True:
            b = length & 0x7F
            length >>= 7
            buf[i] = b | 0x80 if length else b
            i += 1
            if not length:
                break
        self.start, self.end = start, end

    def subscribe(self, prefix, whats):
        """SUBSCRIBE to prefix + each of `whats`, QoS 1."""
        out = self.out
        self.pid = self.pid % 0xFFFF + 1
        out[_HEAD] = self.pid >> 8
        out[_HEAD + 1] = self.pid & 0xFF
        at = _HEAD + 2
        for what in whats:
            n = len(prefix) + len(what)
            out[at] = n >> 8
            out[at + 1] = n & 0xFF
            out[at + 2:at + 2 + len(prefix)] = prefix
            at += 2 + len(prefix)
            out[at:at + len(what)] = what
            at += len(what)
            out[at] = 1
            at += 1
        self.finish(at, 0x82)
