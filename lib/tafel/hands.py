# How a round's hands are given to the core: who (by name) and how many points, checked.
from .compat import const
from .errors import ScoreError

MAX_HAND = const(0xFFFE)  # a hand fits a 16-bit cell; 0xFFFF marks "no hand"


def hand_pairs(hands):
    # Hands come as a dict {name: points} or as (name, points) pairs (so a seat can be given twice).
    if isinstance(hands, dict):
        return list(hands.items())
    if isinstance(hands, (list, tuple)):
        for pair in hands:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise ScoreError("hands are given as name and points")
        return list(hands)
    raise ScoreError("hands are given as name and points")


def hand_points(name, points):
    # A hand is a whole number >= 0, or a list of them to add (team mates, card by card).
    if type(points) is int:
        total = points
        ok = points >= 0
    elif isinstance(points, (list, tuple)) and points:
        total = 0
        ok = True
        for p in points:
            if type(p) is not int or p < 0:
                ok = False
                break
            total += p
    else:
        ok = False
    if not ok:
        raise ScoreError("points for %s must be whole numbers of 0 or more" % name)
    if total > MAX_HAND:
        raise ScoreError("%d points for %s cannot be a hand" % (total, name), "bad_hand")
    return total
