# Property tests of the scoring core (CPython only: MicroPython has no hypothesis,
# and tests/mpy_runner.py reports this file as skipped when the import fails).
#
# The scores are checked against a small reference scorer written here from the
# rules in docs/design.md section 2, not from lib/tafel: every operation on a game is
# mirrored on a model (a plain list of rounds) that decides on its own whether
# the operation must be accepted and what the game must show afterwards.
import random

import hypothesis  # first, so MicroPython skips this file (see tests/mpy_runner.py)
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tafel import CardError, Game, RecordError, ScoreError, card_points, hand_points, journal, records
from tafel.game import MAX_HAND
from tafel.names import bad_char, undrawable  # MAX_HAND: largest hand the core stores (flat u16 array)

MAX_NUMBER = 0xFFFFFFFF  # largest number in a record (documented in records.py)
NAMES = ("Anna", "Ben", "Cleo", "Dieter", "Eva", "Fritz", "Gül", "Hanna & Ömer", "Ida", "Jan")
VARIANTS = ("standard", "penalty", "challenge")
ALLOWED = (ScoreError, CardError, RecordError)


def quick(n):
    # The whole file stays within a few seconds: small example counts, no deadline.
    return settings(max_examples=n, deadline=None, suppress_health_check=list(HealthCheck))


# ---- the reference scorer (from docs/design.md section 2) -------------------------


class Invalid(Exception):
    """The reference says the game must refuse this."""


def ref_points(value):
    # A hand: a whole number >= 0 (bools are not numbers here), or a non-empty list of them.
    if type(value) is int and value >= 0:
        total = value
    elif isinstance(value, (list, tuple)) and value and all(type(p) is int and p >= 0 for p in value):
        total = sum(value)
    else:
        raise Invalid("bad points %r" % (value,))
    if total > MAX_HAND:
        raise Invalid("hand too large")
    return total


def lowest(totals, active):
    best = min(totals[s] for s in range(len(totals)) if active[s])
    return [s for s in range(len(totals)) if active[s] and totals[s] == best]


def ref_replay(variant, target, n, rounds):
    """Totals, seats in play, winners (None while running) and next dealer after `rounds`.

    Raises Invalid if a round does not fit the game as it stood before it.
    """
    totals = [0] * n
    active = [True] * n
    won = None
    dealer = 0  # the first seat deals the first round; the deal passes left
    for w, row in rounds:
        if won is not None:
            raise Invalid("round after the game ended")
        if len(row) != n:
            raise Invalid("wrong seat count")
        if variant == "standard" and w is None:
            raise Invalid("standard needs a winner")
        for s in range(n):
            if (row[s] is not None) != active[s]:
                raise Invalid("a seat in play without a hand, or an eliminated seat with one")
            if row[s] is not None and not 0 <= row[s] <= MAX_HAND:
                raise Invalid("hand out of range")
        if w is not None and row[w] != 0:
            raise Invalid("the winner holds no cards")
        hands = [h or 0 for h in row]
        if variant == "standard":
            # The winner scores every other hand; the only one who scores can cross.
            totals[w] += sum(hands)
            if totals[w] >= target:
                won = [w]
        elif variant == "penalty":
            # Everyone adds their own hand; once anyone reaches the target the lowest wins.
            for s in range(n):
                totals[s] += hands[s]
            if max(totals) >= target:
                won = lowest(totals, active)
        else:
            # Challenge: whoever reaches the target is out; when one is left, that one
            # wins; if every seat still in play crossed at once, the lowest of them wins.
            playing = [s for s in range(n) if active[s]]
            for s in playing:
                totals[s] += hands[s]
            out = [s for s in playing if totals[s] >= target]
            stay = [s for s in playing if totals[s] < target]
            if out:
                if not stay:
                    won = lowest(totals, active)
                else:
                    for s in out:
                        active[s] = False
                    if len(stay) == 1:
                        won = stay
        for step in range(1, n + 1):
            if active[(dealer + step) % n]:
                dealer = (dealer + step) % n
                break
    return totals, active, won, dealer


