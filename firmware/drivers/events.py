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
    """A ring buffer of event codes: producers put(), one consumer get()s or awaits wait().

    put() and get() allocate nothing. Producers must not interrupt one another
    (asyncio tasks, or one scheduled callback); the drivers' own interrupt
    handlers never put(), they only count. When full, new events are dropped
    and counted in `dropped`: a user typing faster than the UI reads loses
    the newest keys, never the order of the older ones.
    """

    def __init__(self, size=32):
        # One slot stays free to tell full from empty: size 32 holds 31 events.
        self._buf = bytearray(size)
        self._size = size
        self._head = 0  # next to read; written only by get()
        self._tail = 0  # next to write; written only by put()
        self._flag = None  # made by the first wait(): the runner polls and never waits
        self._clear = False
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
        if self._flag is not None:
            self._flag.set()
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

    async def wait(self):
        """The oldest code, waiting for one if the queue is empty."""
        flag = self._flag
        if flag is None:
            # Made here, not at import: asyncio's Event and ThreadSafeFlag live in
            # asyncio/event.py, about 4 KB of heap once imported, which a polling
            # runner never needs. ThreadSafeFlag may be set from an interrupt
            # handler; Event is the fallback for a build without it (never set it
            # from an IRQ); only an Event needs clearing after a wait.
            import asyncio

            safe = getattr(asyncio, "ThreadSafeFlag", None)
            self._clear = safe is None  # a ThreadSafeFlag clears itself
            flag = self._flag = (safe or asyncio.Event)()
        while self._head == self._tail:
            await flag.wait()
            if self._clear:
                flag.clear()
        return self.get()
