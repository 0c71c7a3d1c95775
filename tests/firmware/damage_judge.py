# Judging games after flash damage (damage.py): kept, rebuilt, reported lost, silently lost or wrong.
#
# A game of the model is found on the device by its create record (players
# and created time; the id may differ only if the store had to re-id it),
# through what the user can reach: store.history() and store.read_game().
# Its state (every round's winner and hands, totals, finished) is compared
# with the state after each prefix of the acknowledged records, so a device
# game is either whole, a prefix (records missing) or matches nothing
# acknowledged ("wrong": a score that never was).
#
# Notes are (key, detail) pairs from store.boot() (and store.report if the
# store has one). A note names a game when its detail is the id, a list of
# ids, a tuple starting with the id ((id, text)), a dict with "id"/"ids",
# or text holding the id's six-digit file name; an int detail of a key in
# COUNT_KEYS is a count, never an id. A loss is reported by a note whose key
# holds a LOSS_WORD and that names the game, or by a general one: a key
# starting "fs_", or holding "lost"/"missing" with no detail or only text.
from store.errors import StoreError
from tafel.game import Game

VERDICTS = ("kept", "rebuilt", "reported", "silent", "wrong")  # rising severity
INTACT = ("kept", "rebuilt")
LOSS_WORDS = ("lost", "unreadable", "damaged", "missing")
COUNT_KEYS = ("index_rebuilt", "flash_low", "flash_full")
KINDS = (("flip", "bit flip"), ("erase", "block erased"), ("zero", "block zeroed"),
         ("flip2", "2 flips, both copies"), ("flip4", "4 flips, both copies"), ("flip8", "8 flips, both copies"),
         ("zero2", "2 blocks zeroed, both copies"))


class GameModel:
    """What was acknowledged for one game: its create record and every
    record after it, in order; call done() once they are all in."""

    def __init__(self, label, players, created, game_id, records):
        self.label = label
        self.players = tuple(players)
        self.created = created
        self.game_id = game_id  # as first stored
        self.records = records
        self.states = {}  # signature -> number of records that give it

    def key(self):
        return (self.players, self.created)

    def done(self):
        self.states = {}
        game = None
        for i in range(len(self.records)):
            if game is None:
                game = Game.from_record(self.records[i])
            else:
                game.apply(self.records[i])
            self.states[signature(game)] = i + 1  # the longest prefix wins a tie


def signature(game):
    """A game's whole visible state, comparable and hashable."""
    rounds = tuple((r.winner, r.hands) for r in game.rounds)
    return (rounds, tuple(game.totals()), game.finished, game.ended_early)


class Survey:
    """The games a user can reach after a boot: history, each read from flash."""

    def __init__(self, store):
        self.games = {}  # model key -> [(id, Game)]
        self.unreadable = []  # (id, StoreError key) listed but not readable
        for game_id in store.history():
            try:
                game = store.read_game(game_id)[0]
            except StoreError as err:
                self.unreadable.append((game_id, err.key))
                continue
            key = (tuple(game.players), game.created)
            if key not in self.games:
                self.games[key] = []
            self.games[key].append((game_id, game))

    def get(self, key, default=None):
        return self.games.get(key, default)


def survey(store):
    return Survey(store)


def notes_of(store, notes):
    """boot()'s notes plus the store's report, if it keeps one."""
    out = list(notes or ())
    report = getattr(store, "report", None)
    if callable(report):
        report = report()
    if isinstance(report, dict):
        report = list(report.items())
    if isinstance(report, (list, tuple)):
        for item in report:
            if isinstance(item, (list, tuple)) and item and isinstance(item[0], str) and item not in out:
                out.append(tuple(item))
    return out


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def mentions(note, ids):
    """True if the note names one of the game ids."""
    key = note[0]
    detail = note[1] if len(note) > 1 else None
    if _is_int(detail):
        return key not in COUNT_KEYS and detail in ids
    if isinstance(detail, str):
        return any(("%06d" % i) in detail for i in ids)
    if isinstance(detail, dict):
        for k in ("id", "ids", "game", "games", "game_id"):
            if k in detail and mentions((key, detail[k]), ids):
                return True
        return False
    if isinstance(detail, (list, tuple)) and detail:
        if all(_is_int(x) for x in detail):
            return any(x in ids for x in detail)  # a list of ids
        if _is_int(detail[0]):
            return detail[0] in ids  # (id, text, ...)
        return any(isinstance(x, (list, tuple, dict)) and mentions((key, x), ids) for x in detail)
    return False


def reports_loss(note, ids):
    key = note[0]
    detail = note[1] if len(note) > 1 else None
    if any(w in key for w in LOSS_WORDS) and mentions(note, ids):
        return True
    if key.startswith("fs_"):
        return True
    general = detail is None or (isinstance(detail, str) and not mentions(note, ids))
    return general and ("lost" in key or "missing" in key)


