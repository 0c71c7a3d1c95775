# The game index: one summary per stored game, for the history screen.
#
# File "index", changed only by write-new-then-rename. It is a run of frames
# (tafel.journal framing, numbered 0, 1, ...): frame 0 is the header
# (version, the next free game id, [the change log: varint epoch, varint
# changes]), every further frame one entry:
#   u8 version | varint id | u8 flags | varint journal bytes | varint created
#   | varint target | varint rounds | varint winners (bit per seat)
#   | text variant | u8 seats | text per seat        (text = varint length + UTF-8)
#   | [varint changed: the change number of the write that last changed the game]
# The bracketed fields came later; an older firmware ignores them and writes
# none (its index then reads as epoch 0, changed 0: a new epoch is drawn at
# the next write, and every host's cursor of the old epoch gets every game).
# `changes` grows by one with each write that puts a game's content (or a
# rebuilt summary) in; marking exported keeps a game's number. The epoch is
# drawn afresh whenever the count starts again (no readable header), so a
# cursor "changed after N" is only ever compared within one count.
# flags: 1 finished, 2 exported, 4 damaged, 8 deleted (a tombstone, so a cut
# in the middle of deleting never brings the game back half), 16 lost (its
# journal is gone from both copies: the summary is all that is left), 32 ended
# early (the table ended it before anybody reached the target: its winners are
# the leaders then, not winners by the rule; entries written before this bit
# lack it until their summary is rebuilt).
#
# It holds the closed games (games/*.tj); the game being played lives in
# live/ and is summarised from memory. Everything here can be rebuilt from the
# journals except the exported flag, which a rebuild sets back to "not
# exported" (the worst case is exporting a game twice).
#
# Only ids, flags, sizes, change numbers and file offsets stay in RAM (17 bytes a game); an
# entry is read from the file when the history screen shows it.
import os
import struct
from array import array

from tafel import journal
from tafel.compat import const
from tafel.errors import RecordError
from tafel.records import Reader, put_text, put_varint

INDEX = "index"
_VERSION = const(1)
_FINISHED = const(1)
EXPORTED = const(2)
DAMAGED = const(4)
DELETED = const(8)
LOST = const(16)  # the journal is gone from both copies: listed, reported once (bootcheck.py)
_ENDED_EARLY = const(32)  # wire.ENDED_EARLY


class Entry:
    def __init__(self, game_id, flags=0, size=0, created=0, target=0, rounds=0,
                 winners=0, variant="", players=(), changed=None):
        self.id = game_id
        self.changed = changed  # change number; None: a new change (the write stamps it)
        self.flags = flags
        self.size = size  # bytes of games/<id>.tj when this entry was written
        self.created = created
        self.target = target
        self.rounds = rounds
        self.winner_mask = winners
        self.variant = variant
        self.players = players
        self.live = False  # set by the store for the game in live/

    @property
    def finished(self):
        return bool(self.flags & _FINISHED)

    @property
    def exported(self):
        return bool(self.flags & EXPORTED)

    @property
    def damaged(self):
        return bool(self.flags & DAMAGED)

    @property
    def lost(self):
        return bool(self.flags & LOST)

    def winners(self):
        return [self.players[s] for s in range(len(self.players)) if self.winner_mask >> s & 1]


def position(ids, game_id):
    """Where `game_id` is in `ids` (ascending, as the index keeps them), or -1."""
    lo, hi = 0, len(ids)
    while lo < hi:
        mid = (lo + hi) // 2
        if ids[mid] < game_id:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < len(ids) and ids[lo] == game_id else -1


def entry_for(game, game_id, size=0, flags=0):
    """The summary of a replayed tafel.Game; `flags` may add EXPORTED/DAMAGED."""
    mask = 0
    for name in game.winners():
        mask |= 1 << game.players.index(name)
    if game.finished:
        flags |= _FINISHED
    if game.ended_early:
        flags |= _ENDED_EARLY
    return Entry(game_id, flags, size, game.created, game.target, len(game.rounds),
                 mask, game.variant, game.players)


