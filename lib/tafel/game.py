# One game at the table: seats, variant, target and its rounds, with totals replayed.
#
# Rounds live in a RoundTable (rows of 16-bit cells in small chunks) so a
# 10-seat, 300-round game stays a few kilobytes on the device. Every change goes through a
# record (see records.py): the storage saves the record first, then applies it.
from . import records, variants
from .cards import DEFAULT_VALUES, RANKS, deck_total, value_table
from .compat import const
from .errors import RecordError, ScoreError
from .hands import MAX_HAND, hand_pairs, hand_points
from .names import name_problem
from .roundtable import EMPTY, RoundTable

_MAX_TARGET = const(1000000)


class Round:
    """One round as the table saw it: winner (name or None), hands and scores per seat."""

    def __init__(self, game, index):
        n = len(game.players)
        seat = game._table.winner(index)
        self.index = index
        self.winner = None if seat is None else game.players[seat]
        self.hands = tuple(game._table.hands(index))
        self.scores = tuple(
            variants.round_score(game._variant, s, seat, self.hands) if self.hands[s] is not None else 0
            for s in range(n))


class Rounds:
    """Read-only sequence view of a game's rounds."""

    def __init__(self, game):
        self._game = game

    def __len__(self):
        return self._game._count

    def __getitem__(self, index):
        count = self._game._count
        if index < 0:
            index += count
        if index < 0 or index >= count:
            raise IndexError("no round %d" % index)
        return Round(self._game, index)

    def __iter__(self):
        for i in range(self._game._count):
            yield Round(self._game, i)


