# Flash space: how much is free, when to warn, when to refuse a new game.
#
# Counted in LittleFS blocks (4 KB). A 10-seat game of 300 rounds needs about
# 15 journal segments (one block each) plus 3 blocks for its closed copy, all
# of it twice (the twin, store.py), and closing it rewrites the index (a
# second copy for a moment). RUNNING is what
# is kept back for the game being played, so it can always save to its end
# and be closed; a new game is refused below RUNNING + NEW_GAME, with a
# warning long before that. Only the storage code writes flash, and nothing
# else it writes may eat into RUNNING.
from tafel.compat import const

RUNNING = const(48)  # blocks kept for the running game, both copies (~192 KB)
NEW_GAME = const(16)  # blocks a new game must find on top of that
_WARN_PART = const(8)  # warn when less than 1/8 of the flash is free ...
_WARN_MIN = const(64)  # ... or fewer than this many blocks


class Space:
    """A snapshot of the free space; `level` is "ok", "flash_low" or "flash_full"."""

    def __init__(self, free, total, block_size, index_blocks=0):
        self.free = free
        self.total = total
        self.block_size = block_size
        self.reserve = RUNNING + index_blocks
        if free < self.reserve + NEW_GAME:
            self.level = "flash_full"
        elif free < max(_WARN_MIN, total // _WARN_PART) + self.reserve:
            self.level = "flash_low"
        else:
            self.level = "ok"

    @property
    def free_kb(self):
        return self.free * self.block_size // 1024

    @property
    def total_kb(self):
        return self.total * self.block_size // 1024

    def can_start_game(self):
        return self.level != "flash_full"

    def can_write_small(self):
        # Settings and roster: allowed while the running game's room stays.
        return self.free >= self.reserve

    def message(self):
        """(key, kilobytes free) for the UI, or None when all is well."""
        if self.level == "ok":
            return None
        return self.level, self.free_kb
