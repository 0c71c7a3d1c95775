# A run of heap kept back in one piece, let go for the moments that need one.
#
#   reserve.keep()      # at start-up, while the heap is young; again after each use
#   reserve.let_go()    # just before work that opens files (a save, an update's block)
#
# After hours of play the heap's free space lies in holes mostly shorter than
# the few hundred bytes some steps need in one piece: a LittleFS file object
# with its cache (252 bytes on the chip, one for each open file), a chunk of a
# game's round table (176 bytes at most). Saving a round opens one file at a
# time; staging an update's block has up to two open beside the bundle's head.
# Those steps let this block go, the collector gives its room to them, and
# keep() takes it back afterwards (once they are done, a collection finds it
# again). If the heap has no such run when keep() asks, there is none until
# the next time: the step then goes without, as it would have anyway.
import gc

from micropython import const

ROOM = const(768)  # two file objects with their caches and what goes between, in one piece

_held = [None]


def keep():
    """Hold the reserve again (nothing when it is held, or when the heap has no such run now)."""
    if _held[0] is None:
        try:
            _held[0] = bytearray(ROOM)
        except MemoryError:
            pass


def let_go():
    """Give the reserve back to the heap: the next allocations may use its room."""
    if _held[0] is not None:
        _held[0] = None
        gc.collect()  # the garbage gone too: small allocations fill the holes below it first
