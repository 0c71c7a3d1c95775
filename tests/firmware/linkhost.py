# Link tests' helpers: a fake serial (byte queues) and a minimal host speaking docs/protocol.md.
#
# The fake has the transport's members (readinto, write, guard, window,
# chunk, rate), so the device runs the real Link through Runner.step; the
# host side uses only tafel.wire, as host_tools does.
import gc

from sim.device import Device
from sim.flashdev import FlashDev
from tafel import wire
from tafel.game import Game
from tafel.records import put_text, put_varint
from uisim import PROFILE


class FakeSerial:
    def __init__(self, rate=0, window=4, chunk=384):
        self.rx = bytearray()  # host -> device, not read yet
        self.lines = []  # device -> host: whole lines not read yet
        self.partial = b""  # and the start of the next one
        self.sent = 0  # bytes ever written
        self.bad = []  # bytes written that are neither printable nor "\n"
        self.rate = rate
        self.window = window
        self.chunk = chunk
        self.guarded = False  # keyboard interrupt off (a session)
        self.guards = []
        self.biggest = 0  # the largest write() so far

    def readinto(self, buf):
        n = min(len(buf), len(self.rx))
        buf[:n] = self.rx[:n]
        self.rx = self.rx[n:]
        return n

    def write(self, data):
        data = bytes(data)
        self.sent += len(data)
        self.biggest = max(self.biggest, len(data))
        for b in data:
            if b != 10 and not 32 <= b <= 126:
                self.bad.append(b)
        while data:  # small pieces only: a long test must not fragment the heap
            end = data.find(b"\n")
            if end < 0:
                self.partial += data
                return
            self.lines.append(self.partial + data[:end + 1])
            self.partial = b""
            data = data[end + 1:]

    def guard(self, on):
        self.guarded = on
        self.guards.append(on)


def device(flash=None, serial=None, **kw):
    gc.collect()  # what the last test left, before a new flash and device
    serial = serial if serial is not None else FakeSerial(**kw)
    dev = Device(PROFILE, flash=flash if flash is not None else FlashDev(), serial=serial,
                 device_id="sim-test")
    dev.errors = []
    dev.app.log = dev.errors.append
    dev.link.log = dev.errors.append
    return dev


class NoAnswer(Exception):
    pass


class Host:
    """The laptop's end: sends lines, steps the device, reads lines back."""

    def __init__(self, dev):
        self.dev = dev
        self.s = getattr(dev.serial, "port", dev.serial)  # the fake, also inside a sim.simusb.SimUSB
        self.seq = 0
        self.pending = []  # lines read, not taken yet

    def send(self, data):
        self.s.rx.extend(data)

    def step(self, ms=10):
        self.dev.advance(ms)

    def lines(self):
        self.pending.extend(self.s.lines)
        self.s.lines = []
        out, self.pending = self.pending, []
        return out

    def read_line(self, max_ms=3000, want=None):
        waited = 0
        while True:
            got = self.lines()
            for i in range(len(got)):
                if want is None or want(got[i]):
                    self.pending = got[i + 1:] + self.pending  # the rest stays for later
                    return got[i]
            if waited >= max_ms:
                raise NoAnswer("no line within %d ms" % max_ms)
            self.step()
            waited += 10

    def handshake(self):
        self.send(b"\nTAFEL?\n")
        line = self.read_line(want=lambda ln: ln.startswith(b"TAFEL!"))
        return wire.parse_hello(line)

    def frame(self, max_ms=3000):
        """The next frame from the device: (kind, seq, body)."""
        while True:
            line = self.read_line(max_ms, lambda ln: ln.startswith(b"~"))
            return wire.decode(line)

    def request(self, kind, body=b"", max_ms=3000, seq=None):
        if seq is None:
            self.seq = (self.seq + 1) & 0xFFFF
            seq = self.seq
        self.send(wire.encode(kind, seq, body))
        while True:
            got = self.frame(max_ms)
            if got[1] == seq and got[0] in (wire.OK, wire.ERR):
                return got[0], got[2]

    def ok(self, kind, body=b"", **kw):
        got, body = self.request(kind, body, **kw)
        assert got == wire.OK, "expected OK, got %r" % (wire.parse_error(body),)
        return body

    def err(self, kind, body=b"", **kw):
        got, body = self.request(kind, body, **kw)
        assert got == wire.ERR, "expected ERR, got OK %r" % (body,)
        return wire.parse_error(body)[0]

    def export(self, mode, *args, lose=None):
        """Runs an export; returns ({id: (flags, [file bytes], status)}, cursor, (games, bytes)).
        lose: stream numbers whose first copy "gets lost" (the host sends ACK resend)."""
        body = bytearray((mode,))
        for n in args:
            put_varint(body, n)
        planned = wire.parse_numbers(self.ok(wire.EXPORT, body), 2)
        games = {}
        expect = 0
        lost = set(lose or ())
        while True:
            kind, seq, body = self.frame()
            if seq != expect:
                continue  # a copy we had, or one after a gap: dropped
            if seq in lost:
                lost.discard(seq)
                self.send(wire.encode(wire.ACK, expect, b"\x01"))
                continue
            expect += 1
            self.send(wire.encode(wire.ACK, expect))
            if kind == wire.GAME:
                game_id, flags, files = wire.parse_game(body)
                games[game_id] = [flags, [bytearray() for _ in files], None, [f[0] for f in files]]
            elif kind == wire.DATA:
                game_id, number, offset, data = wire.parse_data(body)
                g = games[game_id]
                buf = g[1][g[3].index(number)]
                assert offset == len(buf)
                buf.extend(data)
            elif kind == wire.GEND:
                game_id, status = wire.parse_gend(body)
                games[game_id][2] = status
            elif kind == wire.DONE:
                count, g, s = wire.parse_done(body)
                self.changes = wire.done_changes(body)  # (epoch, changes) of the device's change log
                assert count == len(games)
                self.step(50)  # the ACK of DONE goes in
                return ({k: (v[0], v[1], v[2]) for k, v in games.items()}, (g, s), planned)


def decode(files):
    """The tafel.Game of an exported game's files (as the host decodes them)."""
    payloads, problems = wire.journal_records(files)
    assert problems == [], problems
    return Game.from_records(payloads)


def roster_body(flags, names):
    out = bytearray((flags, len(names)))
    for name in names:
        put_text(out, name)
    return out


def journals(dev):
    """Every journal byte on the flash: {path: bytes} of games/ and live/."""
    disk = dev.app.store.disk
    out = {}
    for folder in ("games", "live", "keep"):
        for name, _ in disk.listdir(folder):
            out[folder + "/" + name] = disk.read(folder + "/" + name)
    return out
