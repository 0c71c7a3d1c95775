# The virtual chip's memory figures of a run (never deployed): the heap's peak at every step, the C stack, ESP-IDF's heap.
#
# Used by sim/run.py with --heap-watch (and --idle). In the device build
# (firmware/port/unix/build.sh frozen) the C module `tafelchip`
# (firmware/port/unix/tafel/tafelchip.c) keeps them without allocating: after
# every step of the firmware a collection and the heap in use sampled
# (Stats.step), the C stack painted at the start and its deepest point read
# at the end; run.py sets what the heap grows from and the C stack's limit.
# Said on stderr when the device quits, for bench/device_heap.py:
#   heap-watch PEAK LARGEST_FREE AREAS STACK IDF_FREE IDF_LARGEST IDF_LEAST
# (bytes; PEAK is the most heap in use after a collection, LARGEST_FREE the
# largest free block then, AREAS the heap's areas then, STACK the deepest C
# stack from the top, IDF_* what the modelled ESP-IDF heap had free at the
# end, its largest block, and the least it ever had free). On any other build
# (the PyPI unix port) the peak is sampled with gc alone and the rest is -1.
import gc
import sys

try:
    import tafelchip
except ImportError:
    tafelchip = None


class Stats:
    said = False  # the figures went out already (run.py: before a reset's reply)

    def __init__(self):
        self.peak = 0
        if tafelchip is not None:
            tafelchip.stack_paint()

    def step(self):
        if tafelchip is not None:
            tafelchip.sample(1)
            return
        gc.collect()
        used = gc.mem_alloc()
        if used > self.peak:
            self.peak = used

    def say(self):
        if tafelchip is not None:
            self.step()
            peak, largest, areas = tafelchip.peak()[:3]
            stack = tafelchip.stack_peak()
            idf = tafelchip.idf_info()
        else:
            peak, largest, areas, stack, idf = self.peak, -1, -1, -1, (-1, -1, -1)
        sys.stderr.write("heap-watch %d %d %d %d %d %d %d\n" % ((peak, largest, areas, stack) + tuple(idf)))
