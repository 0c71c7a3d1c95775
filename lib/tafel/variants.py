# The three ways of keeping score: who scores in a round, and when a game ends.
#
# standard  - the round's winner (Sieger) scores every other hand; first to the
#             target wins. Only one seat scores per round, so exactly one crosses.
# penalty   - everybody adds their own hand; once anybody reaches the target the
#             game ends and the lowest total wins (ties share the win).
# challenge - like penalty, but whoever reaches the target is out; when two are
#             left the first of them to reach it loses and the other wins.
from .compat import const

STANDARD = const(0)
_PENALTY = const(1)
_CHALLENGE = const(2)
NAMES = ("standard", "penalty", "challenge")


def code(name):
    """Variant code for its name; None if the name is unknown."""
    for i in range(3):
        if NAMES[i] == name:
            return i
    return None


def winner_required(variant):
    # In penalty games a round may end without anybody going out (hands counted anyway).
    return variant == STANDARD


def round_score(variant, seat, winner, hands):
    """What one seat scored in a round (for tables and exports)."""
    if variant == STANDARD:
        if seat != winner:
            return 0
        won = 0
        for points in hands:
            if points:
                won += points
        return won
    return hands[seat] or 0


def settle(variant, totals, active, target, winner):
    """After a round: the seats that won if the game is over, else None.

    `active` (list of bools, per seat) is updated in place for challenge
    eliminations.
    """
    if variant == STANDARD:
        return [winner] if totals[winner] >= target else None
    if variant == _PENALTY:
        for total in totals:
            if total >= target:
                return lowest(totals, active)
        return None
    crossed = []
    left = []
    for seat in range(len(totals)):
        if active[seat]:
            (crossed if totals[seat] >= target else left).append(seat)
    if not crossed:
        return None
    if len(left) >= 2:
        for seat in crossed:
            active[seat] = False
        return None
    if len(left) == 1:
        for seat in crossed:
            active[seat] = False
        return left
    # Every remaining seat crossed at once: the lowest of them wins.
    return lowest(totals, active)


def leaders(variant, totals, active):
    """Who wins if the table ends the game now: highest in standard, else lowest."""
    if variant == STANDARD:
        best = max(totals)
        return [seat for seat in range(len(totals)) if totals[seat] == best]
    return lowest(totals, active)


def lowest(totals, active):
    best = None
    for seat in range(len(totals)):
        if active[seat] and (best is None or totals[seat] < best):
            best = totals[seat]
    return [seat for seat in range(len(totals)) if active[seat] and totals[seat] == best]
