# Cards named as players say them, German or English: the text to rank and colour codes
# (tafel.cards' codes). Imported only when a card is given as text (the laptop's commands, a
# house value named by another word than tafel.cards.RANKS'), so the device's heap holds these
# tables only then.
from .compat import const
from .errors import CardError

_FIRST_BLACK = const(13)  # tafel.cards.FIRST_BLACK (the ranks from here on are black cards)

# The names players use, folded (lower case, hyphens as spaces), each with its
# code as one character: colours 0-3, ranks a=10 ... g=16. Strings, not dicts,
# so the tables stay in flash on the device; "|" starts each name. A name may
# end in "karte"/"card" too ("Farbwahlkarte", "Retour-Karte", "wild card").
_COLOURS = "|red:0|rot:0|yellow:1|gelb:1|green:2|grün:2|gruen:2|blue:3|blau:3|"
_RANK_NAMES = (
    "|skip:a|aussetzen:a|aussetzer:a|einmal aussetzen:a"
    "|reverse:b|retour:b|richtungswechsel:b"
    "|draw2:c|draw 2:c|draw two:c|+2:c|zieh2:c|zieh 2:c|zieh zwei:c"
    "|wild:d|farbwahl:d|farbenwahl:d|joker:d"
    "|wild4:e|wild draw 4:e|wild draw four:e|draw 4:e|draw four:e|+4:e|zieh4:e|zieh 4:e|zieh vier:e"
    "|zieh vier farbwahl:e|zieh vier mit farbwahl:e"
    "|swap:f|swap hands:f|shuffle hands:f|wild shuffle hands:f|handtausch:f|hände tauschen:f"
    "|blank:g|blanko:g|beschreibbarer joker:g|beschreibbare joker:g|"
)
_ENDINGS = ("e", "er", "es", "em", "en")  # German colours as adjectives: "rote 7", "grüner Aussetzer"
_BLACK = ("black", "schwarz")  # said before a black card ("schwarz +4"); never a colour in play


def _fold(text):
    # MicroPython's str.lower() folds ASCII only, so the umlauts are folded by hand.
    return text.lower().replace("Ü", "ü").replace("Ä", "ä").replace("Ö", "ö")


def _words(text):
    # Words split at spaces and at hyphens inside a word ("Zieh-Vier"); a word
    # with a hyphen at its edge stays whole, so "-1" is never read as "1".
    words = []
    for token in _fold(text).split():
        parts = token.split("-")
        if len(parts) > 1 and "" not in parts:
            words.extend(parts)
        else:
            words.append(token)
    return words


def _find(table, name):
    # The code after "|name:" in a table, or None (a name holding "|" or ":" is never found).
    if not name or "|" in name or ":" in name:
        return None
    i = table.find("|" + name + ":")
    if i < 0:
        return None
    return table[i + len(name) + 2]


def _adjective(word, stem):
    # Whether word is stem or stem with a German adjective ending ("rot", "rote", "roter").
    if word == stem:
        return True
    for end in _ENDINGS:
        if word == stem + end:
            return True
    return False


def _colour(word):
    code = _find(_COLOURS, word)
    if code is None:
        for end in _ENDINGS:
            if len(word) > len(end) + 2 and word.endswith(end):
                code = _find(_COLOURS, word[:-len(end)])
                if code is not None:
                    break
    return None if code is None else ord(code) - 48


def _black(word):
    return word == _BLACK[0] or _adjective(word, _BLACK[1])


def _named(words):
    if len(words) == 1 and len(words[0]) == 1 and "0" <= words[0] <= "9":
        return ord(words[0]) - 48
    code = _find(_RANK_NAMES, " ".join(words))
    return None if code is None else ord(code) - 87


def _rank(words):
    # Rank code of a name given as its words (["zieh", "zwei"], ["7"]); None if unknown.
    code = _named(words)
    if code is None and words:
        last = words[-1]
        if len(words) > 1 and last in ("karte", "card"):
            code = _named(words[:-1])
        elif len(last) > 5 and last.endswith("karte"):
            code = _named(words[:-1] + [last[:-5]])
    return code


def _number(word):
    # Whether a word is written as a whole number ("12", "-1", "+7"), though no card's.
    digits = word[1:] if word[:1] in "+-" else word
    return len(digits) > 0 and digits.isdigit()


