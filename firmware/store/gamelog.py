# One game's journal on flash: the core's event records, framed, append-only, kept twice.
#
# Files (names are the game id, six digits), in the main tree (/data) and the
# same again, byte for byte, in the twin (/twin; store.py says why):
#   live/000007.000, live/000007.001, ...   segments of a game being played
#   games/000007.tj                         the closed game's whole journal
# Each file is a run of frames (tafel.journal: u16 length, u32 sequence
# number, payload, u32 CRC32) whose sequence numbers rise by one; the create
# record is number 0 and names the game's id. The game is the union of its
# files read in the order games/*.tj (main, twin), then live segments by
# number (main before twin): a frame whose number was already seen is
# skipped, so a crash between writing a closed copy and removing the
# segments it came from, a copy that lags behind or a damaged frame in one
# copy loses and doubles nothing. A file whose create record is not this
# game's is never mixed in (ids are never reused; this is the second guard).
#
# Why segments: LittleFS never programs into a file's last block again once
# the file is synced; the next append copies that partly filled block to a
# fresh one. One growing journal file would cost up to a whole 4 KB block per
# round (measured: 3 KB programmed at round 100, with or without keeping the
# file open). A segment is closed at SEGMENT_MAX bytes and a new one started,
# so an append copies at most SEGMENT_MAX bytes, twice (both copies). With the
# two small commits of the mark after each record (watermark.py, 64 B each),
# 704 keeps every round of a game of 2 to 10 seats under docs/design.md's 2 KB
# (768 did not: 2,112 B at the worst round of a 6-seat game; the worst round
# is a segment's copy meeting a folder's compaction). Closing the game writes
# the compact games/*.tj copies and removes the segments.
import gc
import struct
from binascii import crc32

from tafel import journal, records
from tafel.compat import const
from tafel.game import Game
from tafel.records import Reader

from .errors import StoreError

SEGMENT_MAX = const(704)
_MAX_SEGMENTS = const(1000)  # three digits in the file name
LIVE = "live"
GAMES = "games"
KEEP = "keep"  # damaged files set aside, bytes kept for export
MARK = "mark"  # Mark below, in /data and /twin
_FRAME = const(19)  # journal.frame of the mark's 9-byte payload: 6 head, 9, 4 CRC
_MARK_TAG = const(0x4D)  # "M": no record's first byte (its version, 1), so no scan takes a mark for one


def name(game_id):
    return "%06d" % game_id


def parse(filename):
    """(game id, segment number or None for a closed .tj) or None for a stranger."""
    dot = filename.find(".")
    stem, ext = filename[:dot], filename[dot + 1:]
    if dot != 6 or not stem.isdigit():
        return None
    if ext == "tj":
        return int(stem), None
    if len(ext) == 3 and ext.isdigit():
        return int(stem), int(ext)
    return None


