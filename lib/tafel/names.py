# Players' names: which characters a name may have, how long it may be, and how to print one safely.
from .compat import const

MAX_NAME = const(20)  # characters; a name is at most 64 bytes of UTF-8 in a record

# The letters the device draws beyond printable ASCII (its glyphs: firmware/ui/canvas.py).
DRAWN = "ÄÖÜäöüßé"
# Letters the device has no glyph for have a plain form in tafel/fold.py (Zoë -> Zoe); that
# table is imported only when a name has such a letter, so the device's heap holds it rarely.


def bad_char(name):
    """Position (0-based) of the first character of `name` that is not printable, or -1.

    Not printable: control characters (C0, DEL, C1: NUL, newline, ESC ...), the
    line and paragraph separators, bidirectional overrides and the BOM."""
    i = 0
    for ch in name:
        c = ord(ch)
        if c < 0x20 or 0x7F <= c < 0xA0 or c == 0x2028 or c == 0x2029 or 0x202A <= c <= 0x202E \
                or 0x2066 <= c <= 0x2069 or c == 0xFEFF:
            return i
        i += 1
    return -1


def drawable(ch):
    """Whether the device draws the character `ch` as it is (printable ASCII or DRAWN)."""
    return " " <= ch <= "~" or DRAWN.find(ch) >= 0


def folded(name):
    """`name` with each letter of tafel.fold.FOLD_FROM in its plain form (Zoë -> Zoe, Łukasz ->
    Lukasz); `name` itself when it has none."""
    for ch in name:
        if not drawable(ch):
            from .fold import fold

            return fold(name)
    return name


def undrawable(name):
    """Position (0-based) of the first character of `name` the device can neither draw nor
    fold to a plain letter, or -1."""
    i = 0
    for ch in name:
        if not drawable(ch):
            from .fold import FOLD_FROM

            if FOLD_FROM.find(ch) < 0:
                return i
        i += 1
    return -1


def shown(name):
    """`name` with every character that is not printable escaped (\\x1b, \\u202e): safe to print."""
    if bad_char(name) < 0:
        return name
    out = []
    for ch in name:
        if bad_char(ch) < 0:
            out.append(ch)
        else:
            c = ord(ch)
            out.append(("\\x%02x" if c < 0x100 else "\\u%04x") % c)
    return "".join(out)


def name_problem(name, stored=False):
    """None for a name a seat (or the roster) may carry, else (code, message) of why not:
    name_missing, name_long (over MAX_NAME characters or 64 bytes), name_bad (not printable,
    or a character the device can neither draw nor fold: undrawable(); `stored`: a name read
    back from a record skips these rules, it was taken before them)."""
    if not isinstance(name, str) or not name.strip():
        return "name_missing", "every seat needs a name"
    name = name.strip()
    if len(name) > MAX_NAME or len(name.encode()) > 64:
        return "name_long", "the name '%s' is longer than %d letters" % (shown(name), MAX_NAME)
    at = -1 if stored else bad_char(name)
    if at >= 0:
        return "name_bad", "the name '%s' has a control character (%s) at position %d: only printable " \
            "characters" % (shown(name), shown(name[at]), at + 1)
    at = -1 if stored else undrawable(name)
    if at >= 0:
        return "name_bad", "the name '%s' has '%s' at position %d, which the device cannot show: only " \
            "Latin letters, digits and punctuation" % (name, name[at], at + 1)
    return None
