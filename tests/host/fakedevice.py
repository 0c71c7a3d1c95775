# A fake Tafel for the host tests: speaks docs/protocol.md on a loopback TCP socket (pyserial's socket://).
#
# It holds games as journal files (bytes built with the core) and serves the
# handshake, requests and the windowed export stream with go-back-N, so the
# real client runs against it. Faults on purpose: `vanish_after` closes the
# connection after that many stream frames (a cable pulled), `mute_after`
# stops answering but stays connected, `garble` and `skip` damage or leave
# out the first sending of the stream frames with those numbers.
import select
import socket
import threading
import time
from types import SimpleNamespace

from tafel import wire
from tafel.records import put_varint
from tafel_host.history.database import epoch as export_epoch
from tafel_host.link import export


class FakeDevice:
    def __init__(self, games=(), device_id="fake-0001", window=4, chunk=64, resend_s=0.3):
        self.device_id = device_id
        self.window, self.chunk, self.resend_s = window, chunk, resend_s
        self.games = {}  # id -> {"files": [bytes], "exported": bool, "live": bool}
        for game_id, files in games:
            self.add(game_id, files)
        self.clock = 0
        self.roster = ["Anna", "Ben"]
        self.log = []  # (kind name, body) of every request taken
        self.vanish_after = self.mute_after = None
        self.garble, self.skip = set(), set()
        self.drop_replies = 0
        self.sent_stream = 0  # stream frames sent, resends included
        self._server = socket.socket()
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(4)
        self._server.settimeout(0.05)  # so close() is noticed at once
        self.url = "socket://127.0.0.1:%d" % self._server.getsockname()[1]
        self._stop = False
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def add(self, game_id, files, live=False):
        self.games[game_id] = {"files": [bytes(f) for f in files], "exported": False, "live": live}

    def records(self, game_id):
        return len(wire.journal_records(self.games[game_id]["files"])[0])

    def close(self):
        self._stop = True
        self._server.close()
        self._thread.join(2)

    # ---- connection ----------------------------------------------------------------

    def _accept(self):
        while not self._stop:
            try:
                conn, _ = self._server.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            conn.settimeout(None)
            try:
                self._serve(conn)
            except OSError:
                pass
            finally:
                conn.close()

    def _serve(self, conn):
        self.conn, self.buf, self.session = conn, b"", False
        self.last = None  # (seq, line, reply) of the last request answered
        while not self._stop:
            line = self._readline(None)
            if line is None:
                return
            if self._handle(line) == "vanish":
                return

    def _readline(self, timeout):
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buf:
            wait = 0.05 if deadline is None else max(0, min(0.05, deadline - time.monotonic()))
            ready, _, _ = select.select([self.conn], [], [], wait)
            if ready:
                got = self.conn.recv(4096)
                if not got:
                    return None
                self.buf += got
            elif self._stop or (deadline is not None and time.monotonic() >= deadline):
                return b""
        line, _, self.buf = self.buf.partition(b"\n")
        return line.rstrip(b"\r")

    def _send(self, data):
        self.conn.sendall(data)

    # ---- requests ------------------------------------------------------------------------

    def _handle(self, line):
        if line == wire.HANDSHAKE:
            self.session, self.last = True, None
            self._send(wire.hello_line(self.device_id, "0.1.0", self.window, self.chunk))
            return None
        try:
            kind, seq, body = wire.decode(line)
        except wire.WireError:
            if line.startswith(b"~"):
                self._send(wire.encode(wire.ERR, 0, wire.error_body("bad_frame")))
            return None
        if kind == wire.ACK:
            return None
        if not self.session:
            self._send(wire.encode(wire.ERR, seq, wire.error_body("no_session")))
            return None
        if self.last and self.last[0] == seq and self.last[1] == line:
            self._send(self.last[2])  # a repeat: the same answer, not done twice
            return None
        self.log.append((wire.NAMES.get(kind, kind), body))
        if self.drop_replies:  # the answer is lost on the way: the host must ask again
            self.drop_replies -= 1
            ok, _ = self._do(kind, wire.Body(body))
            self.last = (seq, line, wire.encode(wire.OK, seq, ok))
            return None
        try:
            ok, stream = self._do(kind, wire.Body(body))
            reply = wire.encode(wire.OK, seq, ok)
        except (wire.WireError, ValueError) as err:
            code = err.code if isinstance(err, wire.WireError) else "bad_request"
            reply, stream = wire.encode(wire.ERR, seq, wire.error_body(code, getattr(err, "detail", ""))), None
        self.last = (seq, line, reply)
        self._send(reply)
        if kind == wire.BYE:
            self.session = False
        if stream is not None:
            return self._stream(stream)
        return None

    def _do(self, kind, r):
        out = bytearray()
        if kind == wire.HELLO:
            return out, None
        if kind == wire.INFO:
            for n in (1800, 1984, len(self.games), 0, self.clock, max(self.games, default=0) + 1):
                put_varint(out, n)
            wire.put_text(out, "0.1.0")
            wire.put_text(out, "ok")
            return out, None
        if kind == wire.CLOCK:
            put_varint(out, self.clock)
            self.clock = r.varint()
            return out, None
        if kind == wire.MARK:
            marked, n = 0, r.varint()
            ids = [r.varint() for _ in range(n)]
            sizes = [r.varint() for _ in range(n)] if r.pos < len(r.data) else [None] * n
            for game_id, size in zip(ids, sizes):
                game = self.games.get(game_id)
                if game and not game["live"] and size in (None, sum(len(f) for f in game["files"])):
                    game["exported"] = True
                    marked += 1
            put_varint(out, marked)
            return out, None
        if kind == wire.ROSTER_PUSH:
            flags = r.byte()
            if flags & wire.FIRST:
                self._pushed = []
            self._pushed += r.texts()
            if flags & wire.LAST:
                self.roster = list(self._pushed)
            put_varint(out, len(self._pushed))
            return out, None
        if kind == wire.ROSTER_PULL:
            start = r.varint()
            page = self.roster[start:start + 3]
            out.append(1 if start + 3 < len(self.roster) else 0)
            out.append(len(page))
            for name in page:
                wire.put_text(out, name)
            return out, None
        if kind == wire.BYE:
            return out, None
        if kind == wire.LIST:
            after = r.varint()
            ids = [i for i in sorted(self.games) if i > after]
            out.append(1 if len(ids) > 2 else 0)  # two a page, so paging is exercised
            put_varint(out, len(ids[:2]))
            for game_id in ids[:2]:
                g = export.game_from_files(self.games[game_id]["files"])
                entry = SimpleNamespace(id=game_id, created=export_epoch(g["created"]), target=g["target"],
                                        rounds=len(g["rounds"]), variant=g["variant"], players=g["players"],
                                        winner_mask=sum(1 << g["players"].index(w) for w in g["winners"]))
                flags = (1 if g["finished"] else 0) | (2 if self.games[game_id]["exported"] else 0) | (
                    32 if g.get("ended_early") else 0)
                wire.put_summary(out, entry, flags | (16 if self.games[game_id]["live"] else 0),
                                 sum(len(f) for f in self.games[game_id]["files"]))
            return out, None
        if kind == wire.EXPORT:
            return self._plan(r)
        raise wire.WireError("unknown")

    def _plan(self, r):
        ids = sorted(self.games)
        top = ids[-1] if ids else 0
        mode = r.byte()
        if mode == wire.ONE:
            game_id = r.varint()
            if game_id not in self.games:
                raise wire.WireError("no_game", str(game_id))
            ids = [game_id]
        elif mode == wire.SINCE:
            g, s = r.varint(), r.varint()
            ids = [i for i in ids if i > g or (i == g and self.records(i) > s)
                   or (i < g and (self.games[i]["live"] or not self.games[i]["exported"]))]
        elif mode != wire.ALL:  # as a firmware without a change log: no AFTER
            raise wire.WireError("bad_request", "mode %d" % mode)
        frames = []
        for game_id in ids:
            files = self.games[game_id]["files"]
            body = bytearray()
            put_varint(body, game_id)
            body.append(16 if self.games[game_id]["live"] else 0)
            put_varint(body, len(files))
            for number, data in enumerate(files):
                put_varint(body, number)
                put_varint(body, len(data))
            frames.append((wire.GAME, body))
            for number, data in enumerate(files):
                for offset in range(0, len(data), self.chunk):
                    body = bytearray()
                    for n in (game_id, number, offset):
                        put_varint(body, n)
                    frames.append((wire.DATA, body + data[offset:offset + self.chunk]))
            body = bytearray()
            put_varint(body, game_id)
            body.append(wire.WHOLE)
            frames.append((wire.GEND, body))
        body = bytearray()
        for n in (len(ids), top, self.records(top) if top else 0):
            put_varint(body, n)
        frames.append((wire.DONE, body))
        out = bytearray()
        put_varint(out, len(ids))
        put_varint(out, sum(len(f) for i in ids for f in self.games[i]["files"]))
        return out, frames

    # ---- the stream: window, acks, go-back-N --------------------------------------------

    def _stream(self, frames):
        lines = [wire.encode(kind, n, bytes(body)) for n, (kind, body) in enumerate(frames)]
        base = nxt = 0
        first = set()
        last_move = time.monotonic()
        while base < len(lines):
            while nxt < len(lines) and nxt < base + self.window:
                if self.vanish_after is not None and self.sent_stream >= self.vanish_after:
                    return "vanish"
                if self.mute_after is not None and self.sent_stream >= self.mute_after:
                    return self._mute()
                self.sent_stream += 1
                if nxt not in first and (nxt in self.garble or nxt in self.skip):
                    first.add(nxt)
                    if nxt in self.garble:
                        self._send(lines[nxt][:10] + b"!!" + lines[nxt][12:])
                    nxt += 1
                    continue
                self._send(lines[nxt])
                nxt += 1
            line = self._readline(self.resend_s)
            if line is None:
                return "vanish"
            if line == b"" and time.monotonic() - last_move >= self.resend_s:
                nxt = base  # no ACK moved the window: send again
                continue
            try:
                kind, seq, body = wire.decode(line)
            except wire.WireError:
                continue
            if kind != wire.ACK:
                self._handle(line)
                continue
            if seq > base:
                base, last_move = seq, time.monotonic()
            if body == b"\x01":
                nxt = base = seq
        return None

    def _mute(self):
        while self._readline(0.1) is not None and not self._stop:
            pass
        return "vanish"