class GameLog:
    """The files of one game in both copies. Call records() (or load state
    with scan()) before append()."""

    def __init__(self, disk, game_id, twin=None):
        self.disk = disk
        self.twin = twin
        self.disks = (disk,) if twin is None else (disk, twin)
        self.game_id = game_id
        self.next_seq = 0
        self.segment = -1  # last live segment number, -1 = none yet
        self.segment_size = 0  # its size in the main copy
        self.problems = []  # (file, text) found by the last records() walk
        self._bad = []
        self._gap = None
        self._create = None
        self.listed = []  # files() as the last records() walk found them

    def files(self):
        """The game's files in reading order, as (disk, folder/name, size): the
        closed copies first, with size None, even if they do not exist; then
        each live segment, the main copy before the twin's."""
        stem = name(self.game_id)
        # The closed copy is listed whether or not it exists (reading it says
        # so): a stat, like a listing, walks games/, which may hold hundreds.
        out = [(d, GAMES + "/" + stem + ".tj", None) for d in self.disks]
        segs = []
        for k in range(len(self.disks)):
            for fname, size in self.disks[k].listdir(LIVE):
                got = parse(fname)
                if got and got[0] == self.game_id and got[1] is not None:
                    segs.append((got[1], k, LIVE + "/" + fname, size))
        segs.sort()
        self.segment = -1
        self.segment_size = 0
        for number, k, path, size in segs:
            out.append((self.disks[k], path, size))
            if number > self.segment:
                self.segment, self.segment_size = number, 0
            if k == 0:
                self.segment_size = size
        return out

    def exists(self):
        """Whether any file of the game is on flash, in either copy."""
        for disk, path, size in self.files():
            if size is not None or disk.size(path) is not None:
                return True
        return False

    def exists_closed(self):
        path = GAMES + "/" + name(self.game_id) + ".tj"
        for disk in self.disks:
            if disk.size(path) is not None:
                return True
        return False

    def records(self):
        """Yields (seq, payload) of every good record in order, stopping at the
        first gap. Afterwards `problems` lists what was wrong as (file, text),
        next_seq is set for appending. A file whose create record is not this
        game's (another game's id, or a start other than the first copy's)
        is read no further: its records are never mixed into this game. The
        twin's copy of a file is read only when the main copy's was missing,
        damaged or of another size (the boot check compares the listings of
        both copies and mends them), so a walk costs one copy's reading."""
        self.problems = []
        self._bad = []  # (disk, file, good length, torn) of files with damage
        self._gap = None  # (disk, file) where the run of numbers broke
        self._create = None
        self.next_seq = expected = 0
        files = self.listed = self.files()
        clean = None  # (path, size) of the main copy's file just read whole and good
        for disk, path, size in files:
            if disk is not self.disk and clean is not None and clean[0] == path and clean[1] == size:
                continue  # the twin's copy of a file the main copy gave whole: read only when needed
            clean = None
            if size is None and disk.size(path) is None:
                continue  # no closed copy: opening would cost the heap a file's buffers to learn that
            f = disk.open_existing(path)
            if f is None:  # no closed copy (yet), or removed since the listing
                continue
            walk = journal.FrameReader(f)
            stranger = None
            try:
                for seq, payload in walk:
                    if seq == 0:
                        stranger = self._stranger(payload)
                        if stranger:
                            break
                    if seq < expected:
                        continue  # already had it from an earlier copy
                    if seq > expected:
                        self._gap = (disk, path)
                        self.problems.append((path, "records %d to %d are missing" % (expected, seq - 1)))
                        return
                    expected = self.next_seq = seq + 1
                    yield seq, payload
            finally:
                f.close()
            problem, good_end = walk.problem, walk.pos
            if stranger:
                problem, good_end = stranger, 0
            if problem is None and disk is self.disk:
                clean = (path, size)
            if problem is not None:
                self.problems.append((path, problem))
                self._bad.append((disk, path, good_end, problem.startswith("torn")))
                # Read on: a later copy may still hold what is damaged here.

    def _stranger(self, payload):
        # Why a create record is not this game's, or None.
        if self._create is None:
            if create_id(payload) != self.game_id:
                return "create record of game %s" % create_id(payload)
            self._create = payload
            return None
        return None if payload == self._create else "create record of another game"

    def scan(self):
        """Walks the journal only to learn its state; returns the record count."""
        n = 0
        for _ in self.records():
            n += 1
        return n

    def append(self, payload):
        """Appends one record durably to both copies (each file is closed, so
        LittleFS has committed it) and returns its sequence number. Raises
        OSError if the flash refused the main copy; then nothing was added.
        A twin that refuses is mended from the main copy at the next boot."""
        seq = self.next_seq
        data = journal.frame(seq, payload)
        if self.segment < 0 or self.segment_size + len(data) > SEGMENT_MAX:
            if self.segment >= _MAX_SEGMENTS - 1:  # ~1 MB of records: 40,000 rounds
                raise StoreError("game_full", self.game_id)
            self.segment += 1
            self.segment_size = 0
        path = LIVE + "/" + name(self.game_id) + ".%03d" % self.segment
        _append(self.disk, path, data, self.segment_size)
        if self.twin is not None:
            try:
                _append(self.twin, path, data, None)
            except OSError:
                pass  # the main copy holds it; bootcheck mends the twin
        self.segment_size += len(data)
        self.next_seq = seq + 1
        return seq

    def live(self):
        return self.segment >= 0

    def write_closed(self):
        """Writes the whole journal to games/<id>.tj in both copies
        (write-new-then-rename) and returns its size; the live segments stay
        until remove_live(). Only for an undamaged journal (the caller checks
        `problems` first)."""
        path = GAMES + "/" + name(self.game_id) + ".tj"
        for disk in self.disks:
            disk.write_new(path, self._frames())
        return self.disk.size(path)

    def _frames(self):
        for seq, payload in self.records():
            yield journal.frame(seq, payload)

    def remove_live(self):
        stem = name(self.game_id) + "."
        for disk in self.disks:
            for fname, _ in disk.listdir(LIVE):
                if fname.startswith(stem):
                    disk.remove(LIVE + "/" + fname)
        self.segment = -1
        self.segment_size = 0

    def remove_all(self):
        self.remove_live()
        for disk in self.disks:
            disk.remove(GAMES + "/" + name(self.game_id) + ".tj")

    def keep_name(self, disk, path, fresh=True):
        # keep/live-000007.003 (keep/twin-live-... for the twin's), with .1, .2 ... if taken already
        tag = "" if disk is self.disk else "twin-"
        base = KEEP + "/" + tag + path.replace("/", "-")
        return self.disk.unused_name(base) if fresh else base


