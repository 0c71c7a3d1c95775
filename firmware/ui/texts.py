# Looking a key up in a table of (key, text) pairs: the screen texts of a language (texts_de.py, texts_en.py).
#
# The tables are tuples of constant pairs, which stay in flash when frozen; a
# scan through them allocates nothing. Keys the firmware writes in its code
# are interned strings, so most comparisons are of one pointer.


def find(table, key, default=None):
    """The text of `key` in `table`, or `default`."""
    for k, text in table:
        if k == key:
            return text
    return default
