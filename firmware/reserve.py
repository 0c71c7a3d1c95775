# Runs of heap kept back, let go for the moments that need room in one piece.
#
#   reserve.keep()      # at start-up, while the heap is young
#   with reserve.room:  # work that opens files (a save, an update's block): let go, kept after
#
# After hours of play the heap's free space lies in holes mostly shorter than
# the few hundred bytes some steps need in one piece: a LittleFS file object
# with its cache (252 bytes on the chip, one for each open file). Saving a
# round opens one file at a time; staging an update's block has up to two open
# beside the bundle's head. Those steps let the reserve go, the collector gives
# its room to them, and keep() takes it back afterwards (once they are done, a
# collection finds it again). It is three runs of 256 bytes, each where the
# heap had one, not one of 768: files are opened one at a time, never needing
# their objects side by side, and late in an evening a run of 768 bytes is
# seldom there to be kept again. If the heap has no run when keep() asks,
# that piece waits for the next time: the step goes without, as it would have.
import gc

from micropython import const

ROOM = const(256)  # one file object with its cache (252 bytes on the chip), in one piece
PIECES = const(3)  # a save's file, and the two an update's unpacking opens beside its head

_held = [None] * PIECES


def keep():
    """Hold the reserve again: each piece the heap has a run for now (the others at the next call)."""
    for i in range(PIECES):
        if _held[i] is None:
            try:
                _held[i] = bytearray(ROOM)
            except MemoryError:
                return


def let_go():
    """Give the reserve back to the heap: the next allocations may use its room."""
    if _held[0] is not None:  # keep() fills them in order
        for i in range(PIECES):
            _held[i] = None
        gc.collect()  # the garbage gone too: small allocations fill the holes below it first


class _Room:
    # `with reserve.room:` lets the reserve go for the block and keeps it again after, however
    # the block ends. One object for every use: entering allocates nothing.
    def __enter__(self):
        let_go()

    def __exit__(self, kind, value, trace):
        keep()
        return False


room = _Room()