def _known(word):
    # Whether a word is part of any colour, digit or card name (to name the one that is not).
    if _colour(word) is not None or _black(word) or (len(word) == 1 and "0" <= word <= "9"):
        return True
    for before in "| ":
        for after in ": ":
            if _RANK_NAMES.find(before + word + after) >= 0:
                return True
    return False


def colour_code(word):
    """Code of a colour given as text ("red", "Grün", "rote", ...)."""
    if not isinstance(word, str):
        raise CardError("a colour is text, not %r" % (word,), "colour_type", (word,))
    code = _colour(_fold(word.strip()))
    if code is None:
        raise CardError("unknown colour '%s'" % word.strip(), "colour", (word.strip(),))
    return code


def rank_code(word):
    """Code of a rank given as text ("7", "skip", "Aussetzen", "+4", "Zieh Zwei", ...)."""
    code = _rank(_words(word))
    if code is None:
        if _number(word.strip()):
            raise CardError("no card has the number '%s': numbers run from 0 to 9" % word.strip(), "number",
                            (word.strip(),))
        raise CardError("unknown rank '%s'" % word.strip(), "rank", (word.strip(),))
    return code


def parse_card(card, need_colour=True):
    """Split a card text into (colour code or None, rank code).

    "red 7" -> (0, 7); "Grün Aussetzen" -> (2, 10); "rot Zieh Zwei" -> (0, 12);
    "wild4", "Zieh Vier", "schwarz +4", "wild draw four" -> (None, 14). German
    and English names, any case, hyphens or spaces ("Zieh-Vier"). A number or
    action card without a colour is refused unless need_colour is False (its
    points do not depend on the colour): then "7" -> (None, 7).
    """
    if not isinstance(card, str):
        raise CardError("a card is text, not %r" % (card,), "card_type", (card,))
    words = _words(card)
    shown = card.strip()
    colour = None
    said = None  # the colour word said before the rank, if any
    if len(words) > 1:
        colour = _colour(words[0])
        if colour is not None or _black(words[0]):
            said = words[0]
    rank = _rank(words[1:] if said else words)
    if rank is None:
        if said:
            _unknown_word(words[1:], shown)
            _bad_number(words[1:], shown)
            rest = " ".join(words[1:])
            raise CardError("unknown rank '%s' in '%s'" % (rest, shown), "rank_in", (rest, shown))
        _unknown(words, shown)
    if colour is not None and rank >= _FIRST_BLACK:
        rest = " ".join(words[1:])
        raise CardError("'%s' is a black card and has no colour" % rest, "black", (rest,))
    if said and colour is None and rank < _FIRST_BLACK:
        rest = " ".join(words[1:])
        raise CardError("'%s' is no black card: say its colour, e.g. 'red %s'" % (shown, rest), "not_black",
                        (shown, rest))
    if need_colour and colour is None and rank < _FIRST_BLACK:
        raise CardError("'%s' needs a colour, e.g. 'red %s'" % (shown, shown), "needs_colour", (shown, shown))
    return colour, rank


def _bad_number(words, shown):
    if len(words) == 1 and _number(words[0]):
        raise CardError("'%s' is no card: numbers run from 0 to 9, not %s" % (shown, words[0]), "number_in",
                        (shown, words[0]))


def _unknown(words, shown):
    # The clearest message for a card that names nothing: the first unknown word if there is one.
    if not words:
        raise CardError("a card is empty: say e.g. 'red 7' or 'wild'", "empty")
    if len(words) == 1 and _colour(words[0]) is not None:
        raise CardError("'%s' is a colour; a card needs a rank too, e.g. '%s 7'" % (shown, shown), "colour_only",
                        (shown, shown))
    if len(words) == 1 and _black(words[0]):
        raise CardError("'%s' is a colour; a card needs a rank too, e.g. '%s +4'" % (shown, shown), "black_only",
                        (shown, shown))
    if len(words) > 1 and _rank(words[1:]) is not None:
        raise CardError("unknown colour '%s' in '%s'" % (words[0], shown), "colour_in", (words[0], shown))
    _bad_number(words, shown)
    if len(words) == 1:
        raise CardError("unknown card '%s'" % words[0], "card", (words[0],))
    _unknown_word(words, shown)
    raise CardError("unknown card '%s'" % shown, "card", (shown,))


def _unknown_word(words, shown):
    # In a name of several words, the first word no card name has.
    if len(words) > 1:
        for word in words:
            if not _known(word):
                raise CardError("unknown word '%s' in '%s'" % (word, shown), "word_in", (word, shown))