def round_scores(variant, w, row):
    if variant == "standard":
        won = sum(h or 0 for h in row)
        return tuple(won if s == w else 0 for s in range(len(row)))
    return tuple(h or 0 for h in row)


class Model:
    """A game as the rules describe it: a list of rounds and whether the table ended it."""

    def __init__(self, names, variant, target):
        self.names = tuple(names)
        self.n = len(names)
        self.variant = variant
        self.target = target
        self.rounds = []  # (winner seat or None, row of hands with None = no hand)
        self.ended = False

    def replay(self, rounds=None):
        return ref_replay(self.variant, self.target, self.n, self.rounds if rounds is None else rounds)

    def seat(self, name):
        if isinstance(name, str) and name in self.names:
            return self.names.index(name)
        raise Invalid("unknown name %r" % (name,))

    def row(self, hands, winner):
        # The row the game must store for the caller's hands, or Invalid.
        w = None if winner is None else self.seat(winner)
        row = [None] * self.n
        for name, points in hands.items():
            row[self.seat(name)] = ref_points(points)
        if w is not None and row[w] is None:
            row[w] = 0  # the winner's hand may be left out
        return w, tuple(row)

    # Each try_* raises Invalid, or changes the model as the game must change.
    def try_round(self, w, row):
        if self.ended:
            raise Invalid("ended")
        rounds = self.rounds + [(w, tuple(row))]
        self.replay(rounds)
        self.rounds = rounds

    def try_edit(self, index, w, row):
        if self.ended or type(index) is not int or not 0 <= index < len(self.rounds):
            raise Invalid("no such round")
        rounds = list(self.rounds)
        rounds[index] = (w, tuple(row))
        self.replay(rounds)
        self.rounds = rounds

    def try_undo(self, index=None):
        if self.ended or not self.rounds:
            raise Invalid("nothing to undo")
        if index is not None and index != len(self.rounds) - 1:
            raise Invalid("only the last round")
        self.rounds = self.rounds[:-1]

    def try_finish(self):
        if self.ended or not self.rounds or self.replay()[2] is not None:
            raise Invalid("cannot finish")
        self.ended = True

    def state(self):
        totals, active, won, dealer = self.replay()
        if self.ended:
            # The table ends the game: highest wins in standard, else lowest still in play.
            if self.variant == "standard":
                best = max(totals)
                won = [s for s in range(self.n) if totals[s] == best]
            else:
                won = lowest(totals, active)
        rounds = []
        for i, (w, row) in enumerate(self.rounds):
            rounds.append((i, None if w is None else self.names[w], row, round_scores(self.variant, w, row)))
        return {
            "totals": [(self.names[s], totals[s]) for s in range(self.n)],
            "rounds": rounds,
            "dealer": self.names[dealer],
            "finished": bool(won),
            "winners": [self.names[s] for s in won] if won else [],
            "eliminated": [self.names[s] for s in range(self.n) if not active[s]],
        }


def observe(game):
    """Everything a caller can see of a game, for comparing."""
    return {
        "totals": game.totals(),
        "rounds": [(r.index, r.winner, r.hands, r.scores) for r in game.rounds],
        "dealer": game.dealer(),
        "finished": game.finished,
        "winners": game.winners(),
        "eliminated": game.eliminated(),
    }


def snapshot(game):
    full = observe(game)
    full.update(players=game.players, variant=game.variant, target=game.target,
                values=game.values, count=len(game.rounds))
    return full


def refused(action, game, exc=ScoreError):
    """`action` raises `exc` and leaves the game exactly as it was."""
    before = snapshot(game)
    with pytest.raises(exc):
        action()
    assert snapshot(game) == before


# ---- strategies ------------------------------------------------------------

game_setup = st.tuples(
    st.integers(2, 10),
    st.sampled_from(VARIANTS),
    st.sampled_from((1, 20, 50, 100, 200, 500, 1000)),
)

