# Matrix keypad: scan one row at a time, debounce against an injected clock, report each key-down once.
#
# Rows are open-drain outputs, released (high) when idle; a scan pulls one
# row low at a time and reads the columns, which have pull-ups: a pressed key
# joins its row to its column, so that column reads 0. Open drain rather than
# push-pull because two keys held in one column would otherwise short a high
# row to the low one.
#
# A key counts once the whole matrix has read the same for debounce_ms; it
# is reported once per press (no auto-repeat: a held digit must not type
# itself twice). Two keys pressed together both come out, lowest position
# first, one per scan. Without diodes, three keys held in an L make the
# fourth corner read as pressed too, so while four or more keys read as down
# nothing new is reported and those keys are swallowed until released.
from time import ticks_diff

from tafel.compat import const

_MAY_HAVE_GHOSTS = const(4)


def _count(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def _index(bit):
    i = 0
    while bit > 1:
        bit >>= 1
        i += 1
    return i


class Keypad:
    def __init__(self, rows, cols, keys, debounce_ms=20, scan_ms=10):
        """rows, cols: configured pins; keys: one string per row, a character per column."""
        self._rows = tuple(rows)
        self._cols = tuple(cols)
        self._names = tuple(ch for line in keys for ch in line)  # position r * ncols + c
        if len(keys) != len(self._rows) or len(self._names) != len(self._rows) * len(self._cols):
            raise ValueError("keys do not match rows x cols")
        self.debounce_ms = debounce_ms
        self.scan_ms = scan_ms  # the profile's scan period; runner.py scans once a step (STEP_MS)
        self._raw = 0  # last reading
        self._since = 0  # when the reading last changed
        self._stable = 0  # debounced: bit set = key down
        self._held = 0  # keys already reported (or swallowed) and still down
        for row in self._rows:
            row.value(1)

    def read(self):
        """The keys down at this instant as a bit mask (bit r * ncols + c), not debounced."""
        mask = 0
        bit = 1
        for row in self._rows:
            row.value(0)
            for col in self._cols:
                if not col.value():
                    mask |= bit
                bit <<= 1
            row.value(1)
        return mask

    def scan(self, now_ms):
        """Scan once; the name of a newly pressed key ('0'-'9', 'A'-'D', '*', '#') or None."""
        raw = self.read()
        if raw != self._raw:
            self._raw = raw
            self._since = now_ms
        elif raw != self._stable and ticks_diff(now_ms, self._since) >= self.debounce_ms:
            self._stable = raw
        stable = self._stable
        held = self._held & stable  # a released key may be reported again
        fresh = stable & ~held
        if fresh and _count(stable) >= _MAY_HAVE_GHOSTS:
            held = stable
            fresh = 0
        if fresh:
            fresh &= -fresh  # the lowest position now, the others on later scans
            held |= fresh
        self._held = held
        return self._names[_index(fresh)] if fresh else None

    def is_down(self, name):
        """Whether that key is held (debounced), e.g. a key held at power-on."""
        return bool(self._stable & (1 << self._names.index(name)))
