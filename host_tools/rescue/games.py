# Games rebuilt from every copy found: records merged by number, raw runs placed where that is sure, replayed.
#
# A game's records come from its files (any folder, any version: volume.py)
# and from raw runs (raw.py). Records merge by sequence number as on the
# device (firmware/store/gamelog.py); where two copies disagree on a number
# the better source wins (the current state of a folder, then an older
# version, then the raw scan) and the disagreement is reported. A raw run
# is given to a game only when that is sure:
#   - it holds the game's create record (which names its game), or
#   - records in it are already known, byte for byte, from exactly one game, or
#   - it starts right after the last record one game has at that point, and
#     that game is the only one whose seat count fits every round in it.
# Everything else is "found but not placed". Replaying stops at the first
# missing number (or a record the game refuses); what was found after it is
# kept as set-aside records, never dropped.
from tafel.errors import RecordError, ScoreError
from tafel.game import Game

from ..lang import Phrase
from .frames import damage, scan
from .volume import CURRENT

RAW = 2  # rank of the raw scan's records, after CURRENT (0) and OLDER (1) file versions


class Copy:
    """The versions of one file of a game: best rank, how many, numbers read, problems."""

    def __init__(self, path):
        self.path, self.rank, self.versions, self.seqs, self.problems = path, RAW, 0, set(), []
        self.older_problems = 0  # problems in older versions (their blocks may be reused since)

    def add(self, rank, seqs, problems):
        self.rank = min(self.rank, rank)
        self.versions += 1
        self.seqs.update(seqs)
        if rank == CURRENT:
            self.problems.extend(problems)
        elif problems:
            self.older_problems += 1


class Found:
    """Everything found of one game id."""

    def __init__(self, game_id):
        self.id = game_id
        self.recs = {}  # seq -> [payload, rank, [labels]]
        self.copies = {}  # path -> Copy: every version of one file, together
        self.conflicts = []
        self.raw = []  # (where, first seq, last seq, records new) of raw runs placed here, and why
        self.foreign = []  # (seq, payload) from a copy that starts another game with this id
        self.seats = None

    def add(self, seq, payload, rank, label):
        """Adds one record; True if it was new."""
        have = self.recs.get(seq)
        if have is None:
            self.recs[seq] = [payload, rank, [label]]
            return True
        if have[0] == payload:
            have[1] = min(have[1], rank)
            if label not in have[2]:
                have[2].append(label)
            return False
        if rank < have[1]:
            self.conflicts.append(Phrase("rs_differs", seq, label, list(have[2]), label))
            self.recs[seq] = [payload, rank, [label]]
            return True
        self.conflicts.append(Phrase("rs_differs", seq, list(have[2]), label, list(have[2])))
        return False

    def fits(self, frames):
        """Whether every record's seat count is this game's."""
        return all(f.seats() in (None, self.seats) for f in frames)


def from_files(volume):
    """{game id: Found} from every game file's versions."""
    games = {}
    reads = []
    for game_id, copy in volume.game_files():
        frames, problems = [], []
        if copy.problem:
            problems.append(copy.problem)
        for off, data in copy.pieces:
            got = scan(data, off)
            problems.extend(damage(data, got, off))
            frames.extend(got)
        recs = [f for f in frames if f.rec is not None]
        if len(recs) < len(frames):
            problems.append(Phrase("rs_not_records", len(frames) - len(recs)))
        label = copy.path if copy.rank == CURRENT else Phrase("rs_older_version", copy.path)
        create = [f for f in recs if f.seq == 0 and f.rec[0] == "create"]
        if create and create[0].rec[1] != game_id:
            problems.append(Phrase("rs_named_for", game_id, create[0].rec[1]))
            game_id = create[0].rec[1]
        reads.append((copy.rank, copy.path, label, game_id, recs, problems))
    reads.sort(key=lambda r: (r[0], r[1]))
    own = {}  # game id -> its create record: the best copy's
    for _rank, _path, _label, game_id, recs, _problems in reads:
        for f in recs:
            if f.seq == 0 and f.rec[0] == "create" and game_id not in own:
                own[game_id] = f.payload
                games.setdefault(game_id, Found(game_id)).seats = f.seats()
    for rank, path, label, game_id, recs, problems in reads:
        game = games.setdefault(game_id, Found(game_id))
        seqs = []
        start = [f.payload for f in recs if f.seq == 0 and f.rec[0] == "create"]
        if start and start[0] != own[game_id]:
            # another game with the same id (ids reused by an older firmware): never mixed in
            game.foreign.extend((f.seq, f.payload) for f in recs if (f.seq, f.payload) not in game.foreign)
            problems.append(Phrase("rs_holds_another", len(recs)))
            game.copies.setdefault(path, Copy(path)).add(rank, [], problems)
            continue
        for f in recs:
            if game.seats is not None and not game.fits([f]):
                problems.append(Phrase("rs_seats_differ", f.seq, f.seats(), game.seats))
                continue
            game.add(f.seq, f.payload, rank, label)
            seqs.append(f.seq)
        game.copies.setdefault(path, Copy(path)).add(rank, seqs, problems)
    return games


