# Tournament rounds: who sits at which table. The first round is drawn at random, later rounds by standings.
#
# A round puts the evening's players at N tables as evenly as they go (sizes
# differ by one at most, the larger tables first; 2 to 10 at a table, as a
# game takes). Round 1 is a shuffle. Later rounds are a Swiss draw for
# tables of several players: tables are filled one after the other from the
# players in the leaderboard's order, each seat taking the best-placed player
# left who met the fewest of those already at the table in earlier rounds,
# so that players of like strength meet and pairs who sat together are
# parted. Then two players of neighbouring tables are swapped wherever that
# still lowers the number of repeated pairs (a pair that met twice counts
# twice), the swap of the closest places first. Players the leaderboard does
# not know yet (arrived late) come after everyone it knows. Everything is
# decided by the seed: the same seed, players and history give the same
# round, so the hub can draw again after a restart.
import random

MIN_SEATS = 2
MAX_SEATS = 10  # tafel.records.MAX_SEATS: a game takes no more


def sizes(players, tables):
    """Seats per table for `players` at `tables` tables; ValueError if they do not fit."""
    if tables < 1:
        raise ValueError("at least one table")
    base, extra = divmod(players, tables)
    out = [base + 1] * extra + [base] * (tables - extra)
    if out[-1] < MIN_SEATS or out[0] > MAX_SEATS:
        raise ValueError("%d players do not fit %d tables of %d to %d" % (players, tables, MIN_SEATS, MAX_SEATS))
    return out


def first_round(players, tables, seed):
    """[[names at table 1], [table 2], ...]: a shuffle dealt to the tables."""
    _check(players)
    order = list(players)
    random.Random(seed).shuffle(order)
    return _deal(order, sizes(len(order), tables))


def next_round(players, tables, ranking, earlier, seed):
    """The next round by standings: `ranking` names from best to worst (the leaderboard's order;
    names not in it come last, shuffled by `seed`), `earlier` the rounds so far (each a list of
    tables, each a list of names)."""
    _check(players)
    known = [name for name in ranking if name in players]
    new = [name for name in players if name not in known]
    random.Random(seed).shuffle(new)
    order = known + new
    met = _meetings(earlier)
    seating = _fill(order, sizes(len(players), tables), met)
    place = {name: i for i, name in enumerate(order)}
    while _improve(seating, met, place):  # each swap lowers the repeats: this ends
        pass
    return seating


def repeats(seating, earlier):
    """How many pairs at this round's tables sat together before (a pair that met twice: 2)."""
    met = _meetings(earlier)
    return sum(_cost(table, met) for table in seating)


def _check(players):
    if len(set(players)) != len(players):
        raise ValueError("a player is named twice")


def _deal(order, counts):
    out = []
    at = 0
    for n in counts:
        out.append(order[at:at + n])
        at += n
    return out


def _meetings(earlier):
    met = {}
    for seating in earlier:
        for table in seating:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    pair = (a, b) if a < b else (b, a)
                    met[pair] = met.get(pair, 0) + 1
    return met


def _cost(table, met):
    total = 0
    for i, a in enumerate(table):
        for b in table[i + 1:]:
            total += met.get((a, b) if a < b else (b, a), 0)
    return total


def _fill(order, counts, met):
    left = list(order)
    seating = []
    for n in counts:
        table = []
        for _ in range(n):
            best = min(range(len(left)), key=lambda i: (sum(_met(met, left[i], b) for b in table), i))
            table.append(left.pop(best))
        seating.append(table)
    return seating


def _met(met, a, b):
    return met.get((a, b) if a < b else (b, a), 0)


def _improve(seating, met, place):
    # The swap between neighbouring tables that lowers the repeats, of the two closest places;
    # False when no swap lowers them.
    best = None
    for t in range(len(seating) - 1):
        upper, lower = seating[t], seating[t + 1]
        before = _cost(upper, met) + _cost(lower, met)
        if not before:
            continue
        for i in range(len(upper)):
            for j in range(len(lower)):
                upper[i], lower[j] = lower[j], upper[i]
                gain = before - _cost(upper, met) - _cost(lower, met)
                upper[i], lower[j] = lower[j], upper[i]
                distance = abs(place[upper[i]] - place[lower[j]])
                if gain > 0 and (best is None or (distance, -gain) < best[0]):
                    best = ((distance, -gain), t, i, j)
    if best is None:
        return False
    _, t, i, j = best
    seating[t][i], seating[t + 1][j] = seating[t + 1][j], seating[t][i]
    return True
