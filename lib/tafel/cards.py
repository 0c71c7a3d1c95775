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

_COLOUR_WORDS = {
    "red": 0, "rot": 0,
    "yellow": 1, "gelb": 1,
    "green": 2, "grün": 2, "gruen": 2,
    "blue": 3, "blau": 3,
}
_RANK_WORDS = {
    "skip": 10, "aussetzen": 10,
    "reverse": 11, "retour": 11,
    "draw2": 12, "+2": 12, "zieh2": 12,
    "wild": 13, "farbwahl": 13,
    "wild4": 14, "+4": 14, "zieh4": 14,
    "swap": 15, "handtausch": 15,
    "blank": 16, "blanko": 16,
}


def _fold(text):
    # MicroPython's str.lower() folds ASCII only, so the umlaut is folded by hand.
    return text.lower().replace("Ü", "ü")


def colour_code(word):
    """Code of a colour given as text ("red", "Grün", ...)."""
    if not isinstance(word, str):
        raise CardError("a colour is text, not %r" % (word,))
    code = _COLOUR_WORDS.get(_fold(word.strip()))
    if code is None:
        raise CardError("unknown colour '%s'" % word.strip())
    return code


def rank_code(word):
    """Code of a rank given as text ("7", "skip", "aussetzen", "+4", ...)."""
    word = _fold(word)
    if len(word) == 1 and "0" <= word <= "9":
        return ord(word) - 48
    code = _RANK_WORDS.get(word)
    if code is None:
        raise CardError("unknown rank '%s'" % word)
    return code


def parse_card(card):
    """Split a card text into (colour code or None, rank code).

    "red 7" -> (0, 7); "Grün Aussetzen" -> (2, 10); "wild4" -> (None, 14).
    """
    if not isinstance(card, str):
        raise CardError("a card is text, not %r" % (card,))
    words = _fold(card).split()
    if len(words) == 1:
        try:
            rank = rank_code(words[0])
        except CardError:
            raise CardError("unknown card '%s'" % words[0])
        if rank < FIRST_BLACK:
            raise CardError("'%s' needs a colour, e.g. 'red %s'" % (words[0], words[0]))
        return None, rank
    if len(words) != 2:
        raise CardError("unknown card '%s'" % card.strip())
    try:
        colour = colour_code(words[0])
    except CardError:
        raise CardError("unknown colour '%s' in '%s'" % (words[0], card.strip()))
    try:
        rank = rank_code(words[1])
    except CardError:
        raise CardError("unknown rank '%s' in '%s'" % (words[1], card.strip()))
    if rank >= FIRST_BLACK:
        raise CardError("'%s' is a black card and has no colour" % words[1])
    return colour, rank


def value_table(values=None):
    """A game's table of points per rank code: the default with `values` applied.

    `values` maps rank text ("wild", "swap", "7", "aussetzen", ...) to points.
    """
    table = list(DEFAULT_VALUES)
    if values:
        for word in values:
            points = values[word]
            if type(points) is not int or points < 0 or points > MAX_CARD_POINTS:
                raise CardError("points for '%s' must be a whole number from 0 to %d" % (word, MAX_CARD_POINTS))
            table[rank_code(str(word))] = points
    return tuple(table)


def card_points(card, values=None):
    """Points a card left in a hand is worth: card_points("blue draw2") == 20."""
    table = DEFAULT_VALUES if values is None else _as_table(values)
    return table[parse_card(card)[1]]


def hand_points(cards, values=None):
    """Points of a whole hand: hand_points(["red 7", "blue 9", "green draw2"]) == 36."""
    table = DEFAULT_VALUES if values is None else _as_table(values)
    total = 0
    for card in cards:
        total += table[parse_card(card)[1]]
    return total


def deck_total(values=None, cards=112):
    """Points of a whole deck: 1240 for the 108-card deck, 1400 for the 112-card one."""
    table = DEFAULT_VALUES if values is None else _as_table(values)
    if cards not in (108, 112):
        raise CardError("a deck has 108 or 112 cards, not %r" % (cards,))
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