def place(games, runs):
    """Gives raw runs to games where that is sure; returns (unplaced [(run, why,
    games it could belong to)], duplicates: runs with nothing new in them)."""
    pending, duplicates = [], 0
    for run in runs:
        if any(f.rec is None for f in run.frames):
            continue  # a frame that is no record: another kind of file (the index), not a journal
        if all(_known_anywhere(games, f) for f in run.frames):
            duplicates += 1
            continue
        pending.append(run)
    pending.sort(key=lambda r: -len(r.frames))  # the longest runs first: the fewest sources to tell
    why = {}
    while True:
        # What a create record or known records settle comes first, and again
        # after every placement by continuation, which is the weakest rule.
        changed = True
        while changed:
            changed = False
            for run in list(pending):
                game_id, how = _owner(games, run)
                if game_id is not None:
                    _give(games, game_id, run, how, pending)
                    changed = True
                else:
                    why[id(run)] = how
        for run in pending:
            game_id, how = _continues(games, run)
            if game_id is not None:
                _give(games, game_id, run, how, pending)
                break
            if how:
                why[id(run)] = how
        else:
            break
    return [(run, why.get(id(run), ""), _could_be(games, run)) for run in pending], duplicates


def _give(games, game_id, run, how, pending):
    game = games.setdefault(game_id, Found(game_id))
    if game.seats is None and run.frames[0].rec[0] == "create":
        game.seats = run.frames[0].seats()
    new = sum(1 for f in run.frames if game.add(f.seq, f.payload, RAW, Phrase("rs_raw_scan", run.where())))
    game.raw.append((run.where(), run.first(), run.last(), new, how))
    pending.remove(run)


def _known_anywhere(games, f):
    for game in games.values():
        have = game.recs.get(f.seq)
        if have is not None and have[0] == f.payload:
            return True
    return False


def _agrees(game, frames):
    # fits the game's seat count and contradicts none of the records it has
    if not game.fits(frames):
        return False
    for f in frames:
        have = game.recs.get(f.seq)
        if have is not None and have[0] != f.payload:
            return False
    return True


def _owner(games, run):
    """(game id, how) by the sure rules (its create record, records known
    from one game), or (None, why not)."""
    frames = run.frames
    first = frames[0]
    creates = [f for f in frames if f.rec[0] == "create"]
    if creates:
        if creates[0] is not first or first.seq != 0:
            return None, Phrase("rs_create_numbered", creates[0].seq)
        game_id = first.rec[1]
        game = games.get(game_id)
        if game is not None and 0 in game.recs and game.recs[0][0] != first.payload:
            return None, Phrase("rs_second_create", game_id)
        if not all(f.seats() in (None, first.seats()) for f in frames):
            return None, Phrase("rs_run_seats")
        return game_id, Phrase("rs_own_create")
    known = set()
    for f in frames:
        for game in games.values():
            have = game.recs.get(f.seq)
            if have is not None and have[0] == f.payload:
                known.add(game.id)
    if len(known) == 1:
        game = games[known.pop()]
        if _agrees(game, frames):
            return game.id, Phrase("rs_known")
        return None, Phrase("rs_contradicts", game.id)
    if len(known) > 1:
        return None, Phrase("rs_known_from", ", ".join(str(g) for g in sorted(known)))
    return None, ""


def _continues(games, run):
    """(game id, how) if exactly one game ends right before the run and fits it."""
    s = run.first()
    fit = [g for g in games.values() if s - 1 in g.recs and s not in g.recs and g.seats is not None
           and _agrees(g, run.frames)]
    if len(fit) == 1:
        return fit[0].id, Phrase("rs_continues", s)
    if len(fit) > 1:
        return None, Phrase("rs_could_continue", ", ".join(str(g.id) for g in fit))
    return None, Phrase("rs_no_owner")


def _could_be(games, run):
    """Games the run would fit (seat count, no contradiction): a hint, not a placement."""
    return sorted(g.id for g in games.values() if g.seats is not None and _agrees(g, run.frames))


class Rebuilt:
    """The outcome for one game: game (tafel.Game or None), used (records
    replayed), set_aside [(seq, payload)], stop (why the replay ended early, or None)."""

    def __init__(self, found, game, used, set_aside, stop):
        self.found, self.game, self.used, self.set_aside, self.stop = found, game, used, set_aside, stop

    @property
    def complete(self):
        return self.game is not None and not self.set_aside and self.stop is None and not self.found.foreign


def rebuild(found):
    """Replays one game from record 0 on, as the device does."""
    recs = found.recs
    if 0 not in recs:
        return Rebuilt(found, None, 0, sorted((s, r[0]) for s, r in recs.items()), Phrase("rs_no_create"))
    try:
        game = Game.from_record(recs[0][0])
    except (RecordError, ScoreError, ValueError) as err:
        return Rebuilt(found, None, 0, sorted((s, r[0]) for s, r in recs.items()),
                       Phrase("rs_create_refused", str(err)))
    seq, stop = 1, None
    while seq in recs:
        try:
            game.apply(recs[seq][0])
        except (RecordError, ScoreError, ValueError) as err:
            stop = Phrase("rs_record_refused", seq, str(err))
            break
        seq += 1
    rest = sorted((s, r[0]) for s, r in recs.items() if s >= seq)
    if stop is None and rest:
        stop = Phrase("rs_missing", seq, rest[0][0] - 1)
    return Rebuilt(found, game, seq, rest, stop)
