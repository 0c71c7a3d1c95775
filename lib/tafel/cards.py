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

# The names players use, folded (lower case, hyphens as spaces), each with its
# code as one character: colours 0-3, ranks a=10 ... g=16. Strings, not dicts,
# so the tables stay in flash on the device; "|" starts each name.
_COLOURS = "|red:0|rot:0|yellow:1|gelb:1|green:2|grün:2|gruen:2|blue:3|blau:3|"
_RANK_NAMES = (
    "|skip:a|aussetzen:a|aussetzer:a"
    "|reverse:b|retour:b|richtungswechsel:b"
    "|draw2:c|draw 2:c|draw two:c|+2:c|zieh2:c|zieh 2:c|zieh zwei:c"
    "|wild:d|farbwahl:d|farbenwahl:d"
    "|wild4:e|wild draw 4:e|wild draw four:e|draw 4:e|draw four:e|+4:e|zieh4:e|zieh 4:e|zieh vier:e"
    "|swap:f|swap hands:f|shuffle hands:f|wild shuffle hands:f|handtausch:f|hände tauschen:f"
    "|blank:g|blanko:g|"
)
_ENDINGS = ("e", "er", "es", "em", "en")  # German colours as adjectives: "rote 7", "grüner Aussetzer"


def _fold(text):
    # MicroPython's str.lower() folds ASCII only, so the umlauts are folded by hand.
    return text.lower().replace("Ü", "ü").replace("Ä", "ä").replace("Ö", "ö")


def _words(text):
    return _fold(text).replace("-", " ").split()


def _find(table, name):
    # The code after "|name:" in a table, or None (a name holding "|" or ":" is never found).
    if not name or "|" in name or ":" in name:
        return None
    i = table.find("|" + name + ":")
    if i < 0:
        return None
    return table[i + len(name) + 2]


def _colour(word):
    code = _find(_COLOURS, word)
    if code is None:
        for end in _ENDINGS:
            if len(word) > len(end) + 2 and word.endswith(end):
                code = _find(_COLOURS, word[:-len(end)])
                if code is not None:
                    break
    return None if code is None else ord(code) - 48


def _rank(words):
    # Rank code of a name given as its words (["zieh", "zwei"], ["7"]); None if unknown.
    if len(words) == 1 and len(words[0]) == 1 and "0" <= words[0] <= "9":
        return ord(words[0]) - 48
    code = _find(_RANK_NAMES, " ".join(words))
    return None if code is None else ord(code) - 87


def _known(word):
    # Whether a word is part of any colour, digit or card name (to name the one that is not).
    if _colour(word) is not None or (len(word) == 1 and "0" <= word <= "9"):
        return True
    for before in "| ":
        for after in ": ":
            if _RANK_NAMES.find(before + word + after) >= 0:
                return True
    return False


def colour_code(word):
    """Code of a colour given as text ("red", "Grün", "rote", ...)."""
    if not isinstance(word, str):
        raise CardError("a colour is text, not %r" % (word,))
    code = _colour(_fold(word.strip()))
    if code is None:
        raise CardError("unknown colour '%s'" % word.strip())
    return code


def rank_code(word):
    """Code of a rank given as text ("7", "skip", "Aussetzen", "+4", "Zieh Zwei", ...)."""
    code = _rank(_words(word))
    if code is None:
        raise CardError("unknown rank '%s'" % word.strip())
    return code


def parse_card(card):
    """Split a card text into (colour code or None, rank code).

    "red 7" -> (0, 7); "Grün Aussetzen" -> (2, 10); "rot Zieh Zwei" -> (0, 12);
    "wild4", "Zieh Vier", "wild draw four" -> (None, 14). German and English
    names, any case, hyphens or spaces ("Zieh-Vier").
    """
    if not isinstance(card, str):
        raise CardError("a card is text, not %r" % (card,))
    words = _words(card)
    shown = card.strip()
    colour = _colour(words[0]) if len(words) > 1 else None
    if colour is None:
        rank = _rank(words)
        if rank is None:
            _unknown(words, shown)
        if rank < FIRST_BLACK:
            raise CardError("'%s' needs a colour, e.g. 'red %s'" % (shown, shown))
        return None, rank
    rank = _rank(words[1:])
    if rank is None:
        _unknown_word(words[1:], shown)
        raise CardError("unknown rank '%s' in '%s'" % (" ".join(words[1:]), shown))
    if rank >= FIRST_BLACK:
        raise CardError("'%s' is a black card and has no colour" % " ".join(words[1:]))
    return colour, rank


def _unknown(words, shown):
    # The clearest message for a card that names nothing: the first unknown word if there is one.
    if not words:
        raise CardError("a card is empty: say e.g. 'red 7' or 'wild'")
    if len(words) == 1 and _colour(words[0]) is not None:
        raise CardError("'%s' is a colour; a card needs a rank too, e.g. '%s 7'" % (shown, shown))
    if len(words) > 1 and _rank(words[1:]) is not None:
        raise CardError("unknown colour '%s' in '%s'" % (words[0], shown))
    if len(words) == 1:
        raise CardError("unknown card '%s'" % words[0])
    _unknown_word(words, shown)
    raise CardError("unknown card '%s'" % shown)


def _unknown_word(words, shown):
    # In a name of several words, the first word no card name has.
    if len(words) > 1:
        for word in words:
            if not _known(word):
                raise CardError("unknown word '%s' in '%s'" % (word, shown))


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
