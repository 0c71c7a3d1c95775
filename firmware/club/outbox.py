# The journal is the outbox: which record goes to the hub next, read from the flash as it lies, and
# how far the hub has acknowledged each game (the cursor, kept on flash in batches).
#
# Nothing is queued for the hub: every confirmed record is in its game's journal already
# (store/gamelog.py), so the outbox is a cursor over the journals. Per game the hub's ACK says
# the next sequence number it wants (every record before it is stored); the table keeps the
# highest, sends from there in order, never what was acknowledged, and goes back to it when the
# hub says it missed one (its ACK does not move although records went after it: a record lost
# with a broker that went down) or says nothing for a while (the resend timer, doubling).
#
# Which games: every game from `low` on (pairing sets it to the game on the table, else the next
# game) and the running game whatever its id. A game leaves the cursor once the hub has all its
# records and it is over (finished, or deleted); a game put away unfinished stays in it with its
# count, quiet until it runs again. So the cursor is small: {"low": 12, "acked": {"12": 31}}.
#
# Reading: records are read from the main copy's files (games/<id>.tj, then live/<id>.<nnn>),
# the frame's bytes straight into the MQTT packet (the caller's buffer), its CRC checked there.
# A record is found by its headers alone (6 bytes read, the rest seeked over) and the place of
# the next one is remembered, so a round costs one file opened and one frame read. A main copy
# that lacks it (damage the boot could not mend yet) is read through both copies (GameLog).
#
# Flash wear: the cursor is written only when it changed, at most every SAVE_MS (and when the
# link starts again with other Wi-Fi settings); after a power cut or a deep sleep (which writes
# nothing to flash) the hub may get records it has again, which it answers with its own cursor.
import hashlib
import struct
from binascii import crc32

from micropython import const

from store.gamelog import GAMES, LIVE, GameLog, name, parse
from tafel import journal

WINDOW = const(8)  # records sent ahead of the hub's ACK
SAVE_MS = const(300000)  # the cursor goes to flash at most this often while play goes on
_RESEND_MS = const(10000)  # records unacknowledged this long go again (then 20 s, 40 s ... 160 s)
_RESEND_MAX = const(160000)
_REWIND_MS = const(2000)  # after going back for a hub that missed one: ACKs that do not move are old ones
_FINISHED = const(1)  # store/index.py's flag


class Signer:
    """HMAC-SHA256 under the table's secret (tafel.club.mac's), its pads made once."""

    def __init__(self, secret):
        key = bytearray(64)
        key[:len(secret)] = secret
        for i in range(64):
            key[i] ^= 0x36
        self.ipad = bytes(key)
        for i in range(64):
            key[i] ^= 0x36 ^ 0x5C
        self.opad = bytes(key)

    def mac(self, a, b, c):
        """The MAC of a + b + c (a topic's prefix, its last word, a body)."""
        h = hashlib.sha256(self.ipad)
        h.update(a)
        h.update(b)
        h.update(c)
        h, inner = hashlib.sha256(self.opad), h.digest()
        h.update(inner)
        return h.digest()

    def check(self, a, b, body, got):
        """Whether `got` (32 bytes) is the MAC of a + b + body; every byte compared."""
        want = self.mac(a, b, body)
        diff = len(got) ^ len(want)
        for i in range(len(want)):
            diff |= want[i] ^ got[i] if i < len(got) else 1
        return not diff