class Game:
    def __init__(self, players, variant="standard", target=500, values=None, created=0, game_id=0, dealer=0,
                 stored=False):
        # stored: replayed from a record, whose names were taken before the printable rule (kept as they are)
        code = variants.code(variant)
        if code is None:
            raise ScoreError("unknown variant '%s' (standard, penalty, challenge)" % (variant,))
        if type(target) is not int or target <= 0 or target > _MAX_TARGET:
            raise ScoreError("the target must be a whole number from 1 to %d" % _MAX_TARGET, "bad_target")
        players = tuple(players)
        if len(players) < 2 or len(players) > 10:
            raise ScoreError("a game needs 2 to 10 seats, not %d" % len(players), "two_names")
        seen = []
        for name in players:
            problem = name_problem(name, stored)
            if problem:
                raise ScoreError(problem[1], problem[0])
            key = name.strip().lower()
            if key in seen:
                raise ScoreError("the name '%s' is there twice" % name.strip(), "name_twice")
            seen.append(key)
        try:
            self.values = value_table(values)
        except ValueError as err:
            raise ScoreError(str(err), "bad_values")
        if type(dealer) is not int or dealer < 0 or dealer >= len(players):
            raise ScoreError("the first dealer must be a seat from 1 to %d" % len(players), "bad_dealer")
        self.players = tuple(name.strip() for name in players)
        self.first_dealer = dealer  # the seat (0-based) that deals round 1
        self.variant = variants.NAMES[code]
        self.target = target
        self.created = created
        self.game_id = game_id
        self._variant = code
        self._table = RoundTable(len(self.players))
        self._count = 0
        self._ended = False  # the table ended the game early (finish record)
        self._replay()

    # ---- reading -------------------------------------------------------
    @property
    def rounds(self):
        return Rounds(self)

    @property
    def finished(self):
        return bool(self._won)

    @property
    def ended_early(self):
        """True once the table ended the game (finish record): its rounds are final."""
        return self._ended

    def totals(self):
        return [(self.players[s], self._totals[s]) for s in range(len(self.players))]

    def total(self, seat):
        """One seat's total (by seat index)."""
        return self._totals[seat]

    def winners(self):
        return [self.players[s] for s in self._won] if self._won else []

    def eliminated(self):
        return [self.players[s] for s in range(len(self.players)) if not self._active[s]]

    def dealer(self):
        """Who deals the next round: first_dealer (seat 1 unless chosen) deals round 1, then the
        deal passes left, skipping seats that are out."""
        return self.players[self._dealer]

    def seat(self, name):
        for s in range(len(self.players)):
            if self.players[s] == name:
                return s
        return None

    def preview(self, hands, winner=None):
        """What the Sieger would get for the hands typed so far (the live hint line)."""
        if self._variant != variants.STANDARD:
            return 0
        total = 0
        for name, points in hand_pairs(hands):
            if name != winner:
                total += hand_points(name, points)
        return total

    def deck_warning(self, hands):
        """A message if the hands add up to more than a whole deck is worth, else None.

        Possible only with house values, so the UI asks for confirmation instead of refusing.
        """
        total = 0
        for name, points in hand_pairs(hands):
            total += hand_points(name, points)
        limit = deck_total(self.values)
        if total > limit:
            return "the hands add up to %d, more than the %d a whole deck is worth" % (total, limit)
        return None

    # ---- records: validate without changing anything --------------------
    def create_record(self, created=None, game_id=None):
        overrides = [(r, self.values[r]) for r in range(len(DEFAULT_VALUES))
                     if self.values[r] != DEFAULT_VALUES[r]]
        return records.encode_create(
            self.players, self._variant, self.target, overrides,
            self.created if created is None else created,
            self.game_id if game_id is None else game_id, self.first_dealer)

    def round_record(self, hands, winner):
        w, row = self._check(hands, winner, self._active, self._won)
        return records.encode_round(w, row)

    def edit_record(self, index, hands, winner):
        index = self._round_index(index)
        active, won = self._state_before(index)
        w, row = self._check(hands, winner, active, won)
        rec = records.encode_edit(index, w, row)
        self._trial(records.decode(rec), keep=False)
        return rec

    def undo_record(self):
        if self._ended:
            raise ScoreError("the game was ended; its rounds can no longer change", "game_ended")
        if not self._count:
            raise ScoreError("there is no round to undo", "no_undo")
        return records.encode_undo(self._count - 1)

    def finish_record(self, when=0):
        if self._won:
            raise ScoreError("the game is already over", "game_over")
        if not self._count:
            raise ScoreError("no round played yet", "no_round_yet")
        return records.encode_finish(when)

    # ---- changing: records only --------------------------------------------
    def apply(self, payload):
        """Apply one record. Raises RecordError/ScoreError and changes nothing if it does not fit."""
        event = records.decode(payload)
        kind = event[0]
        if kind == "round":
            self._check_row(event[1], event[2], self._active, self._won)
            self._table.put(self._count, event[1], event[2])
            self._count += 1
            self._after_round(self._count - 1)
        elif kind == "edit" or kind == "undo":
            self._trial(event)
        elif kind == "finish":
            if self._won or not self._count:
                raise ScoreError("the game cannot be ended now", "game_over")
            self._ended = True
            self._won = variants.leaders(self._variant, self._totals, self._active)
        else:
            raise ScoreError("a game cannot be created twice")

    def room_needed(self):
        """Whether the next round will make a chunk of the round table (every few rounds)."""
        return self._table.room_needed(self._count)

    def make_room(self):
        """Make now what the next round will keep in memory (a chunk of the round table every
        few rounds), so that applying it makes nothing lasting: the caller chooses when
        the heap is asked (the device before a save lets its reserve go)."""
        self._table.make_room(self._count)

    def add_round(self, hands, winner=None):
        self.apply(self.round_record(hands, winner))

    def undo_round(self):
        self.apply(self.undo_record())

    def edit_round(self, index, hands, winner=None):
        self.apply(self.edit_record(index, hands, winner))

    def finish(self, when=0):
        self.apply(self.finish_record(when))

    @classmethod
    def from_record(cls, payload):
        event = records.decode(payload, True)
        if event[0] != "create":
            raise ScoreError("a game starts with a create record, not %s" % event[0])
        _, game_id, created, variant, target, players, overrides, dealer = event
        values = {}
        for rank, points in overrides:
            values[RANKS[rank]] = points
        return cls(players, variants.NAMES[variant], target, values or None, created, game_id, dealer, True)

    @classmethod
    def from_records(cls, payloads):
        """Rebuild a game by replaying its records; the first must create it (RecordError if
        there is none)."""
        game = None
        for payload in payloads:
            if game is None:
                game = cls.from_record(payload)
            else:
                game.apply(payload)
        if game is None:
            raise RecordError("no records")
        return game

    # ---- internals ------------------------------------------------------------
    def _check(self, hands, winner, active, won):
        # Turn the caller's names and addends into (winner seat, row per seat), or refuse.
        if won:
            raise ScoreError("the game is over; no more rounds", "game_over")
        n = len(self.players)
        w = None
        if winner is None:
            if variants.winner_required(self._variant):
                raise ScoreError("mark the round's winner (Sieger)", "pick_winner")
        else:
            w = self.seat(winner)
            if w is None:
                raise ScoreError("unknown winner '%s'" % (winner,))
            if not active[w]:
                raise ScoreError("%s is out of the game" % winner)
        row = [None] * n
        for name, points in hand_pairs(hands):
            s = self.seat(name)
            if s is None:
                raise ScoreError("unknown player '%s'" % (name,))
            if row[s] is not None:
                raise ScoreError("%s is given twice" % name)
            if not active[s]:
                raise ScoreError("%s is out of the game and has no hand" % name)
            row[s] = hand_points(name, points)
            if s == w and row[s]:
                raise ScoreError("the winner %s has no cards left: hand must be 0" % name, "winner_hand")
        for s in range(n):
            if active[s] and row[s] is None:
                if s != w:
                    raise ScoreError("no points for %s" % self.players[s], "no_points")
                row[s] = 0
        return w, row

    def _check_row(self, w, row, active, won):
        # The same rules for a decoded record (replayed from flash or edited).
        if won:
            raise ScoreError("the game is over; no more rounds", "game_over")
        if len(row) != len(self.players):
            raise ScoreError("round has %d seats, game has %d" % (len(row), len(self.players)))
        if w is None and variants.winner_required(self._variant):
            raise ScoreError("mark the round's winner (Sieger)", "pick_winner")
        for s in range(len(row)):
            if (row[s] is None) == active[s] or (row[s] is not None and row[s] > MAX_HAND):
                raise ScoreError("round does not fit the seats in play")
        if w is not None and row[w] != 0:
            raise ScoreError("the winner's hand must be 0", "winner_hand")

    def _round_index(self, index):
        if self._ended:
            raise ScoreError("the game was ended; its rounds can no longer change", "game_ended")
        if type(index) is not int or index < 0 or index >= self._count:
            raise ScoreError("there is no round %r" % (index,))
        return index

    def _state_before(self, index):
        # Seats in play and game-over state just before round `index`.
        keep = self._count
        self._count = index
        self._replay()
        active, won = self._active, self._won
        self._count = keep
        self._replay()
        return active, won

    def _trial(self, event, keep=True):
        # Edit and undo rewrite history: replay every round with checks and roll
        # back if any no longer fits; with keep=False roll back even on success.
        # Only the row an edit changes is saved for the roll-back, not the whole table: a copy
        # of a 300-round table would ask the heap for its size again at every edit.
        n = len(self.players)
        count, old = self._count, None
        if event[0] == "undo":
            if self._ended or event[1] != self._count - 1:
                raise ScoreError("only the last round can be undone", "no_undo")
            self._count -= 1
        else:
            index = self._round_index(event[1])
            row = event[3]
            if len(row) != n:
                raise ScoreError("round has %d seats, game has %d" % (len(row), n))
            for h in row:
                if h is not None and h > MAX_HAND:
                    raise ScoreError("%d points cannot be a hand" % h, "bad_hand")
            old = (index, self._table.winner(index), self._table.hands(index))
            self._table.put(index, event[2], row)
        try:
            self._replay(True)
        except ScoreError:
            keep = False
            raise ScoreError("this change does not fit the rounds after it (the game would end earlier or a seat drop out)",
                             "edit_conflict")
        finally:
            if not keep:
                if old is not None:
                    self._table.put(old[0], old[1], old[2])
                self._count = count
                self._replay()

    def _replay(self, check=False):
        n = len(self.players)
        self._totals = [0] * n
        self._active = [True] * n
        self._won = None
        self._dealer = self.first_dealer
        for i in range(self._count):
            if check:
                self._check_row(self._table.winner(i), self._table.hands(i), self._active, self._won)
            self._after_round(i)

    def _after_round(self, i):
        cells, base = self._table.locate(i)
        w = self._table.winner(i)
        n = len(self.players)
        totals = self._totals
        # Scores straight from the table's cells, without a list per round.
        if self._variant == variants.STANDARD:
            won = 0
            for s in range(n):
                h = cells[base + 1 + s]
                if h != EMPTY:
                    won += h
            totals[w] += won
        else:
            for s in range(n):
                h = cells[base + 1 + s]
                if h != EMPTY:
                    totals[s] += h
        self._won = variants.settle(self._variant, totals, self._active, self.target, w)
        self._dealer = self._next_active(self._dealer)

    def _next_active(self, seat):
        n = len(self.players)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self._active[s]:
                return s
        return seat
