# Cards as text, their ranks and colours, and the points they are worth in a hand.
from .errors import CardError

COLOURS = ("red", "yellow", "green", "blue")

# Ranks in a fixed order: a rank's position is its code in records and value tables.
RANKS = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "skip", "reverse", "draw2",  # coloured action cards
    "wild", "wild4", "swap", "blank",  # black cards
)
FIRST_BLACK = 13  # RANKS[13:] are black cards, played without a colour

# Mattel's table; swap and blank are 40 (one source says 50, the product uses 40).
MAX_CARD_POINTS = 9999  # house values beyond this are typing mistakes
DEFAULT_VALUES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 20, 20, 50, 50, 40, 40)

# Cards given as text are read by tafel/cardnames.py, imported only then (see there).


def colour_code(word):
    """Code of a colour given as text ("red", "Grün", "rote", ...)."""
    from .cardnames import colour_code as code

    return code(word)


def rank_code(word):
    """Code of a rank given as text ("7", "skip", "Aussetzen", "+4", "Zieh Zwei", ...)."""
    from .cardnames import rank_code as code

    return code(word)


def parse_card(card, need_colour=True):
    """Split a card text into (colour code or None, rank code): "red 7" -> (0, 7), "wild4" ->
    (None, 14); the colour may be left out where need_colour is False (tafel.cardnames)."""
    from .cardnames import parse_card as parse

    return parse(card, need_colour)


def value_table(values=None):
    """A game's table of points per rank code: the default with `values` applied.

    `values` maps rank text ("wild", "swap", "7", "aussetzen", ...) to points.
    """
    table = list(DEFAULT_VALUES)
    if values:
        for word in values:
            points = values[word]
            if type(points) is not int or points < 0 or points > MAX_CARD_POINTS:
                raise CardError("points for '%s' must be a whole number from 0 to %d" % (word, MAX_CARD_POINTS),
                                "points", (word, MAX_CARD_POINTS))
            word = str(word)
            table[RANKS.index(word) if word in RANKS else rank_code(word)] = points
    return tuple(table)


def card_points(card, values=None):
    """Points a card left in a hand is worth: card_points("blue draw2") == card_points("draw2") == 20.

    The colour may be left out: it never changes a card's points.
    """
    table = DEFAULT_VALUES if values is None else _as_table(values)
    return table[parse_card(card, False)[1]]


def hand_points(cards, values=None):
    """Points of a whole hand: hand_points(["red 7", "blue 9", "green draw2"]) == 36."""
    table = DEFAULT_VALUES if values is None else _as_table(values)
    total = 0
    for card in cards:
        total += table[parse_card(card, False)[1]]
    return total


def deck_total(values=None, cards=112):
    """Points of a whole deck: 1240 for the 108-card deck, 1400 for the 112-card one."""
    table = DEFAULT_VALUES if values is None else _as_table(values)
    if cards not in (108, 112):
        raise CardError("a deck has 108 or 112 cards, not %r" % (cards,), "deck", (cards,))
    # Per colour: one 0, two of each 1-9 and two of each action card.
    total = 0
    for rank in range(1, FIRST_BLACK):
        total += 2 * table[rank]
    total = 4 * (total + table[0]) + 4 * table[13] + 4 * table[14]
    if cards == 112:
        total += table[15] + 3 * table[16]
    return total


def _as_table(values):
    # Accept either a finished table (tuple of 17) or a mapping of overrides.
    if isinstance(values, tuple) and len(values) == len(RANKS):
        return values
    return value_table(values)
