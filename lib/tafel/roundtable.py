# Compact storage of a game's rounds: fixed-size chunks of 16-bit cells, one row per round.
#
# A row is the winner's seat followed by every seat's hand. Chunks of 8 rows
# are allocated whole, so a long game never needs one large contiguous block
# (on a small MicroPython heap, growing a single array fails from fragmentation
# long before the heap is full): 176 bytes at most (ten seats), made straight
# from a zero row of the same size kept here, never from a temporary copy (late
# in a long evening the heap's free runs are mostly shorter than 300 bytes).
from array import array

from .compat import const

ROWS_PER_CHUNK = const(8)
EMPTY = const(0xFFFF)  # no hand (eliminated seat) / no winner
_ZEROS = bytes(ROWS_PER_CHUNK * 11)  # a chunk's cells at most (ten seats and the winner), each 0


class RoundTable:
    def __init__(self, seats):
        self.width = seats + 1
        self.chunks = []

    def room_needed(self, index):
        """Whether round `index` needs a chunk not made yet."""
        return index // ROWS_PER_CHUNK >= len(self.chunks)

    def make_room(self, index):
        """Have the chunk that holds round `index` made (put() then makes nothing)."""
        chunk = index // ROWS_PER_CHUNK
        while chunk >= len(self.chunks):
            # The cells from a view of the zeros: the array is the only block made for them.
            self.chunks.append(array("H", memoryview(_ZEROS)[:ROWS_PER_CHUNK * self.width]))
        return self.chunks[chunk]

    def put(self, index, winner, hands):
        """Store round `index` (an existing one or the next); None means EMPTY."""
        cells = self.make_room(index)
        base = (index % ROWS_PER_CHUNK) * self.width
        cells[base] = EMPTY if winner is None else winner
        for s in range(self.width - 1):
            h = hands[s]
            cells[base + 1 + s] = EMPTY if h is None else h

    def locate(self, index):
        """(cells, base) of a row: cells[base] is the winner, cells[base + 1 + s] seat s's hand."""
        return self.chunks[index // ROWS_PER_CHUNK], (index % ROWS_PER_CHUNK) * self.width

    def winner(self, index):
        cells, base = self.locate(index)
        w = cells[base]
        return None if w == EMPTY else w

    def hands(self, index):
        cells, base = self.locate(index)
        return [None if cells[base + 1 + s] == EMPTY else cells[base + 1 + s]
                for s in range(self.width - 1)]