def encode(e):
    out = bytearray((_VERSION,))
    put_varint(out, e.id)
    out.append(e.flags)
    for n in (e.size, e.created, e.target, e.rounds, e.winner_mask):
        put_varint(out, n)
    put_text(out, e.variant)
    out.append(len(e.players))
    for name in e.players:
        put_text(out, name)
    put_varint(out, e.changed or 0)
    return bytes(out)


def decode(payload):
    r = _Reader(payload)
    if r.byte() != _VERSION:
        raise RecordError("unknown index entry version")
    game_id = r.varint()
    flags = r.byte()
    size, created, target, rounds, winners = [r.varint() for _ in range(5)]
    variant = r.text()
    players = tuple(r.text() for _ in range(r.byte()))
    changed = r.varint() if r.pos < len(payload) else 0
    return Entry(game_id, flags, size, created, target, rounds, winners, variant, players, changed)


def _head(payload):
    # (id, flags, size, changed) without decoding the texts: what boot needs.
    r = _Reader(payload)
    if r.byte() != _VERSION:
        raise RecordError("unknown index entry version")
    head = (r.varint(), r.byte(), r.varint())
    for _ in range(4):
        r.varint()
    r.skip_text()
    for _ in range(r.byte()):
        r.skip_text()
    return head + (r.varint() if r.pos < len(payload) else 0,)


def new_epoch():
    # 27 random bits with bit 27 set: always nine decimal digits, a four-byte varint and a small
    # int, so what the epoch costs in the heap (an export's cursor text) never depends on the draw.
    raw = urandom(4)
    return (raw[0] | raw[1] << 8 | raw[2] << 16 | raw[3] << 24) & 0x07FFFFFF | 0x08000000


urandom = os.urandom  # tests that compare flash images byte for byte put a fixed one here


