# The rulebook shared by the device's rules screen and `tafel rules`: texts by language, values, verdicts, wrapping.
#
# The texts live in rulebook_de.py and rulebook_en.py as plain strings (in flash
# on the device); this module picks one and turns it into lines of a width.
from .cards import DEFAULT_VALUES, deck_total

LANGS = ("de", "en")
SECTIONS = ("values", "cards", "challenge", "two", "uno", "scoring", "dealing", "teams")


def book(lang):
    """The texts of a language: the module tafel.rulebook_de or tafel.rulebook_en."""
    if lang not in LANGS:
        raise ValueError("no rulebook in '%s' (de or en)" % (lang,))
    return __import__("tafel.rulebook_" + lang, None, None, ("_",))


def section(lang, name):
    """(title, text) of a section; the text's paragraphs are separated by newlines.

    "values" gives the note under the table of value_lines().
    """
    b = book(lang)
    i = SECTIONS.index(name)
    return b.TITLES[i], (b.VALUES, b.CARDS, b.CHALLENGE, b.TWO, b.UNO, b.SCORING, b.DEALING, b.TEAMS)[i]


def value_lines(lang, table=None):
    """(label, points) of every card and of both decks, for a value table (default: the standard one)."""
    b = book(lang)
    if table is None:
        table = DEFAULT_VALUES
    lines = []
    face = True
    for rank in range(10):
        face = face and table[rank] == rank
    if face:
        lines.append((b.NUMBERS, b.FACE))
    else:
        for rank in range(10):
            lines.append((str(rank), str(table[rank])))
    for rank in range(10, 17):
        lines.append((b.NAMES[rank - 10], str(table[rank])))
    for cards in (108, 112):
        lines.append((b.DECK % cards, str(deck_total(table, cards))))
    return lines


def verdict(lang, result, colour):
    """(title, text) of a +4 challenge's result from referee.judge_wild4; `colour` is the colour's code (0-3)."""
    b = book(lang)
    title, text = b.BLUFF if result[0] == "bluff" else b.HONEST
    return title, text % (b.COLOURS[colour], result[2])


def wrap(text, width):
    """The text as lines of at most `width` characters, broken at spaces; each newline starts a line."""
    lines = []
    for para in text.split("\n"):
        n = len(para)
        start = 0
        while True:
            while start < n and para[start] == " ":
                start += 1
            if n - start <= width:
                lines.append(para[start:])
                break
            cut = para.rfind(" ", start, start + width + 1)
            if cut <= start:  # one word longer than a line: cut it
                lines.append(para[start:start + width])
                start += width
            else:
                lines.append(para[start:cut])
                start = cut + 1
    return lines


def pair(label, value, width):
    """A line of `width` with the label on the left and the value flush right (the label cut to fit)."""
    label = label[:max(0, width - len(value) - 1)]
    return label + " " * (width - len(label) - len(value)) + value
