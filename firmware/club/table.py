# The club link of a paired table: Wi-Fi, the hub's broker, the journal's records out in order, the
# hub's ACKs in, the table's state, and a mark on the screen. Stepped by the main loop, never waiting.
#
# restart() makes one (app.club) when the flash holds a pairing (store/pairing.py) and a Wi-Fi
# network is set, and runner.py steps it every 10 ms. A step does at most one thing that
# takes time: a Wi-Fi join is asked for and then looked at, the broker's socket is non-blocking
# (club/mqtt.py), and at most one packet is built (a record read from the journal, its MAC).
# Play never waits for the network: a record is on flash before the screen says so, and goes to
# the hub whenever the link is up (club/outbox.py). Reconnecting waits 1, 2, 4 ... 60 s between
# tries, counted on the injected clock.
#
# Topics and bodies: tafel/club.py (what a table needs of it: tafel/club_table.py). After each connection: SUBSCRIBE to ack and table, status
# b"online" (retained; the will says b"offline"), then the records the hub lacks, and STATE
# (retained) whenever the game on the table changed. Only the name lookup of a hub given by
# name rather than address may block (getaddrinfo asks DNS): pair with an IPv4 address.
#
# The mark (app.club_mark, drawn by ui/app.py): ONLINE connected with nothing owed for long, CATCHING_UP records wait
# for the hub's ACK for more than a second, OFFLINE not connected.
from binascii import unhexlify

from micropython import const

import reserve
from tafel import club_table as club  # the table's part of tafel/club.py, all it keeps loaded

from .mqtt import CLOSED, UP, Client
from .outbox import Outbox, Signer, good

OFFLINE = const(0)
CATCHING_UP = const(1)
ONLINE = const(2)
_WAIT = const(0)  # until `at`, then join
_JOIN = const(1)  # the station asked to join
_LINK = const(2)  # the MQTT client's
_BACKOFF_MIN = const(1000)
_BACKOFF_MAX = const(60000)
_JOIN_MS = const(20000)
_CATCH_MS = const(1000)  # records owed this long show "catching up"
_NO_AP = const(201)  # network.WLAN.status(), ESP-IDF's reasons (as update/net.py)
_WRONG_PASSWORD = const(202)
_MAC = const(32)
_OVERHEAD = const(10)  # a journal frame's bytes around its payload
_QOS1 = const(0x32)  # PUBLISH, QoS 1
_QOS1_RETAIN = const(0x33)
_QOS0_RETAIN = const(0x31)
_MODULES = ("club.table", "club.offer", "club.outbox", "club.mqtt", "club", "store.pairing", "tafel.club_table",
            "tafel.club")


def restart(app):
    """(Re)start a table's club link from what the flash says: a pairing (store/pairing.py) and a
    Wi-Fi network set make one, app.club; anything else stops it (the cursor to flash, "offline"
    said, the station off) and its modules let go of the heap. For assemble.py at boot,
    link/pair.py after pairing or unpairing, ui/wifi_entry.py after the network changed."""
    old = app.club
    got = None
    if app.device_id is not None and app.wlan is not None and app.settings.get("wifi_ssid") \
            and app.settings.get("club"):
        from store import pairing

        got = pairing.load(app.store)  # None: damaged (keyval sets it aside): not paired
    if old is not None:
        app.club = None
        if got is not None:  # on with a new link: it starts from the cursor on flash
            old.outbox.save(old.now, True)
        old.stop(got is None)
        _show(app, None)
    if got is not None:
        app.club = Table(app, app.device_id, got)
    elif old is not None:
        old.forget()


def _show(app, mark):
    app.club_mark = mark
    if app.screen is not None:
        app.screen.touch(0)


