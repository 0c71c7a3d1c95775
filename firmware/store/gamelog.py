# One game's journal on flash: the core's event records, framed, append-only.
#
# Files (names are the game id, six digits):
#   live/000007.000, live/000007.001, ...   segments of a game being played
#   games/000007.tj                         the closed game's whole journal
# Each file is a run of frames (tafel.journal: u16 length, u32 sequence
# number, payload, u32 CRC32) whose sequence numbers rise by one; the create
# record is number 0. The game is the union of its files read in the order
# games/*.tj, then live segments by number: a frame whose number was already
# seen is skipped, so a crash between writing a closed copy and removing the
# segments it came from loses and doubles nothing.
#
# Why segments: LittleFS never programs into a file's last block again once
# the file is synced; the next append copies that partly filled block to a
# fresh one. One growing journal file would cost up to a whole 4 KB block per
# round (measured: 3 KB programmed at round 100, with or without keeping the
# file open). A segment is closed at SEGMENT_MAX bytes and a new one started,
# so an append copies at most SEGMENT_MAX bytes. Closing the game writes the
# compact games/*.tj copy and removes the segments.
from micropython import const
from tafel import journal
from tafel.game import Game

from .errors import StoreError

SEGMENT_MAX = const(1024)
MAX_SEGMENTS = const(1000)  # three digits in the file name
LIVE = "live"
GAMES = "games"
KEEP = "keep"  # damaged files set aside, bytes kept for export


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
    """The files of one game. Call records() (or load state with scan()) before append()."""

    def __init__(self, disk, game_id):
        self.disk = disk
        self.game_id = game_id
        self.next_seq = 0
        self.segment = -1  # last live segment number, -1 = none yet
        self.segment_size = 0
        self.problems = []  # (file, text) found by the last records() walk
        self._bad = []
        self._gap = None

    def files(self):
        """The game's files in reading order, as (folder/name, size); the
        closed copy comes first, with size None, even if it does not exist."""
        stem = name(self.game_id)
        # The closed copy is listed whether or not it exists (reading it says
        # so): a stat, like a listing, walks games/, which may hold hundreds.
        out = [(GAMES + "/" + stem + ".tj", None)]
        segs = []
        for fname, size in self.disk.listdir(LIVE):
            got = parse(fname)
            if got and got[0] == self.game_id and got[1] is not None:
                segs.append((got[1], LIVE + "/" + fname, size))
        segs.sort()
        for number, path, size in segs:
            out.append((path, size))
            self.segment = number
            self.segment_size = size
        return out

    def records(self):
        """Yields (seq, payload) of every good record in order, stopping at the
        first gap. Afterwards `problems` lists what was wrong as (file, text),
        next_seq is set for appending, and torn_only() says whether the damage
        is just a torn last frame."""
        self.problems = []
        self._bad = []  # (file, good length) of files with damage
        self._gap = None  # the file where the run of numbers broke
        self.segment = -1
        self.segment_size = 0
        self.next_seq = expected = 0
        files = self.files()
        for i in range(len(files)):
            path = files[i][0]
            f = self.disk.open_existing(path)
            if f is None:  # no closed copy (yet), or removed since the listing
                continue
            walk = journal.FrameReader(f)
            try:
                for seq, payload in walk:
                    if seq < expected:
                        continue  # already had it from an earlier copy
                    if seq > expected:
                        self._gap = path
                        self.problems.append((path, "records %d to %d are missing" % (expected, seq - 1)))
                        return
                    expected = self.next_seq = seq + 1
                    yield seq, payload
            finally:
                f.close()
            problem, good_end = walk.problem, walk.pos
            if problem is not None:
                self.problems.append((path, problem))
                self._bad.append((path, good_end, i == len(files) - 1 and problem.startswith("torn")))
                # Read on: a later copy may still hold what is damaged here.

    def torn_only(self):
        """True if the only damage is a torn last frame (a write cut short)."""
        return len(self._bad) == 1 and self._bad[0][2] and self._gap is None

    def scan(self):
        """Walks the journal only to learn its state; returns the record count."""
        n = 0
        for _ in self.records():
            n += 1
        return n

    def append(self, payload):
        """Appends one record durably (the file is closed, so LittleFS has
        committed it) and returns its sequence number. Raises OSError if the
        flash refused; then nothing was added."""
        seq = self.next_seq
        data = journal.frame(seq, payload)
        if self.segment < 0 or self.segment_size + len(data) > SEGMENT_MAX:
            if self.segment >= MAX_SEGMENTS - 1:  # ~1 MB of records: 40,000 rounds
                raise StoreError("game_full", self.game_id)
            self.segment += 1
            self.segment_size = 0
        path = LIVE + "/" + name(self.game_id) + ".%03d" % self.segment
        f = self.disk.open(path, "ab")
        try:
            f.write(data)
            f.close()  # the commit: from here on the frame is on flash
        except OSError:
            _close_quietly(f)
            # The commit may or may not have happened; the file says which.
            if self._recheck(path) != self.segment_size + len(data):
                raise
        except BaseException:
            _close_quietly(f)
            raise
        self.segment_size += len(data)
        self.next_seq = seq + 1
        return seq

    def _recheck(self, path):
        size = self.disk.size(path)
        if size is None:
            size = 0
        if size < self.segment_size:  # cannot happen with LittleFS; be safe
            self.segment_size = size
        return size

    def live(self):
        return self.segment >= 0

    def write_closed(self):
        """Writes the whole journal to games/<id>.tj (write-new-then-rename)
        and returns its size; the live segments stay until remove_live().
        Only for an undamaged journal (the caller checks `problems` first)."""
        path = GAMES + "/" + name(self.game_id) + ".tj"
        self.disk.write_new(path, self._frames())
        return self.disk.size(path)

    def _frames(self):
        for seq, payload in self.records():
            yield journal.frame(seq, payload)

    def remove_live(self):
        stem = name(self.game_id) + "."
        for fname, _ in self.disk.listdir(LIVE):
            if fname.startswith(stem):
                self.disk.remove(LIVE + "/" + fname)
        self.segment = -1
        self.segment_size = 0

    def remove_all(self):
        self.remove_live()
        self.disk.remove(GAMES + "/" + name(self.game_id) + ".tj")

    def set_aside(self):
        """Makes the journal clean again without losing a byte: every damaged
        file's bytes are copied to keep/ (a torn last frame is just cut off)
        and the file keeps its good frames; files after a gap in the numbers
        move to keep/ whole. Each step is write-new-then-rename or a rename,
        so a cut in the middle is finished by doing this again."""
        if not self.problems:
            return
        self.disk.mkdir(KEEP)
        for path, good_end, torn in self._bad:
            data = self.disk.read(path)
            if not torn:
                self.disk.write_new(self._keep_name(path), data)
            if good_end:
                self.disk.write_new(path, data[:good_end])
            else:
                self.disk.remove(path)
        if self._gap is not None:
            moving = False
            for path, _ in self.files():
                moving = moving or path == self._gap
                if moving and self.disk.size(path) is not None:
                    self.disk.rename(path, self._keep_name(path))
        self.scan()

    def _keep_name(self, path):
        # keep/live-000007.003, with .1, .2 ... if that name is taken already
        return self.disk.unused_name(KEEP + "/" + path.replace("/", "-"))


def _close_quietly(f):
    try:
        f.close()
    except OSError:
        pass


def replay(log):
    """(tafel.Game or None, problem): the game from every good record of the
    journal, and why replaying stopped early (None if it did not)."""
    game = None
    problem = None
    for seq, payload in log.records():
        if problem is not None:
            continue  # drain the walk so log.problems is complete
        try:
            if game is None:
                game = Game.from_record(payload)
            else:
                game.apply(payload)
        except ValueError as err:  # RecordError, ScoreError: not a record this game takes
            problem = "record %d refused: %s" % (seq, err)
    return game, problem