JUNK_POINTS = st.one_of(
    st.integers(-(10 ** 6), -1),
    st.sampled_from((MAX_HAND + 1, 0xFFFF, 0x10000, 2 ** 32, 2 ** 64)),
    st.booleans(),
    st.floats(allow_nan=True),
    st.none(),
    st.text(max_size=3),
    st.just([]),
    st.lists(st.one_of(st.integers(-5, 50), st.booleans(), st.floats(), st.text(max_size=2)),
             min_size=1, max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.binary(max_size=2),
)
JUNK_NAMES = st.one_of(
    st.sampled_from(("", " ", "nobody", "anna", "Anna ", "ANNA")),
    st.integers(),
    st.booleans(),
    st.floats(allow_nan=False),
    st.binary(max_size=3),
    st.tuples(st.text(max_size=2)),
)


JUNK_VALUES = (-1, -1000, MAX_HAND + 1, 0xFFFF, 0x10000, 2 ** 32, 2 ** 64, True, False, 1.0, 0.5,
               float("nan"), float("inf"), None, "5", "", [], [1, -1], [True], [1.5], ["3"], [None],
               {}, {"a": 1}, b"\x05", bytearray(1))
JUNK_KEYS = ("", " ", "nobody", "anna", "Anna ", "ANNA", 0, 1, 1.5, True, b"Anna", ("Anna",), frozenset())


def dice(data):
    # Per-seat choices come from one seeded Random: far fewer hypothesis draws, so fast.
    return random.Random(data.draw(st.integers(0, 2 ** 32 - 1), label="seed"))


def draw_points(rng, hi, junk):
    if junk and rng.randrange(6) == 0:
        return rng.choice(JUNK_VALUES)
    if rng.randrange(5) == 0:  # team mates' hands or card by card
        return [rng.randint(0, max(1, hi // 3)) for _ in range(rng.randint(1, 3))]
    return rng.randint(0, hi)


def draw_hands(rng, model, active, junk=False, hi=None):
    """A hands dict and winner for the next round: mostly valid, with `junk` sometimes not.

    `hi` bounds a hand; by default it is drawn per round (short and long games).
    """
    n = model.n
    playing = [s for s in range(n) if active[s]] or list(range(n))
    pick = rng.randrange(10)
    if pick == 0 and model.variant != "standard":
        w = None
    elif pick == 1 and junk:
        w = rng.choice(list(range(n)) + [None])
    else:
        w = rng.choice(playing)
    if hi is None:
        hi = rng.choice((max(1, model.target // 4), model.target, 120, 30, 12))
    hands = {}
    for s in range(n):
        if s == w:
            roll = rng.randrange(4)
            if roll == 0:
                hands[model.names[s]] = 0  # the winner typed as 0
            elif roll == 1 and junk:
                hands[model.names[s]] = rng.randint(1, 9)
        elif active[s]:
            if not (junk and rng.randrange(16) == 0):  # now and then a seat is forgotten
                hands[model.names[s]] = draw_points(rng, hi, junk)
        elif junk and rng.randrange(2):
            hands[model.names[s]] = draw_points(rng, hi, junk)  # a hand for an eliminated seat
    if junk and rng.randrange(6) == 0:
        hands[rng.choice(JUNK_KEYS)] = draw_points(rng, hi, junk)
    winner = None if w is None else model.names[w]
    if junk and rng.randrange(10) == 0:
        winner = rng.choice(JUNK_KEYS)
    return hands, winner


def new_game(setup):
    n, variant, target = setup
    names = NAMES[:n]
    return Game(names, variant, target), Model(names, variant, target)


def play_valid(data, game, model, rounds):
    """Add up to `rounds` valid rounds (fewer if the game ends) through the public API."""
    rng = dice(data)
    hi = rng.choice((None, 5, 12, 30))  # one scale per game, so that some games run long
    for _ in range(rounds):
        if game.finished:
            break
        active = model.replay()[1]
        hands, winner = draw_hands(rng, model, active, hi=hi)
        w, row = model.row(hands, winner)
        model.try_round(w, row)
        game.add_round(hands, winner)


# ---- scores follow the rules ----------------------------------------------------


@quick(150)
@given(st.integers(2, 10), st.integers(1, 400), st.data())
def test_in_standard_exactly_one_seat_crosses_the_target(n, target, data):
    game, model = new_game((n, "standard", target))
    rng = dice(data)
    for _ in range(100):
        hands, winner = draw_hands(rng, model, [True] * n)
        game.add_round(hands, winner)
        model.try_round(*model.row(hands, winner))
        crossed = [name for name, total in game.totals() if total >= target]
        if game.finished:
            assert crossed == [winner] == game.winners()
            break
        assert crossed == []
    assert observe(game) == model.state()
    if game.finished:
        refused(lambda: game.add_round({name: 1 for name in game.players[1:]}, game.players[0]), game)


@quick(150)
@given(game_setup, st.integers(1, 40), st.data())
def test_random_operations_match_the_reference_scorer(setup, steps, data):
    """add/undo/edit/finish/preview, valid or not: the game always shows what the rules say.

    Every change goes through its record (as the device does: save, then apply), and at
    the end replaying the saved records, also through journal frames, rebuilds the game.
    """
    game, model = new_game(setup)
    log = [game.create_record()]
    for _ in range(steps):
        op = data.draw(st.sampled_from(("add",) * 6 + ("undo", "edit", "edit", "finish", "preview")))
        junk = data.draw(st.integers(0, 4)) == 0
        before = snapshot(game)
        try:
            if op == "add":
                hands, winner = draw_hands(dice(data), model, model.replay()[1], junk)
                def make(hands=hands, winner=winner):
                    return game.round_record(hands, winner)
                w, row = model.row(hands, winner)
                model.try_round(w, row)
            elif op == "edit":
                count = len(model.rounds)
                if junk and data.draw(st.booleans()):
                    index = data.draw(st.one_of(st.integers(-3, count + 2), st.sampled_from((True, 0.0, "0", None))))
                else:
                    index = data.draw(st.integers(0, max(0, count - 1)))
                active = model.replay(model.rounds[:index])[1] if type(index) is int and 0 <= index else [True] * model.n
                hands, winner = draw_hands(dice(data), model, active, junk)
                def make(index=index, hands=hands, winner=winner):
                    return game.edit_record(index, hands, winner)
                w, row = model.row(hands, winner)
                model.try_edit(index, w, row)
            elif op == "undo":
                make = game.undo_record
                model.try_undo()
            elif op == "finish":
                make = game.finish_record
                model.try_finish()
            else:
                hands, winner = draw_hands(dice(data), model, model.replay()[1], junk)
                if model.variant == "standard":
                    expected = sum(ref_points(p) for name, p in hands.items() if name != winner)
                else:
                    expected = 0
                assert game.preview(hands, winner) == expected
                assert snapshot(game) == before
                continue
        except Invalid:
            hypothesis.event("%s refused" % op)
            if op == "preview":
                refused(lambda hands=hands, winner=winner: game.preview(hands, winner), game)
            else:
                refused(make, game)
            continue
        hypothesis.event("%s accepted" % op)
        record = make()
        assert snapshot(game) == before  # building a record changes nothing
        game.apply(record)
        log.append(record)
        assert observe(game) == model.state()
        if model.variant == "standard":
            crossed = [s for s, (_, total) in enumerate(game.totals()) if total >= model.target]
            assert len(crossed) <= 1
            if game.finished and not model.ended:
                assert game.winners() == [game.players[s] for s in crossed]

    assert observe(game) == model.state()
    hypothesis.event("%s game: %s, %d eliminated" % (
        model.variant, "over" if game.finished else "running", len(game.eliminated())))
    final = snapshot(game)
    assert snapshot(Game.from_records(log)) == final
    stream = b"".join(journal.frame(seq, payload) for seq, payload in enumerate(log))
    framed, end, problem = journal.scan(stream)
    assert (end, problem) == (len(stream), None)
    assert snapshot(Game.from_records([payload for _, payload in framed])) == final


@quick(100)
@given(game_setup, st.integers(0, 30), st.data())
def test_undo_after_add_is_identity(setup, played, data):
    game, model = new_game(setup)
    play_valid(data, game, model, played)
    if game.finished:  # reopen it: the round that ended it is taken back
        game.undo_round()
        model.try_undo()
        assert observe(game) == model.state()
    before = snapshot(game)
    hands, winner = draw_hands(dice(data), model, model.replay()[1])
    game.add_round(hands, winner)  # may end the game: undo must reopen it
    hypothesis.event("undo after %d rounds, %s" % (len(game.rounds), "ending" if game.finished else "running"))
    game.undo_round()
    assert snapshot(game) == before
    # The space the undone round leaves is reused: adding it again gives the same game.
    game.add_round(hands, winner)
    again = snapshot(game)
    game.undo_round()
    game.add_round(hands, winner)
    assert snapshot(game) == again


@quick(100)
@given(game_setup, st.integers(1, 30), st.data())
def test_edit_to_the_same_values_is_identity(setup, played, data):
    game, model = new_game(setup)
    play_valid(data, game, model, played)
    before = snapshot(game)
    hypothesis.event("edit %d rounds, %s" % (len(game.rounds), "over" if game.finished else "running"))
    for r in game.rounds:
        hands = {name: h for name, h in zip(game.players, r.hands) if h is not None}
        game.edit_round(r.index, hands, r.winner)
        assert snapshot(game) == before


@quick(100)
@given(game_setup, st.integers(1, 30), st.data())
def test_an_edit_taken_back_by_another_edit_is_identity(setup, played, data):
    game, model = new_game(setup)
    play_valid(data, game, model, played)
    before = snapshot(game)
    index = data.draw(st.integers(0, len(game.rounds) - 1))
    old = game.rounds[index]
    old_hands = {name: h for name, h in zip(game.players, old.hands) if h is not None}
    hands, winner = draw_hands(dice(data), model, model.replay(model.rounds[:index])[1])
    try:
        game.edit_round(index, hands, winner)
    except ScoreError:
        assert snapshot(game) == before  # refused: the rounds after it would no longer fit
        return
    game.edit_round(index, old_hands, old.winner)
    assert snapshot(game) == before


# ---- record codec ------------------------------------------------------------

names_st = st.text(st.characters(codec="utf-8"), min_size=1, max_size=12)  # <= 48 bytes
number = st.integers(0, MAX_NUMBER)
hands_row = st.lists(st.one_of(st.none(), st.integers(0, MAX_NUMBER - 1)), min_size=2, max_size=10)


@quick(150)
@given(st.lists(names_st, min_size=2, max_size=10), st.integers(0, 2), number,
       st.lists(st.tuples(st.integers(0, 16), number), max_size=17), number, number)
def test_create_record_round_trips(players, variant, target, overrides, created, game_id):
    payload = records.encode_create(players, variant, target, overrides, created, game_id)
    assert records.decode(payload) == ("create", game_id, created, variant, target,
                                       tuple(players), tuple(overrides))


@quick(150)
@given(hands_row, st.data(), number)
def test_round_edit_undo_finish_records_round_trip(hands, data, index):
    winner = data.draw(st.one_of(st.none(), st.integers(0, len(hands) - 1)))
    assert records.decode(records.encode_round(winner, hands)) == ("round", winner, tuple(hands))
    assert records.decode(records.encode_edit(index, winner, hands)) == ("edit", index, winner, tuple(hands))
    assert records.decode(records.encode_undo(index)) == ("undo", index)
    assert records.decode(records.encode_finish(index)) == ("finish", index)


TABLE_NAMES = ("Anna", "Ben", "Cleo", "Dora", "Jürgen", "Özlem", "Käthe", "Anna & Ben", " Emil ", "Zoë", "Łukasz",
               "Fritz", "Gül")  # names a table types; some the device may refuse
RANK_WORDS = ("0", "5", "9", "skip", "aussetzen", "reverse", "retour", "draw2", "+2", "zieh2",
              "wild", "farbwahl", "wild4", "+4", "swap", "handtausch", "blank", "blanko")


@quick(150)
@given(st.lists(names_st, min_size=2, max_size=10, unique_by=lambda s: s.strip().lower()),
       st.sampled_from(VARIANTS), st.integers(1, 100000),
       st.dictionaries(st.sampled_from(RANK_WORDS), st.integers(0, 500), max_size=6), number, number)
def test_a_game_is_rebuilt_from_its_create_record(players, variant, target, values, created, game_id):
    try:
        game = Game(players, variant, target, values or None, created, game_id)
    except ScoreError:
        # blank, a control character, a character the device can neither draw nor fold: refused
        assert any(not p.strip() or bad_char(p.strip()) >= 0 or undrawable(p.strip()) >= 0 for p in players)
        return
    again = Game.from_record(game.create_record())
    assert (again.players, again.variant, again.target, again.values, again.created, again.game_id) == (
        game.players, game.variant, game.target, game.values, game.created, game.game_id)


def encode_event(event):
    kind = event[0]
    if kind == "create":
        _, game_id, created, variant, target, players, overrides = event
        return records.encode_create(players, variant, target, overrides, created, game_id)
    if kind == "round":
        return records.encode_round(event[1], event[2])
    if kind == "edit":
        return records.encode_edit(event[1], event[2], event[3])
    if kind == "undo":
        return records.encode_undo(event[1])
    return records.encode_finish(event[1])


def valid_records(n, count=40):
    # Well-formed records with any values, for a game of n seats (and thereabouts) and count rounds.
    seats = st.integers(max(2, n - 1), min(10, n + 1))
    row = seats.flatmap(lambda k: st.lists(
        st.one_of(st.none(), st.integers(0, 300), st.integers(0, MAX_NUMBER - 1)), min_size=k, max_size=k))
    winner = st.one_of(st.none(), st.integers(0, n - 1))
    return st.one_of(
        st.builds(records.encode_round, winner, row),
        st.builds(records.encode_edit, st.integers(0, count), winner, row),
        st.builds(records.encode_undo, st.integers(0, count)),
        st.builds(records.encode_finish, number),
        st.builds(records.encode_create, st.just(NAMES[:n]), st.integers(0, 2), st.integers(1, 500)),
    )


def damaged(payloads):
    # A valid record with bytes flipped, cut, inserted or dropped.
    def hurt(args):
        payload, pos, byte, how = args
        pos %= len(payload) + 1
        if how == 0:
            return payload[:pos]
        if how == 1:
            return payload[:pos] + bytes([byte]) + payload[pos:]
        if how == 2:
            return payload[:pos] + payload[pos + 1:]
        if pos == len(payload):
            pos -= 1
        return payload[:pos] + bytes([payload[pos] ^ (byte or 1)]) + payload[pos + 1:]
    return st.tuples(payloads, st.integers(0, 60), st.integers(0, 255), st.integers(0, 3)).map(hurt)


@quick(150)
@given(st.one_of(st.binary(max_size=60), damaged(valid_records(4))))
def test_decode_takes_any_bytes(payload):
    try:
        event = records.decode(payload)
    except RecordError:
        return
    # Whatever decodes re-encodes to a payload that decodes the same.
    assert records.decode(encode_event(event)) == event


@quick(150)
@given(game_setup, st.integers(0, 25), st.data())
def test_apply_takes_any_bytes_and_keeps_the_game_on_refusal(setup, played, data):
    game, model = new_game(setup)
    play_valid(data, game, model, played)
    if data.draw(st.integers(0, 5)) == 0 and model.rounds and not game.finished:
        game.finish()
        model.try_finish()
    n = model.n
    count = len(model.rounds)
    payload = data.draw(st.one_of(st.binary(max_size=30), valid_records(n, count), damaged(valid_records(n, count))))
    before = snapshot(game)
    try:
        event = records.decode(payload)
    except RecordError:
        refused(lambda: game.apply(payload), game, RecordError)
        return
    kind = event[0]
    try:
        if kind == "round":
            model.try_round(event[1], event[2])
        elif kind == "edit":
            model.try_edit(event[1], event[2], event[3])
        elif kind == "undo":
            model.try_undo(event[1])
        elif kind == "finish":
            model.try_finish()
        else:
            raise Invalid("a second create")
    except Invalid:
        hypothesis.event("apply: %s refused" % kind)
        refused(lambda: game.apply(payload), game)
        return
    hypothesis.event("apply: %s accepted" % kind)
    game.apply(payload)
    assert snapshot(game) != before or kind == "edit"
    assert observe(game) == model.state()


@hypothesis.example(["Jürgen", "Özlem", "Käthe"], "penalty", 500, None)  # one created in every run
@quick(150)
@given(st.one_of(st.lists(st.one_of(JUNK_NAMES, names_st), max_size=12),
                st.lists(st.sampled_from(TABLE_NAMES), min_size=2, max_size=10, unique=True)),
       st.one_of(st.sampled_from(VARIANTS), JUNK_NAMES),
       st.one_of(st.integers(-5, 2000), JUNK_POINTS),
       st.one_of(st.none(), st.dictionaries(st.one_of(st.sampled_from(RANK_WORDS), JUNK_NAMES),
                                            st.one_of(st.integers(0, 100), JUNK_POINTS), max_size=3)))
def test_a_game_is_created_or_refused_with_a_score_error(players, variant, target, values):
    # Refused only with a ScoreError; created, it is the game asked for: its seats, variant and
    # target, no round yet, every total 0, and its create record makes the same game again.
    try:
        game = Game(players, variant, target, values)
    except ScoreError:
        hypothesis.event("refused")
        return
    hypothesis.event("created")
    assert game.players == tuple(name.strip() for name in players)
    assert 2 <= len(game.players) <= 10
    assert game.variant == variant and game.target == target
    assert len(game.rounds) == 0 and not game.finished
    assert [total for _, total in game.totals()] == [0] * len(game.players)
    again = Game.from_record(game.create_record())
    assert (again.players, again.variant, again.target, again.values) == \
        (game.players, game.variant, game.target, game.values)


@quick(150)
@given(st.one_of(st.text(max_size=20), st.sampled_from(("red 7", "Grün Aussetzen", "wild4", "+4", "blau +2")),
                 st.integers(), st.none(), st.binary(max_size=4)))
def test_a_card_is_points_or_a_card_error(card):
    try:
        points = card_points(card)
    except CardError:
        return
    assert points in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 40, 50)
    assert hand_points([card, card]) == 2 * points


# ---- journal framing ---------------------------------------------------------

payloads_st = st.lists(st.binary(min_size=1, max_size=80), min_size=1, max_size=12)
first_seq = st.integers(0, 2 ** 32 - 20)


def framed(first, payloads):
    frames = [journal.frame(first + i, p) for i, p in enumerate(payloads)]
    ends = []
    pos = 0
    for f in frames:
        pos += len(f)
        ends.append(pos)
    return b"".join(frames), ends


def originals(first, payloads):
    return [(first + i, p) for i, p in enumerate(payloads)]


@quick(150)
@given(first_seq, payloads_st, st.sampled_from((b"", b"\xff" * 37, b"\x00" * 5)))
def test_frames_round_trip_and_erased_space_is_a_clean_end(first, payloads, erased):
    stream, _ = framed(first, payloads)
    assert journal.scan(stream + erased) == (originals(first, payloads), len(stream), None)
    assert journal.scan(bytearray(stream)) == (originals(first, payloads), len(stream), None)


@quick(150)
@given(first_seq, payloads_st, st.data())
def test_a_torn_tail_keeps_every_whole_frame_before_it(first, payloads, data):
    stream, ends = framed(first, payloads)
    cut = data.draw(st.integers(0, len(stream)))
    got, end, problem = journal.scan(stream[:cut])
    whole = [e for e in ends if e <= cut]
    assert got == originals(first, payloads)[:len(whole)]
    assert end == (whole[-1] if whole else 0)
    if cut in ends or cut == 0:
        assert problem is None


@quick(150)
@given(first_seq, payloads_st, st.data())
def test_a_flipped_bit_keeps_every_frame_before_the_damage(first, payloads, data):
    stream, ends = framed(first, payloads)
    pos = data.draw(st.integers(0, len(stream) - 1))
    bit = data.draw(st.integers(0, 7))
    broken = bytearray(stream)
    broken[pos] ^= 1 << bit
    hit = [i for i, e in enumerate(ends) if pos < e][0]  # the frame that holds the bit
    got, end, problem = journal.scan(bytes(broken))
    assert got == originals(first, payloads)[:hit]
    assert end == (ends[hit - 1] if hit else 0)


@quick(150)
@given(first_seq, payloads_st, st.data())
def test_overwritten_bytes_keep_every_frame_before_the_damage(first, payloads, data):
    stream, ends = framed(first, payloads)
    pos = data.draw(st.integers(0, len(stream) - 1))
    junk = data.draw(st.binary(min_size=1, max_size=40))
    broken = stream[:pos] + junk + stream[pos + len(junk):]
    got, end, problem = journal.scan(broken)
    keep = len([e for e in ends if e <= pos])
    assert got[:keep] == originals(first, payloads)[:keep]
    # Frames after the damage may only be trusted if the damage left them as they were.
    assert got == originals(first, payloads)[:len(got)] or broken == stream


@quick(150)
@given(st.binary(max_size=200))
def test_scan_takes_any_bytes(buf):
    got, end, problem = journal.scan(buf)
    assert 0 <= end <= len(buf)
    assert problem is None or isinstance(problem, str)
    for _seq, payload in got:
        assert isinstance(payload, bytes) and len(payload) <= journal.MAX_PAYLOAD


# ---- found by the properties above: each failing until lib/tafel is fixed ---------


@pytest.mark.parametrize("hand", [0x10000, 70000, MAX_NUMBER - 1])
def test_an_edit_record_with_an_oversized_hand_is_refused_with_a_score_error(hand):
    # A round record with such a hand is refused (ScoreError); the same hand in an
    # edit record reaches the u16 array before any check: CPython raises
    # OverflowError, and MicroPython silently stores hand % 65536 (70000 -> 4464).
    game = Game(["Anna", "Ben"])
    game.add_round({"Ben": 5}, "Anna")
    refused(lambda: game.apply(records.encode_round(0, [0, hand])), game)
    refused(lambda: game.apply(records.encode_edit(0, 0, [0, hand])), game)


@pytest.mark.parametrize("args", [
    ((u"Ä" * 33, "Ben"), 500, None),        # 66 bytes of UTF-8: the codec reads names up to 64
    (("A" * 65, "Ben"), 500, None),
    (("Anna", "Ben"), MAX_NUMBER + 1, None),  # a target no varint of the codec holds
    (("Anna", "Ben"), 500, {"wild": MAX_NUMBER + 1}),
])
def test_a_game_the_core_accepts_can_be_saved_and_restored(args):
    # Either refuse at Game(...) with a ScoreError, or round-trip through the create record.
    players, target, values = args
    try:
        game = Game(players, "standard", target, values)
    except ScoreError:
        return
    again = Game.from_record(game.create_record())
    assert (again.players, again.target, again.values) == (game.players, game.target, game.values)