class Index:
    def __init__(self, disk):
        self.disk = disk
        self.next_id = 1
        self.epoch = 0  # 0: no change log yet (an old or no index): the next write draws one
        self.changes = 0
        self._clear()

    def _clear(self):
        self.ids = array("I")
        self.flags = bytearray()
        self.sizes = array("I")
        self.stamps = array("I")  # per entry: its change number
        self._offsets = array("I")
        self._head_len = self._end = 0  # where entries start and end in the file

    def load(self):
        """Reads ids, flags and sizes of every entry. Returns None, "missing",
        or a short text naming the damage (the entries before it are kept)."""
        self._clear()
        try:
            f = self.disk.open(INDEX, "rb")
        except OSError:
            return "missing"
        try:
            return self._load(f)
        finally:
            f.close()

    def _load(self, f):
        pos = 0
        seq = 0
        while True:
            self._end = pos
            head = f.read(journal.HEADER_SIZE)
            if not head:
                return None
            if len(head) < journal.HEADER_SIZE:
                return "index torn at byte %d" % pos
            size = struct.unpack_from("<H", head)[0]
            if size > journal.MAX_PAYLOAD:
                return "index damaged at byte %d" % pos
            got = journal.read_frame(head + f.read(size + 4))
            if got is None or got[0] != seq:
                return "index damaged at byte %d" % pos
            try:
                if seq == 0:
                    self.next_id, self.epoch, self.changes = _Reader(got[1]).header()
                    self._head_len = got[2]
                else:
                    game_id, flags, jsize, changed = _head(got[1])
                    if self.ids and game_id <= self.ids[-1]:
                        raise RecordError("ids out of order")
                    self.ids.append(game_id)
                    self.flags.append(flags)
                    self.sizes.append(jsize)
                    self.stamps.append(changed)
                    self._offsets.append(pos)
            except RecordError:
                return "index damaged at byte %d" % pos
            pos += got[2]
            seq += 1

    def find(self, game_id):
        """Position of a game's entry, or -1 (ids are kept in ascending order)."""
        return position(self.ids, game_id)

    def entry(self, game_id):
        """The full Entry of a game, read from the file, or None."""
        i = self.find(game_id)
        if i < 0:
            return None
        f = self.disk.open(INDEX, "rb")
        try:
            payload = _payload_at(f, self._offsets[i])
        finally:
            f.close()
        return None if payload is None else decode(payload)

    def add_flag(self, game_ids, flag, next_id, unless=0):
        """Sets `flag` on the listed games' entries (those there are): their
        bytes are copied with the flags byte changed, never decoded, so
        marking a hundred games costs no more RAM than marking one. The
        games' change numbers stay (a flag is not a change of the game).
        Entries that have a flag of `unless` are left as they are."""
        # The flag to add per entry, in the entries' order: a hundred games' marks are a hundred
        # bytes, where a dict of them took a kilobyte and left a trail of smaller tables behind.
        marks = bytearray(len(self.ids))
        n = 0
        for game_id in game_ids:
            i = self.find(game_id)
            if i >= 0 and not marks[i] and not self.flags[i] & (flag | unless):
                marks[i] = flag
                n += 1
        if n:
            self.write(marks, next_id)
        return n

    def write(self, changes, next_id):
        """Rewrites the index: `changes` maps id -> Entry (new or replacing)
        or None (drop it); or it is a bytearray of flags to add to the entries
        as they are, one per entry in order (add_flag). Entries stay in id
        order; the unchanged ones are copied as they are (the run before the
        first change as raw bytes, the rest one at a time), so RAM use does not
        grow with the number of games and the usual change, the newest game,
        costs a plain copy."""
        order = None  # flags only: the same entries in the same order
        if type(changes) is not bytearray:
            order = [game_id for game_id in self.ids if game_id not in changes]
            for game_id, e in changes.items():
                if e is not None:
                    order.append(game_id)
            order.sort()
        new = Index(self.disk)
        new.next_id = max(next_id, self.next_id)
        new.epoch = self.epoch or new_epoch()
        new.changes = self.changes if self.epoch else 0
        for e in changes.values() if order is not None else ():
            if e is not None and e.changed is None:
                new.changes += 1  # one number for everything this write changes
                break
        # The new arrays start as copies of these, each one block of its final size (give or take
        # the entry a write adds or drops): grown an entry at a time they would leave a trail of
        # ever larger blocks behind, four arrays interleaved, in a heap with a hundred games' worth.
        new.ids, new.sizes, new.stamps = array("I", self.ids), array("I", self.sizes), array("I", self.stamps)
        new._offsets, new.flags = array("I", self._offsets), bytearray(self.flags)
        try:
            f = self.disk.open(INDEX, "rb")
        except OSError:
            f = None
        try:
            self.disk.write_new(INDEX, new._frames(order, changes, self, f))
        finally:
            if f is not None:
                f.close()
        self.next_id, self.epoch, self.changes = new.next_id, new.epoch, new.changes
        self.ids, self.flags, self.sizes, self._offsets = new.ids, new.flags, new.sizes, new._offsets
        self.stamps = new.stamps
        self._head_len, self._end = new._head_len, new._end

    def entries(self, game_ids):
        """Yields the full Entry of each game in `game_ids` (None if it has
        none), reading the index file once."""
        f = self.disk.open(INDEX, "rb")
        try:
            for game_id in game_ids:
                i = self.find(game_id)
                payload = None if i < 0 else _payload_at(f, self._offsets[i])
                yield None if payload is None else decode(payload)
        finally:
            f.close()

    def _frames(self, order, changes, old, f):
        header = journal.frame(0, _encode_header(self.next_id, self.epoch, self.changes))
        yield header
        pos = self._head_len = len(header)
        # Entries before the first change keep their bytes and numbers.
        if order is None:  # flags added: the first marked entry's id
            k = 0
            while not changes[k]:
                k += 1
            first = old.ids[k]
        else:
            first = min(changes) if changes else 0
        k = 0
        while f is not None and k < len(old.ids) and old.ids[k] < first:
            k += 1
        if k:
            start = old._head_len
            end = old._offsets[k] if k < len(old.ids) else old._end
            f.seek(start)
            left = end - start
            view = memoryview(bytearray(256))  # one buffer for the run, each piece written before the next
            while left > 0:
                n = f.readinto(view[:min(left, 256)])
                if not n:
                    raise OSError(5)  # the index shrank under us: should not be
                left -= n
                yield view[:n]
            for i in range(k):
                self._set(i, old.ids[i], old.flags[i], old.sizes[i], old.stamps[i], old._offsets[i] - start + pos)
            pos += end - start
        seq = k + 1
        for j in range(k, len(old.ids) if order is None else len(order)):
            if order is None:
                game_id = old.ids[j]
                e = changes[j] or None
            else:
                game_id = order[j]
                e = changes.get(game_id)
            if isinstance(e, int):  # a flag added to the entry's own bytes
                i = j
                payload = _payload_at(f, old._offsets[i])
                if payload is None:
                    continue  # unreadable now: the boot check rebuilds it
                payload = _with_flag(payload, e)
                flags, size, changed = payload[_flags_at(payload)], old.sizes[i], old.stamps[i] if old.epoch else 0
            elif e is not None:
                if e.changed is None or not old.epoch:
                    e.changed = self.changes  # a new change, or the first count: from now on
                payload = encode(e)
                flags, size, changed = e.flags, e.size, e.changed
            else:
                i = old.find(game_id)
                payload = _payload_at(f, old._offsets[i])
                if payload is None:
                    continue  # unreadable now: the boot check rebuilds it
                flags, size, changed = old.flags[i], old.sizes[i], old.stamps[i] if old.epoch else 0
            data = journal.frame(seq, payload)
            self._set(seq - 1, game_id, flags, size, changed, pos)
            pos += len(data)
            seq += 1
            self._end = pos
            yield data
        self._end = pos
        self._cut(seq - 1)

    def _set(self, i, game_id, flags, size, changed, offset):
        # Entry i in the arrays (write() made them copies of the old ones: mostly overwritten in place).
        if i < len(self.ids):
            self.ids[i], self.flags[i], self.sizes[i], self.stamps[i] = game_id, flags, size, changed
            self._offsets[i] = offset
        else:
            self.ids.append(game_id)
            self.flags.append(flags)
            self.sizes.append(size)
            self.stamps.append(changed)
            self._offsets.append(offset)

    def _cut(self, n):
        # Only the first n entries were written: the copies' rest goes.
        if n < len(self.ids):
            for a in (self.ids, self.sizes, self.stamps, self._offsets):
                a[n:] = array("I")
            self.flags[n:] = b""


def _payload_at(f, offset):
    f.seek(offset)
    head = f.read(journal.HEADER_SIZE)
    if len(head) < journal.HEADER_SIZE:
        return None
    size = struct.unpack_from("<H", head)[0]
    got = journal.read_frame(head + f.read(size + 4))
    return None if got is None else got[1]


def _flags_at(payload):
    # The flags byte's place: after the version byte and the id's varint.
    pos = 1
    while payload[pos] & 0x80:
        pos += 1
    return pos + 1


def _with_flag(payload, flag):
    out = bytearray(payload)
    out[_flags_at(out)] |= flag
    return out


def _encode_header(next_id, epoch, changes):
    out = bytearray((_VERSION, 0))
    for n in (next_id, epoch, changes):
        put_varint(out, n)
    return bytes(out)


class _Reader(Reader):
    def header(self):
        if self.byte() != _VERSION or self.byte() != 0:
            raise RecordError("not an index header")
        next_id = self.varint()
        if self.pos >= len(self.data):
            return next_id, 0, 0  # written by a firmware from before the change log
        return next_id, self.varint(), self.varint()

    def skip_text(self):
        size = self.varint()
        if self.pos + size > len(self.data):
            raise RecordError("bad name length")
        self.pos += size
