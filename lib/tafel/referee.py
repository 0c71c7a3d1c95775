# Rules referee: which cards may be played, Wild Draw Four challenges, turn order.
from .cardnames import colour_code, parse_card
from .cards import FIRST_BLACK
from .compat import const
from .errors import CardError, ScoreError

_SKIP = const(10)
_REVERSE = const(11)
_DRAW2 = const(12)
_WILD4 = const(14)


def _active(top, color):
    # The colour in force: a coloured top card's own colour wins and `color` is
    # ignored; on a black top it is the colour chosen with it (None if none yet).
    top_colour, top_rank = parse_card(top)
    if top_colour is None and color is not None:
        top_colour = colour_code(color)
    return top_colour, top_rank


def _holds(cards, colour):
    # Black cards (including the +4 itself) have no colour and never count.
    for card_colour, _ in cards:
        if card_colour == colour:
            return True
    return False


def _parse_hand(hand):
    if isinstance(hand, str):
        raise CardError("a hand is a list of cards, not one text %r" % (hand,), "hand_type", (hand,))
    return [parse_card(card) for card in hand]


def legal_plays(top, hand, color=None):
    """Indices (0-based) of the cards in `hand` that may be played on `top`.

    legal_plays("red 6", ["red 3", "blue 6", "blue 3", "wild"]) == [0, 1, 3]

    A coloured card matches the active colour, or the top card's number or
    symbol. Wild Draw Four only if the hand holds no card of the active colour.
    `color` is the colour chosen after a black top card and is ignored on a
    coloured one. A black top without a chosen colour (the first discard was
    a wild: the first player names the colour by playing) accepts any card.
    Swap (Wild Shuffle Hands) is a wild and blank cards carry the table's own
    rule, so both are treated as playable at any time.
    """
    active, top_rank = _active(top, color)
    top_black = top_rank >= FIRST_BLACK
    cards = _parse_hand(hand)
    plays = []
    for i in range(len(cards)):
        colour, rank = cards[i]
        if rank == _WILD4:
            ok = active is None or not _holds(cards, active)
        elif rank >= FIRST_BLACK:
            ok = True
        elif active is None:
            ok = True
        else:
            # A black top's rank matches nothing: only the chosen colour counts.
            ok = colour == active or (not top_black and rank == top_rank)
        if ok:
            plays.append(i)
    return plays


def judge_wild4(hand_before, color):
    """Verdict of a Wild Draw Four challenge: (verdict, drawer, count).

    `hand_before` is the hand held before the +4 was played (the +4 may be in
    it), `color` the colour active when it was played. Only that colour counts:
    matching numbers or symbols of other colours and black cards do not.
    Bluff: ("bluff", "player", 4), and the challenger then plays normally.
    Honest: ("honest", "challenger", 6), and the challenger loses the turn.
    `color` None (no colour was in force yet) can never be a bluff.
    """
    cards = _parse_hand(hand_before)
    if color is not None and _holds(cards, colour_code(color)):
        return ("bluff", "player", 4)
    return ("honest", "challenger", 6)


def _check_seats(seats):
    if type(seats) is not int or not 2 <= seats <= 10:
        raise ScoreError("seats must be a whole number from 2 to 10, not %r" % (seats,))


def turn_effect(card, seats):
    """What a played card does to the turn order: (draw, skip, reverse).

    `draw` is how many cards the next player draws, `skip` whether the next
    player loses the turn, `reverse` whether the direction of play turns.
    Official rules (Mattel): Skip skips; Reverse reverses, but with 2 seats it
    acts as Skip (the player goes again, so it is (0, True, False));
    Draw Two: next draws 2 and is skipped; Wild Draw Four: next draws 4 and is
    skipped. Number cards, Wild, Swap and blank cards change nothing.
    """
    _check_seats(seats)
    rank = parse_card(card)[1]
    if rank == _SKIP:
        return (0, True, False)
    if rank == _REVERSE:
        return (0, True, False) if seats == 2 else (0, False, True)
    if rank == _DRAW2:
        return (2, True, False)
    if rank == _WILD4:
        return (4, True, False)
    return (0, False, False)


def next_seat(current, seats, direction, card):
    """Who plays next after seat `current` played `card`: (next_index, new_direction).

    Seats are numbered 0..seats-1 and `direction` is 1 or -1. `card` None
    means no card was played (drew and passed). A player made to draw sits at
    (current + direction) % seats and is passed over.
    """
    _check_seats(seats)
    if type(current) is not int or not 0 <= current < seats:
        raise ScoreError("seat must be a whole number from 0 to %d, not %r" % (seats - 1, current))
    if type(direction) is not int or direction not in (1, -1):
        raise ScoreError("direction must be 1 or -1, not %r" % (direction,))
    skip = reverse = False
    if card is not None:
        skip, reverse = turn_effect(card, seats)[1:]
    if reverse:
        direction = -direction
    return ((current + (2 if skip else 1) * direction) % seats, direction)
