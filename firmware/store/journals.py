# The stored games as the link sends them: each game's journal files, sizes, summary flags, change log.
#
# Store.journals() makes one; the link reads games only through it (issue 16),
# never the index's arrays or the folders themselves. It lists live/ and keep/
# when made (refresh() lists them again: a game may move between two steps of
# an export). Read only, except start_change_log(), which starts the change
# log of an index from before it. Imported only while the link serves a request.
from tafel.compat import const

from . import index as ix
from .gamelog import GAMES, KEEP, LIVE, GameLog, name, parse

KEPT = const(65536)  # file number of a game's first file in keep/ (docs/protocol.md's wire.KEEP_FILE)
_SUMMARY = const(7)  # the index flags a summary shows: finished, exported, damaged


def keep_id(fname):
    """The game id of a file in keep/ (live-000007.003, twin-games-000007.tj.1, ...), or None."""
    stem = fname[fname.rfind("-") + 1:]
    if len(stem) > 7 and stem[6] == "." and stem[:6].isdigit():
        return int(stem[:6])
    return None


class Journals:
    def __init__(self, store):
        self.store = store
        self.disk = store.disk
        self.refresh()

    def refresh(self):
        """Lists live/ ({id: [(segment, size)]}) and keep/ ({id: [(name, size)]}) again."""
        live, keep = {}, {}
        for fname, size in self.disk.listdir(LIVE):
            got = parse(fname)
            if got and got[1] is not None:
                live.setdefault(got[0], []).append((got[1], size))
        for fname, size in self.disk.listdir(KEEP):
            game_id = keep_id(fname)
            if game_id is not None:  # settings, roster: not games
                keep.setdefault(game_id, []).append((fname, size))
        self.live, self.keep = live, keep

    def is_live(self, game_id):
        """The game has segments in live/: being played, or played on since it was put away."""
        return game_id in self.live

    def files(self, game_id):
        """[(file number, path, size)] of a game in reading order: 0 the closed journal (if there
        is one), n + 1 the live segment n, KEPT + k the k-th of its files in keep/ (by name)."""
        stem = name(game_id)
        out = []
        closed = GAMES + "/" + stem + ".tj"
        size = self.disk.size(closed)
        if size is not None:
            out.append((0, closed, size))
        for seg, size in sorted(self.live.get(game_id, ())):
            out.append((seg + 1, LIVE + "/" + stem + ".%03d" % seg, size))
        kept = sorted(self.keep.get(game_id, ()))
        for k in range(len(kept)):
            out.append((KEPT + k, KEEP + "/" + kept[k][0], kept[k][1]))
        return out

    def size(self, game_id):
        n = 0
        for _, _, s in self.files(game_id):
            n += s
        return n

    def flags(self, game_id):
        """The summary flags of the index (finished, exported, damaged; damaged too with bytes in
        keep/, or without a history entry unless it is the running game, which has none until it
        is put away); exported never for a live game."""
        idx = self.store.index
        i = idx.find(game_id)
        if i >= 0:
            out = idx.flags[i] & _SUMMARY
        else:
            out = 0 if game_id == self.store.running_game() else ix.DAMAGED
        if game_id in self.live:  # still changing: an earlier export's mark no longer holds
            out &= ~ix.EXPORTED
        if game_id in self.keep:
            out |= ix.DAMAGED
        return out

    def unlisted(self, ids):
        """Games with bytes on flash but not in `ids` (the history): only in keep/, or unreadable
        at boot. They go out with every export (damaged, never marked)."""
        out = [i for i in self.keep if i not in ids]
        for i in getattr(self.store, "unreadable", ()):
            if i not in ids and i not in out:
                out.append(i)
        return out

    def records(self, game_id):
        """How many records the game's journal holds (0 for no game)."""
        return GameLog(self.disk, game_id).scan() if game_id else 0

    def change_log(self):
        """(epoch, changes) of the index's change log (epoch 0: none yet)."""
        idx = self.store.index
        return idx.epoch, idx.changes

    def start_change_log(self):
        """Starts the change log of an index from before it, so an export's cursor holds (flash
        full: epoch 0 stays, the next export sends everything again)."""
        if not self.store.index.epoch:
            try:
                self.store.index.write({}, self.store.next_game_id())
            except OSError:
                pass

    def changed_after(self, ids, epoch, n):
        """The games of `ids` that may have changed after change number n of the change log
        `epoch`: all of them for another epoch (a count that started again), else the live ones,
        those without an index entry (the running game) and those written after n."""
        idx = self.store.index
        if epoch != idx.epoch or not epoch or n > idx.changes:
            return ids
        return [i for i in ids if not self.unchanged(i, n)]

    def unchanged(self, game_id, n):
        """The game's history entry was written at change n or before and it is not live."""
        idx = self.store.index
        i = idx.find(game_id)
        return i >= 0 and game_id not in self.live and idx.stamps[i] <= n

    def read(self, path, offset, buf, want):
        """Reads up to `want` bytes of a file at offset into buf; the count (0: the file went)."""
        # Opened for each chunk: the app may append to, put away or delete the
        # file between two steps, and a handle kept open across them would not see it.
        f = self.disk.open_existing(path)
        if f is None:
            return 0
        try:
            f.seek(offset)
            return f.readinto(memoryview(buf)[:want]) or 0
        finally:
            f.close()