def create_id(payload):
    """The game id a create record names (None if it is not a create record)."""
    try:
        r = Reader(payload)
        if r.byte() != records.VERSION or r.byte() != records.CREATE:
            return None
        return r.varint()
    except ValueError:
        return None


def _append(disk, path, data, expect):
    # One frame onto a file, committed when this returns. `expect`: the size
    # the file had (None: not tracked), to tell after an error whether the
    # commit happened anyway.
    f = disk.open(path, "ab")
    try:
        f.write(data)
        f.close()  # the commit: from here on the frame is on flash
    except OSError:
        _close_quietly(f)
        # The commit may or may not have happened; the file says which.
        if expect is None or (disk.size(path) or 0) != expect + len(data):
            raise
    except BaseException:
        _close_quietly(f)
        raise


def _close_quietly(f):
    try:
        f.close()
    except OSError:
        pass


def replay(log):
    """(tafel.Game or None, problem): the game from every good record of the
    journal, and why replaying stopped early (None if it did not)."""
    r = Replay()
    for seq, payload in log.records():
        r.feed(seq, payload)  # the walk is drained even after a refusal: log.problems is complete
    return r.game, r.problem


class Replay:
    """A game built record by record as a walk yields them (mend.py replays during its walk)."""

    def __init__(self):
        self.game = None
        self.problem = None

    def feed(self, seq, payload):
        if self.problem is not None:
            return
        try:
            if self.game is None:
                self.game = Game.from_record(payload)
            else:
                if self.game.room_needed():  # a new chunk of rounds, kept as long as the game: the
                    gc.collect()  # garbage of the records before goes first, so it takes the lowest hole
                self.game.apply(payload)
        except ValueError as err:  # RecordError, ScoreError: not a record this game takes
            self.problem = "record %d refused: %s" % (seq, err)


# The mark of what the screen last confirmed as saved: written after every record (store.py), checked at
# boot (watermark.py says why). Kept in the file "mark" of /data and of /twin: one journal frame
# whose number counts the marks written (the newer copy wins) and whose payload is "M" | u32 game
# id | i32 sequence number of the game's last record committed in both copies (-1: no claim,
# after the game was deleted). Here, not in a module of its own: every module the app holds brings the
# update's imports closer to the 1 KB the module table takes to grow (assemble.py).
class Mark:
    def __init__(self, disks):
        self.disks = disks  # (main, twin): written in this order
        self.paths = [disk.path(MARK) for disk in disks]  # made once: a save makes no path string
        self.count = 0
        self.game_id = None
        self.seq = -1
        # The frame, built in place at every save (journal.frame's layout): u16 length | u32 count
        # | "M" | u32 game id | i32 sequence number | u32 CRC32 of what comes before it.
        self.buf = bytearray(_FRAME)
        self.body = memoryview(self.buf)[:_FRAME - 4]

    def load(self):
        """The newer of the two copies (a damaged or missing one is passed over)."""
        best = None
        for disk in self.disks:
            data = disk.read(MARK)
            got = journal.read_frame(data) if data else None
            if got is None or len(got[1]) != 9 or got[1][0] != _MARK_TAG or \
                    (best is not None and got[0] <= best[0]):
                continue
            best = (got[0],) + struct.unpack_from("<Ii", got[1], 1)
        if best is not None:
            self.count, self.game_id, self.seq = best
        return self

    def write(self, game_id, seq):
        """Marks record `seq` of game `game_id` as confirmed. A flash that refuses leaves the
        mark behind, which only makes the check see less: the record is saved either way."""
        self.count += 1
        self.game_id, self.seq = game_id, seq
        buf = self.buf
        struct.pack_into("<HIBIi", buf, 0, _FRAME - 10, self.count, _MARK_TAG, game_id, seq)
        struct.pack_into("<I", buf, _FRAME - 4, crc32(self.body))
        for i in range(len(self.disks)):
            try:
                f = self.disks[i].open_path(self.paths[i], "wb")  # committed at close, whole or not at all
                try:
                    f.write(buf)
                finally:
                    f.close()
            except OSError:
                pass
