# Tests that boot a flash hundreds of times leave garbage collection to the interpreter.
#
# A replay collects before each new chunk of rounds (store/gamelog.py), so on the chip the chunk
# takes the lowest hole of a 64 KB heap. The sweeps and damage campaigns boot after every cut or
# fault, and each such collection scans this process's megabytes of flash images; what they prove
# (nothing acknowledged is lost, nothing goes unsaid) does not depend on when garbage goes.
#
#   @collecting_when_full
#   def test_every_cut(): ...
from store import gamelog


class _CollectWhenFull:
    def collect(self):
        pass  # the interpreter still collects when its heap is full


def collecting_when_full(test):
    """The test, run with the replay's own collections left out (put back after, and the garbage
    the test left collected, so the tests after it find the heap as they would have)."""
    def run():
        saved = gamelog.gc
        gamelog.gc = _CollectWhenFull()
        try:
            test()
        finally:
            gamelog.gc = saved
            saved.collect()
    return run