def best(gm, got):
    """(id, Game) of the found copy with the most acknowledged records, or None."""
    top = None
    for game_id, game in got or ():
        k = gm.states.get(signature(game), -1)
        if top is None or k > top[0]:
            top = (k, game_id, game)
    return None if top is None else (top[1], top[2])


def judge(gm, got, notes, expected=None, unreadable=()):
    """(verdict, text) for one model game. got: [(id, Game)] found by its
    create record; expected: the signature it must have instead of the
    model's last one (a game played on after the damage)."""
    got = got or []
    whole = len(gm.records)
    ids = [gm.game_id] + [i for i, _ in got]
    have = 0
    complete = False
    strange = []
    for game_id, game in got:
        sig = signature(game)
        if expected is not None and sig == expected:
            complete = True
            continue
        k = gm.states.get(sig)
        if k is None:
            strange.append(game_id)
        elif k == whole and expected is None:
            complete = True
        else:
            have = max(have, k)
    if strange:
        return ("wrong", "game %s holds rounds or totals never acknowledged" % strange)
    if complete:
        said = [n for n in notes if mentions(n, ids)]
        return ("rebuilt", _say(said)) if said else ("kept", "")
    if got and expected is not None:
        what = "the round played after the damage is missing (%d of the %d records before it there)" % (have, whole)
    elif got:
        what = "%d of %d records" % (have, whole)
    else:
        what = "missing"
        listed = [k for i, k in unreadable if i in ids]
        if listed:
            what += " (listed, opening it: %s)" % listed[0]
    said = [n for n in notes if reports_loss(n, ids)]
    if said:
        return ("reported", what + "; " + _say(said))
    return ("silent", what + ("; notes: " + _say(notes) if notes else "; no notes"))


def worse(a, b):
    """The more severe of two (verdict, text) pairs; None counts as nothing."""
    if a is None:
        return b
    if b is None:
        return a
    return b if VERDICTS.index(b[0]) > VERDICTS.index(a[0]) else a


def _say(notes):
    return ", ".join("%s %r" % (n[0], n[1] if len(n) > 1 else None) for n in notes[:4])


# ---- counting and printing ---------------------------------------------------------

COLUMNS = ("damage", "trials", "unmountable", "games kept", "rebuilt", "reported lost", "silent", "wrong", "crashed")


class Tally:
    """The campaign's counts, kept as trials come (a long campaign keeps no
    trial that went well: the heap holds only the counts and the failing)."""

    def __init__(self):
        self.counts = {}  # kind -> [trials, unmountable, kept, rebuilt, reported, silent, wrong, crashed]
        self.failing = []  # trials with an outcome or a game that is not fine

    def add(self, trial):
        row = self.counts.get(trial.kind)
        if row is None:
            row = self.counts[trial.kind] = [0] * (len(COLUMNS) - 1)
        row[0] += 1
        if trial.outcome == "unmountable":
            row[1] += 1
        elif trial.outcome == "crashed":
            row[7] += 1
        for _, verdict, _ in trial.games:
            row[2 + VERDICTS.index(verdict)] += 1
        if trial.outcome != "mounted" or any(g[1] not in INTACT for g in trial.games):
            trial.image = None
            self.failing.append(trial)

    def rows(self):
        """Rows of COLUMNS, one per damage kind that occurred, in KINDS order."""
        return [[title] + self.counts[kind] for kind, title in KINDS if kind in self.counts]

    def total(self):
        """{column: sum over every kind} for the columns after "damage"."""
        return dict((COLUMNS[i], sum(self.counts[k][i - 1] for k in self.counts)) for i in range(1, len(COLUMNS)))


def table(rows):
    cells = [list(COLUMNS)] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(COLUMNS))]
    lines = []
    for r in cells:  # (MicroPython's str has no ljust/rjust)
        pad = [" " * (widths[i] - len(r[i])) for i in range(len(r))]
        lines.append("  ".join(r[0] + pad[0] if i == 0 else pad[i] + r[i] for i in range(len(r))))
    return "\n".join(lines)


def failures(trials, describe=None):
    """One line per game not kept or rebuilt, per crashed or unmountable trial."""
    out = []
    for t in trials:
        where = "block %d%s %s%s" % (t.block, " (%s)" % describe(t.block) if describe else "",
                                    t.kind, " " + t.where if t.where else "")
        if t.outcome != "mounted":
            out.append("%s: %s (%s)" % (where, t.outcome, t.error))
        said = []  # (verdict, text, labels): games that fared alike on one line
        for label, verdict, text in t.games:
            if verdict in INTACT:
                continue
            for s in said:
                if s[0] == verdict and s[1] == text:
                    s[2].append(label)
                    break
            else:
                said.append((verdict, text, [label]))
        for verdict, text, labels in said:
            out.append("%s: game%s %s %s: %s" % (where, "s" if len(labels) > 1 else "", ", ".join(labels), verdict, text))
    return out