class Outbox:
    def __init__(self, store):
        from store import pairing

        self.store = store
        low, self.acked = pairing.load_cursor(store)
        self.low = low if low is not None else (store.running_game() or store.next_game_id())
        self.quiet = []  # games the hub has whole that are not running (till they run again)
        self.game = None  # the game being sent
        self.running = None  # the running game when the game was chosen
        self.stale = True  # choose the game again (at the start, and once the game sent is done)
        self.next = 0  # the game's next record to send
        self.ended = None  # the number of records of the game being sent, once known (put away)
        self.pos = None  # (game, seq, path, offset): where record seq starts in the main copy
        self.head = bytearray(6)
        self.dirty = False
        self.saved_at = 0
        self.moved_at = 0  # when the game's ACK last moved, or records began to wait for one
        self.resend_ms = _RESEND_MS
        self.rewound_at = None

    # ---- which game, which record -----------------------------------------------------------

    def head_of(self, game_id):
        """The running game's record count (its next sequence number), None for another game."""
        live = self.store.live
        return live.next_seq if live is not None and live.game_id == game_id else None

    def choose(self):
        """The game to send from now on (None: nothing to send): after a new game, the running
        game changing, or the game sent being done."""
        store = self.store
        running = store.running_game()
        top = store.next_game_id()
        if top > self.low:  # games begun since: tracked from their create record
            ids = store.history()
            for g in ids:
                if g >= self.low and g not in self.acked:
                    self.acked[g] = 0
            for g in [g for g in self.acked if g not in ids]:  # deleted meanwhile: nothing to send
                del self.acked[g]
            self.low = top
            self.dirty = True
        if running is not None and running not in self.acked:  # an older game played on
            self.acked[running] = 0  # the hub's ACK says what it has
            self.dirty = True
        if running in self.quiet:  # played on: no longer whole at the hub
            self.quiet.remove(running)
        self.running = running
        self.game = None
        for g in sorted(self.acked):
            if g == running or g not in self.quiet:
                self.game = g
                break
        if self.game is not None:
            self.next = self.acked[self.game]
            self.ended = None
        return self.game

    def due(self, now):
        """The sequence number of the record to send now, or None (nothing, or the window full).
        Chooses again when the running game changed or the game sent is done."""
        store = self.store
        if self.stale or store.running_game() != self.running or store.next_game_id() > self.low:
            self.stale = False
            self.choose()
        g = self.game
        if g is None:
            return None
        acked = self.acked.get(g, 0)
        if self.next > acked and now - self.moved_at >= self.resend_ms:  # nothing heard: again
            self.next = acked
            self.moved_at = now
            self.resend_ms = min(self.resend_ms * 2, _RESEND_MAX)
        head = self.head_of(g)
        if head is None and self.ended is not None:
            head = self.ended
        if head is not None and self.next >= head:
            if acked >= head and g != self.running:
                self._done(g)
            return None
        if self.next - acked >= WINDOW:
            return None
        return self.next

    def _done(self, g):
        # The hub has every record of a game that is not running: a game over (or gone) leaves
        # the cursor, one put away unfinished stays, quiet.
        idx = self.store.index
        i = idx.find(g)
        if i < 0 or idx.flags[i] & _FINISHED:
            del self.acked[g]
            self.dirty = True
        elif g not in self.quiet:
            self.quiet.append(g)
        self.game = None
        self.stale = True

    def sent(self, seq, now):
        """Record seq went out."""
        if self.next == self.acked.get(self.game, 0):
            self.moved_at = now  # the first to wait for an ACK
        self.next = seq + 1

    def at_end(self, seq):
        """Record seq is not there: the game sent (not running) has seq records."""
        self.ended = seq

    def ack(self, game_id, next_seq, now):
        """The hub's ACK (its MAC checked): every record of the game before next_seq is stored."""
        old = self.acked.get(game_id)
        if old is None:
            return
        head = self.head_of(game_id)
        if head is not None and next_seq > head:
            next_seq = head  # never past what the table has
        if next_seq > old:
            self.acked[game_id] = next_seq
            self.dirty = True
            self.moved_at = now
            self.resend_ms = _RESEND_MS
            if game_id == self.game and self.next < next_seq:
                self.next = next_seq
        elif next_seq == old and game_id == self.game and self.next > old and \
                (self.rewound_at is None or now - self.rewound_at >= _REWIND_MS):
            self.next = old  # the hub missed one (a record lost on the way): from what it has
            self.rewound_at = now

    def rewind(self, now):
        """A new connection: send again from what the hub has."""
        if self.game is not None:
            self.next = self.acked.get(self.game, 0)
        self.moved_at = now
        self.resend_ms = _RESEND_MS

    def owed(self):
        """Whether records wait for the hub (sent or not)."""
        g = self.game
        if g is None:
            return False
        head = self.head_of(g)
        if head is None:
            head = self.ended
        return head is None or self.acked.get(g, 0) < head

    # ---- the cursor on flash ----------------------------------------------------------------

    def save(self, now, force=False):
        if not self.dirty or not (force or now - self.saved_at >= SAVE_MS):
            return
        from store import pairing

        self.saved_at = now
        try:
            pairing.save_cursor(self.store, self.low, self.acked)
            self.dirty = False
        except Exception:  # StoreError, OSError: a full flash; the hub's ACKs tell it again
            pass

    # ---- reading a record -------------------------------------------------------------------

    def locate(self, g, seq):
        """(file, size): the open file at record seq's frame (size: its payload's) in the main copy,
        or None when it is not there. The caller reads size + 10 bytes and closes the file."""
        disk = self.store.disk
        pos = self.pos
        if pos is not None and pos[0] == g and pos[1] == seq:
            f = disk.open_existing(pos[2])
            if f is not None:
                f.seek(pos[3])
                size = self._head(f, seq)
                if size is not None:
                    f.seek(pos[3])
                    return f, size
                f.close()
        for path in self._files(g):
            f = disk.open_existing(path)
            if f is None:
                continue
            at = 0
            while True:
                size = self._head(f, None)
                if size is None:
                    break
                if self._seq() == seq:
                    f.seek(at)
                    self.pos = (g, seq, path, at)
                    return f, size
                if self._seq() > seq:
                    break
                at += size + journal.FRAME_OVERHEAD
                f.seek(at)
            f.close()
        return None

    def advance(self, size):
        """The record located went out: the next one starts after it."""
        g, seq, path, at = self.pos
        self.pos = (g, seq + 1, path, at + size + journal.FRAME_OVERHEAD)

    def _head(self, f, seq):
        # The payload size of the frame at the file's position, if a whole header is there (and
        # it is record seq, when given).
        head = self.head
        if f.readinto(head) != 6:
            return None
        size = head[0] | head[1] << 8
        if size > journal.MAX_PAYLOAD or (seq is not None and self._seq() != seq):
            return None
        return size

    def _seq(self):
        return struct.unpack_from("<I", self.head, 2)[0]

    def _files(self, g):
        # The game's files in the main copy, in reading order.
        disk = self.store.disk
        stem = name(g)
        out = []
        closed = GAMES + "/" + stem + ".tj"
        if disk.size(closed) is not None:
            out.append(closed)
        segs = []
        for fname, _ in disk.listdir(LIVE):
            got = parse(fname)
            if got is not None and got[0] == g and got[1] is not None:
                segs.append(got[1])
        segs.sort()
        for n in segs:
            out.append(LIVE + "/" + stem + ".%03d" % n)
        return out

    def frame(self, g, seq):
        """Record seq's frame through both copies (the main one lacks it or holds it damaged), or None."""
        walk = GameLog(self.store.disk, g, self.store.twin).records()
        try:
            for s, payload in walk:
                if s == seq:
                    return journal.frame(seq, payload)
            return None
        finally:
            walk.close()  # its file closed now, not when the heap is collected


def good(frame):
    """Whether a frame (a memoryview of its bytes) holds together: its CRC over what comes before it."""
    return crc32(frame[:len(frame) - 4]) == struct.unpack_from("<I", frame, len(frame) - 4)[0]