class Table:
    def __init__(self, app, device_id, pairing):
        self.app = app
        self.store = app.store
        self.host = pairing["host"]
        self.port = pairing["port"]
        self.signer = Signer(unhexlify(pairing["secret"]))
        self.prefix = club.topic(pairing["club"], device_id, "")  # b"tafel/CLUB/DEVICE/"
        self.client = Client(device_id.encode())
        self.on_message = self._message  # bound once: a step makes no bound method
        self.outbox = Outbox(app.store)
        self.wlan = None
        self.phase = _WAIT
        self.at = 0  # when to try again
        self.delay = _BACKOFF_MIN
        self.joined_at = 0
        self.greeted = 0  # this connection: 1 subscribed, 2 status said
        self.told_game = self.told_head = None  # the game and records whose STATE went out
        self.told_over = False
        self.waiting_since = None
        self.now = 0
        self.table = None  # the hub's TABLE: (round, table number, variant, target, names), once one came
        self.table_mark = self.offer = None  # its mark; it again while not started or declined (club/offer.py)
        self.handled = pairing.get("handled")  # the mark of the last one started or declined
        self.mark = None
        self.tries = 0  # connections tried, made (for tests and About)
        self.connections = 0

    # ---- the step --------------------------------------------------------------------------

    def step(self, now):
        self.now = now
        try:
            if self.phase == _WAIT:
                if now - self.at >= 0:
                    self._join(now)
            elif self.phase == _JOIN:
                self._joining(now)
            else:
                self._link(now)
        except Exception as err:  # MemoryError, OSError, a bug: never the game's business
            log = self.app.log
            if log is not None:
                log(err)
            self._retry(now)
        self.outbox.save(now)
        self._show(now)

    def _join(self, now):
        s = self.app.settings
        if self.wlan is None:
            self.wlan = self.app.wlan()
        w = self.wlan
        w.active(True)
        self.tries += 1
        if not w.isconnected():
            w.connect(s.get("wifi_ssid"), s.get("wifi_key") or "")
        self.phase, self.joined_at = _JOIN, now

    def _joining(self, now):
        w = self.wlan
        if w.isconnected():
            import socket  # after the station: in the simulator the counted one then (sim/simnet.py)

            addr = socket.getaddrinfo(self.host, self.port)[0][-1]  # DNS only for a name
            self.client.open(addr, self.prefix + b"status", b"offline", now)
            self.phase, self.greeted = _LINK, 0
            return
        status = w.status()
        if status == _NO_AP or status == _WRONG_PASSWORD or now - self.joined_at >= _JOIN_MS:
            self._retry(now)

    def _link(self, now):
        c = self.client
        if not self.wlan.isconnected():  # the network went (out of range, its router off): join again
            self._retry(now)  # rather than wait out the broker's silence over a half-open connection
            return
        c.step(now, self.on_message)
        if c.state == CLOSED:
            self._retry(now)
            return
        if c.state != UP or not c.free():
            return
        if self.greeted == 0:
            self.delay = _BACKOFF_MIN
            self.connections += 1
            self.outbox.rewind(now)
            self.told_game = None
            c.subscribe(self.prefix, (b"ack", b"table"))
            self.greeted = 1
        elif self.greeted == 1:
            self._status(b"online", _QOS1_RETAIN)
            self.greeted = 2
        elif not self._record(now):
            self._state()
        c.step(now, self.on_message)  # what was built goes out now, as far as the socket takes it

    def _retry(self, now):
        self.client.close()
        self.phase = _WAIT
        self.at = now + self.delay
        self.delay = min(self.delay * 2, _BACKOFF_MAX)

    def _show(self, now):
        if self.client.state == UP and self.greeted == 2:
            if self.outbox.owed():
                if self.waiting_since is None:
                    self.waiting_since = now
                mark = CATCHING_UP if now - self.waiting_since >= _CATCH_MS else ONLINE
            else:
                self.waiting_since = None
                mark = ONLINE
        else:
            self.waiting_since = None
            mark = OFFLINE
        if mark != self.mark:
            self.mark = mark
            _show(self.app, mark)

    # ---- what goes out -----------------------------------------------------------------------

    def _status(self, word, head):
        buf, at = self.client.begin(self.prefix, b"status", head & 0x06, len(word))
        buf[at:at + len(word)] = word
        self.client.finish(at + len(word), head)

    def _record(self, now):
        # The next record the hub lacks, read from the journal into the packet; False: none now.
        ob = self.outbox
        seq = ob.due(now)
        if seq is None:
            return False
        with reserve.room:  # its file object in one piece, as a save's (reserve.py)
            return self._read_out(ob, ob.game, seq, now)

    def _read_out(self, ob, g, seq, now):
        found = ob.locate(g, seq)
        if found is not None:
            f, size = found
            try:
                sent = self._publish(g, size + _OVERHEAD, f)
            finally:
                f.close()
            if sent:
                ob.advance(size)
                ob.sent(seq, now)
                return True
            ob.pos = None  # damaged in the main copy: from both copies, below
        frame = ob.frame(g, seq)  # the main copy lacks it, or holds it damaged
        if frame is None:
            if ob.head_of(g) is None:
                ob.at_end(seq)  # a game put away: that was its last record
            return False
        self._publish(g, len(frame), frame)
        ob.sent(seq, now)
        return True

    def _publish(self, g, n, source):
        # RECORD of game g: its frame of n bytes from `source`, an open file at it (read straight
        # into the packet, its CRC checked there; False if it does not hold) or the bytes.
        c = self.client
        buf, at = c.begin(self.prefix, b"records", 1, 7 + n + _MAC)
        start = at
        buf[at] = club.VERSION
        buf[at + 1] = club.RECORD
        at = _varint(buf, at + 2, g)
        view = memoryview(buf)
        if isinstance(source, (bytes, bytearray)):
            buf[at:at + n] = source
        elif source.readinto(view[at:at + n]) != n or not good(view[at:at + n]):
            return False
        at += n
        buf[at:at + _MAC] = self.signer.mac(self.prefix, b"records", view[start:at])
        c.finish(at + _MAC, _QOS1)
        return True

    def _state(self):
        # STATE (retained) when the game on the table changed since it last went out.
        game = self.app.session.game
        if game is None:
            return
        g = game.game_id
        head = self.outbox.head_of(g)
        over = game.finished
        if g == self.told_game and head == self.told_head and over == self.told_over:
            return
        self.told_game, self.told_head, self.told_over = g, head, over
        totals = [t for _, t in game.totals()]
        body = club.encode_state(g, len(game.rounds), game.players.index(game.dealer()), over, game.players,
                                 totals)
        buf, at = self.client.begin(self.prefix, b"state", 1, len(body) + _MAC)
        buf[at:at + len(body)] = body
        at += len(body)
        buf[at:at + _MAC] = self.signer.mac(self.prefix, b"state", body)
        self.client.finish(at + _MAC, _QOS1_RETAIN)

    # ---- what comes in -----------------------------------------------------------------------

    def _message(self, topic, payload):
        prefix = self.prefix
        name = bytes(topic)
        if len(payload) < _MAC + 2 or not name.startswith(prefix):
            return
        what = name[len(prefix):]
        end = len(payload) - _MAC
        if not self.signer.check(prefix, what, payload[:end], payload[end:]):
            return  # not the hub's (forged, damaged, another secret): never believed
        body = bytes(payload[:end])
        try:
            if what == b"ack":
                g, n = club.decode_ack(body)
                self.outbox.ack(g, n, self.now)
            elif what == b"table":
                from .offer import arrived  # only once a round came

                arrived(self, club.decode_table(body), payload[end:])
        except ValueError:  # RecordError: signed, yet not a body we read
            pass

    # ---- stopping -----------------------------------------------------------------------------

    def stop(self, radio_off=False):
        """The link ends (unpaired, a deep sleep coming): "offline" said if the line is free,
        goodbye; the station off too when asked. The cursor is not written here: a deep sleep
        writes nothing to flash (the hub's ACKs tell a woken table what it has), and an unpairing
        has taken its file away."""
        c = self.client
        if c.state == UP and c.free():
            try:
                self._status(b"offline", _QOS0_RETAIN)
                c.step(self.now, self.on_message)
            except Exception:
                pass
        c.disconnect()
        if radio_off and self.wlan is not None:
            try:
                self.wlan.active(False)
            except OSError:
                pass

    def forget(self):
        """The club's modules leave the module table (their heap comes back): after stop()."""
        from unload import forget

        forget(_MODULES)


def _varint(buf, at, n):
    while n >= 0x80:
        buf[at] = n & 0x7F | 0x80
        n >>= 7
        at += 1
    buf[at] = n
    return at + 1
