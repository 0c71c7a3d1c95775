# The simulated device's heap: the simulator's own share kept out of the board's, and its peak.
#
# Used by sim/run.py in the image's own 32-bit build (firmware/port/unix/build.sh
# frozen), where the heap is the board's: the first area by -X heapsize, the
# growth the ESP32 port would add (heapgrow.c reads TAFEL_HEAP_GROWTH).
import gc
import sys


def grant_sim_share(profile_path, growth, start_alloc):
    """The heap the simulator's own parts take, measured now, granted on top of the board's.

    The device's heap is the board's (its profile's "python": the first area by
    `-X heapsize`, `heap_growth` more when that is full, as the ESP32 grows its
    heap); the simulator's parts (this script, the emulated machine and chips)
    run in the same heap but are no part of the device. So before any of the
    firmware runs, this measures what they take (gc.mem_alloc() before and
    after importing them and wiring one machine as the profile says) and adds
    that to the growth the heap may take (heapgrow.c reads TAFEL_HEAP_GROWTH).
    start_alloc: gc.mem_alloc() when run.py began (its own code, compiled then).
    Returns the share in bytes."""
    import json
    import os

    with open(profile_path) as f:  # not board.py: nothing of the application before the flash boots it
        profile = json.load(f)
    os.putenv("TAFEL_HEAP_GROWTH", "16777216")  # room while measuring: a colour glass is 65 KB in one piece
    gc.collect()
    before = gc.mem_alloc()
    from sim import fileflash, halted, simmachine, simpower, simusb, simwdt  # noqa: F401

    machine = simmachine.from_profile(profile)
    machine.display.picture()  # the picture as the viewer sees it, which the chip keeps rendered
    simmachine.premade = machine  # the Device takes this very machine: its large buffers are made once
    machine = None  # noqa: F841
    gc.collect()
    share = gc.mem_alloc() - before + start_alloc  # + run.py's compiled code
    os.putenv("TAFEL_HEAP_GROWTH", str(growth + share))
    return share


class HeapWatch:
    """--heap-watch (bench/device_heap.py): the most heap in use between two commands, after a
    collection, and the largest free block at that moment; said on stderr when the device quits:
    "heap-watch PEAK LARGEST_FREE SIM_SHARE" in bytes (the share is in PEAK; the device's own
    use is PEAK - SIM_SHARE)."""

    def __init__(self, share, growth):
        self.share = share or 0
        self.growth = growth
        self.peak = 0
        self.largest = 0

    def look(self):
        gc.collect()
        used = gc.mem_alloc()
        if used > self.peak:
            self.peak = used
            self.largest = self._largest_free()

    def _largest_free(self):
        # The largest bytearray that fits now, by halves; the heap may not grow meanwhile.
        import os

        os.putenv("TAFEL_HEAP_GROWTH", "0")
        lo, hi = 0, gc.mem_free()
        while lo < hi:
            mid = (lo + hi + 1) // 2
            try:
                block = bytearray(mid)
                block = None  # noqa: F841
                lo = mid
            except MemoryError:
                hi = mid - 1
        os.putenv("TAFEL_HEAP_GROWTH", str(self.growth + self.share))
        return lo

    def say(self):
        sys.stderr.write("heap-watch %d %d %d\n" % (self.peak, self.largest, self.share))
