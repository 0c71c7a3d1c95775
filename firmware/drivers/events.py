# Input event codes and the one preallocated queue that the keypad and the encoder feed.
#
# Codes are small ints, so the queue is a bytearray and nothing is allocated
# per event: digits are their own value, A-D are 10-13 (as in hex), then
#   14 '*'  15 '#'  16 'CW'  17 'CCW'  18 'PUSH'
# NAMES[code] gives the name the screens use; code(name) goes the other way.
from tafel.compat import const

STAR = const(14)
HASH = const(15)
CW = const(16)
CCW = const(17)
PUSH = const(18)

NAMES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
         "A", "B", "C", "D", "*", "#", "CW", "CCW", "PUSH")
_CODES = {name: i for i, name in enumerate(NAMES)}


def code(name):
    """The code of a key name ('0'-'9', 'A'-'D', '*', '#', 'CW', 'CCW', 'PUSH'); KeyError otherwise."""
    return _CODES[name]


class EventQueue:
    """A ring buffer of event codes: the runner (runner.py) put()s what it polled, then get()s.

    put() and get() allocate nothing. Only the main loop puts: the drivers'
    interrupt handlers never put(), they only count. When full, new events are dropped
    and counted in `dropped`: a user typing faster than the UI reads loses
    the newest keys, never the order of the older ones.
    """

    def __init__(self, size=32):
        # One slot stays free to tell full from empty: size 32 holds 31 events.
        self._buf = bytearray(size)
        self._size = size
        self._head = 0  # next to read; written only by get()
        self._tail = 0  # next to write; written only by put()
        self.dropped = 0

    def __len__(self):
        return (self._tail - self._head) % self._size

    def put(self, code):
        """Queue one code; False (and counted in `dropped`) if the queue is full."""
        tail = self._tail
        nxt = tail + 1
        if nxt == self._size:
            nxt = 0
        if nxt == self._head:
            self.dropped += 1
            return False
        self._buf[tail] = code
        self._tail = nxt
        return True

    def get(self):
        """The oldest code, or None when the queue is empty."""
        head = self._head
        if head == self._tail:
            return None
        code = self._buf[head]
        head += 1
        self._head = 0 if head == self._size else head
        return code

    def clear(self):
        self._head = self._tail
