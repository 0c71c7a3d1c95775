# The boot check: after every power-up, before the UI shows anything.
#
# It mounts nothing itself (mount.py does that); it walks both copies of the
# data (store.py: /data and its twin /twin):
#  - makes the folders, and once per flash writes every folder's metadata
#    twice (fsys.Disk.harden), so losing any one metadata block falls back
#    to an older state instead of losing the folder;
#  - removes *.new files (a write-new-then-rename that was cut short) while
#    listing the folders,
#  - loads settings and roster (a damaged one: defaults, bytes to keep/),
#  - lists games/ and live/ of both copies and keep/: a game present in any
#    form counts, for the next free id too (ids are never reused),
#  - finishes deletions the index's tombstones announce,
#  - mends every closed game whose two copies differ (mend.py),
#  - reconciles the index with the journals in both directions: an entry
#    without any journal is reported lost once and stays listed; a journal
#    without an entry, or one of another size, gets its entry rebuilt,
#  - replays every game in live/: copies mended, a torn last record cut off,
#    other damage set aside into keep/ (never dropped), a game that is over
#    is put away, the newest unfinished game stays running,
#  - checks the game the screen last confirmed against the mark kept outside
#    the game folders (watermark.py): missing rounds or a vanished game are
#    told, flagged in the history, and no older game runs in its place,
#  - reports games that exist only as set-aside bytes, and free space.
# Every step is idempotent, so a power cut during the check is finished by
# the next boot. What it found and did is kept in store.report (INFO and
# the export carry it; the UI shows the notes in startup.SHOWN).
from array import array

from . import index as ix
from . import keyval, watermark
from .gamelog import GAMES, KEEP, LIVE, Replay, parse, replay
from .mend import kept_ids, mend

LAYOUT = "layout"  # in the twin: written once every folder was hardened


def run(store, deep=False):
    """Checks everything after power-up; returns notes for the UI as a list
    of (key, detail), also kept in store.report:
      index_damaged      the index file was damaged; detail = text
      index_rebuilt      entries rebuilt from the journals; detail = count
      game_lost          an index entry whose journal is gone from both copies, or the game
                         the screen last confirmed gone without a trace; detail = id
      rounds_missing     a game holds fewer records than confirmed (the mark for the running
                         game, the history entry's size for a put-away one); detail = id
      copy_mended        a copy lagged behind (a cut between the two writes) and was made whole; detail = id
      game_mended        damage in one copy made good from the other, nothing lost; detail = id
      torn_tail_repaired a cut-short last record was removed; detail = id
      game_damaged       damage set aside, bytes kept in keep/; detail = (id, text)
      game_unreadable    a game that cannot be replayed, left as it is; detail = (id, text)
      game_set_aside     a game found only in keep/ (export it); detail = id
      mend_failed        the flash refused to rewrite a copy (full?); detail = (id, text)
      settings_damaged / roster_damaged    defaults in use, bytes in keep/
      flash_low / flash_full               detail = kilobytes free
    deep=True also reads every closed game whole and mends what is damaged."""
    notes = []
    _prepare(store)
    store.settings, problem = keyval.load(store.disk, keyval.SETTINGS, {})
    if problem:
        notes.append(("settings_damaged", None))
    store.roster, problem = keyval.load(store.disk, keyval.ROSTER, [])
    if problem:
        notes.append(("roster_damaged", None))
    store.live = None
    store._booted = None
    store.mark.load()
    store.forget_space()
    problem = store.index.load()
    if problem is not None and problem != "missing":
        notes.append(("index_damaged", problem))
    closed, live, kept = _listing(store)
    store.find_top(closed, live, kept)
    _finish_deletions(store, closed, live)
    _mend_closed(store, closed, deep, notes)
    _reconcile(store, closed, live, notes)
    free = _boot_live(store, live, notes)
    store.find_top(closed, live, kept, skip=free)  # never-born ids are free again
    watermark.check(store, notes)
    for game_id in kept:
        if game_id not in closed and game_id not in live and store.index.find(game_id) < 0:
            notes.append(("game_set_aside", game_id))
            store.unreadable[game_id] = "only set-aside bytes (keep/)"  # listed: it can be exported or deleted
    note = store.space().message()
    if note:
        notes.append(note)
    store.report = notes
    return notes


def _prepare(store):
    # Both trees' folders; once per flash (or after a power cut in the middle
    # of it) every folder, and the root above them, hardened. True if it was done now.
    for disk in store.disks:
        disk.mkdir("")
        have = []
        for name, kind in disk.entries(""):  # one listing: the folders, and leftovers to remove
            if kind == 0x4000:
                have.append(name)
            elif name.endswith(".new"):  # a write-new-then-rename cut short (live/, games/: _listing)
                disk.remove(name)
        for d in (LIVE, GAMES, KEEP) if disk is store.disk else (LIVE, GAMES):
            if d not in have:
                disk.mkdir(d)
    if store.twin.size(LAYOUT) is not None:
        return False
    for disk in store.disks:
        for d in (LIVE, GAMES, ""):
            disk.harden(d)
    store.disk.harden(KEEP)
    _harden_tree(store.parent, "app")  # the installed application's folders (those of a later update are not)
    store.parent.harden("")
    store.twin.write_new(LAYOUT, b"2")
    return True


def _harden_tree(disk, folder):
    for name, kind in disk.entries(folder):
        if kind == 0x4000:
            _harden_tree(disk, folder + "/" + name)
    if disk.size(folder) is not None:  # stat answers for a folder too
        disk.harden(folder)


def _listing(store):
    # (the closed journals' sizes (Closed, below), [ids with live segments], [ids in keep/]).
    # Its arrays take their room first, before the walks leave their small garbage.
    closed = Closed(store.index.ids)
    live = []
    for k in range(len(store.disks)):
        disk = store.disks[k]
        for fname, size in _listdir(disk, GAMES):
            got = parse(fname)
            if got and got[1] is None:
                closed.found(got[0], k, size)
        for fname, _ in _listdir(disk, LIVE):
            got = parse(fname)
            if got and got[1] is not None and got[0] not in live:
                live.append(got[0])
    live.sort()
    return closed, live, kept_ids(store.disk)


def _listdir(disk, folder):
    # The folder's files, walked rather than listed (games/ holds every game);
    # a write-new-then-rename cut short (*.new) is removed after the walk.
    left = []
    for fname, size in disk.files(folder):
        if fname.endswith(".new"):
            left.append(fname)
        else:
            yield fname, size
    for fname in left:
        disk.remove(folder + "/" + fname)


def _finish_deletions(store, closed, live):
    idx = store.index
    gone = [idx.ids[i] for i in range(len(idx.ids)) if idx.flags[i] & ix.DELETED]
    if gone:
        for game_id in gone:
            store.log(game_id).remove_all()
            closed.pop(game_id)
            if game_id in live:
                live.remove(game_id)
        idx.write(dict((game_id, None) for game_id in gone), store.next_game_id())


def _mend_closed(store, closed, deep, notes):
    # A closed game whose copies differ in size (or every one, deep) is read
    # whole and both copies made alike.
    uneven = sorted([i for i in closed if deep or _uneven(closed.sizes(i))])  # usually none
    for game_id in uneven:
        log = store.log(game_id)
        _note(notes, _mend(log, notes), game_id, log)
        size = store.disk.size(GAMES + "/%06d.tj" % game_id)
        closed.set(game_id, size, size)


def _uneven(sizes):
    return sizes[0] != sizes[1]


def _mend(log, notes, r=None):
    # mend.py's verdict; a flash that refuses the rewrite leaves the copies as
    # they are (every record still reads from the merged copies) and says so.
    try:
        return mend(log, r)
    except OSError as err:
        notes.append(("mend_failed", (log.game_id, "errno %s" % err.args[0])))
        if r is not None:
            r.__init__()
            for seq, payload in log.records():
                r.feed(seq, payload)
        else:
            log.scan()
        return None


def _note(notes, verdict, game_id, log):
    if verdict == "copy":
        notes.append(("copy_mended", game_id))
    elif verdict == "torn":
        notes.append(("torn_tail_repaired", game_id))
    elif verdict == "mended":
        notes.append(("game_mended", game_id))
    elif verdict == "damaged":
        text = log.problems[0][1] if log.problems else "records set aside"
        notes.append(("game_damaged", (game_id, text)))


def _reconcile(store, closed, live, notes):
    # The index must match the closed journals: an entry whose journal is gone
    # from both copies is reported lost (once; it stays listed), a journal
    # without an entry, or of another size than its entry says, gets one.
    idx = store.index
    changes = {}
    for i in range(len(idx.ids)):
        game_id, flags = idx.ids[i], idx.flags[i]
        if game_id in closed or game_id in live or flags & (ix.DELETED | ix.LOST):
            continue
        e = idx.entry(game_id)
        if e is None:
            e = ix.Entry(game_id)
        e.flags |= ix.LOST | ix.DAMAGED
        changes[game_id] = e
        notes.append(("game_lost", game_id))
    # Only the journals whose entry is missing or wrong are listed (seldom any): a sorted list of
    # every closed game would be one more block of the history's size at boot.
    stale = []
    for game_id in closed:
        main, twin = closed.sizes(game_id)
        size = twin if main is None else main
        i = idx.find(game_id)
        if i < 0 or idx.sizes[i] != size or idx.flags[i] & ix.LOST:
            stale.append((game_id, size))
    stale.sort()  # in id order (the notes say so in every run)
    rebuilt = 0
    for game_id, size in stale:
        e = changes[game_id] = _rebuild_entry(store, game_id, size, notes)
        i = idx.find(game_id)
        if i >= 0:
            e.flags |= idx.flags[i] & ix.DAMAGED  # damage once found stays on the entry
            if size < idx.sizes[i] and not idx.flags[i] & ix.LOST and not _told(notes, game_id):
                e.flags |= ix.DAMAGED  # shorter than when it was put away, and nothing said why
                notes.append(("rounds_missing", game_id))
        rebuilt += 1
    if changes:
        idx.write(changes, store.next_game_id())
    if rebuilt:
        notes.append(("index_rebuilt", rebuilt))


def _told(notes, game_id):
    # Whether a note already names the game (as its detail, or first in a detail pair).
    for _, detail in notes:
        if detail == game_id or type(detail) is tuple and detail[0] == game_id:
            return True
    return False


def _rebuild_entry(store, game_id, size, notes):
    log = store.log(game_id)
    game, problem = replay(log)
    if game is None:
        store.unreadable[game_id] = problem or "no records"
        notes.append(("game_unreadable", (game_id, store.unreadable[game_id])))
        return ix.Entry(game_id, ix.DAMAGED, size)
    flags = ix.DAMAGED if (problem or log.problems) else 0
    return ix.entry_for(game, game_id, size, flags)


def _boot_live(store, ids, notes):
    # Every game with segments in live/: check it, put away what is over,
    # keep the newest unfinished one running.
    running = None
    free = []
    for game_id in ids:
        log, game = open_game(store, game_id, notes)
        if log is None:
            if game_id not in store.unreadable:
                free.append(game_id)
            continue
        if game.finished:
            store._put_away_soft(log, game)  # over, but not yet put away
            continue
        if running is not None:
            store._put_away_soft(*running)  # only the newest stays running
        running = (log, game)
    if running is not None:
        store.live = running[0]
        store._booted = (running[0].game_id, running[1])
    return free


def open_game(store, game_id, notes):
    # (log, game) replayed, copies mended, damage set aside; (None, None) if unreadable.
    log = store.log(game_id)
    r = Replay()
    _note(notes, _mend(log, notes, r), game_id, log)
    game, problem = r.game, r.problem
    if game is None and not log.problems and log.next_seq == 0 and not log.exists_closed():
        log.remove_live()  # a game whose create record never landed: nothing of it anywhere
        return None, None
    if game is None or problem is not None:
        store.unreadable[game_id] = problem or "no create record"
        notes.append(("game_unreadable", (game_id, store.unreadable[game_id])))
        return None, None
    return log, game


# The closed journals found: each game's file size in either copy. With a hundred games a dict
# {id: (main size, twin size)} took a 1 KB table in one piece and a tuple per game, 3 KB at the
# boot's fullest moment; here two arrays beside a copy of the index's ids, 1.2 KB in three blocks.
# A size is kept plus one: 0 says that copy has no file. Journals the index does not list (their
# entries are rebuilt) are few: a dict of their own. (Here, not a module of its own: on stock
# MicroPython every module is one more file an update's slot must find flash for.)
class Closed:
    def __init__(self, ids):
        """ids: the index's game ids, ascending (store/index.py keeps them so)."""
        n = len(ids)
        self.ids = array("I", ids)
        self._main = array("I", bytearray(4 * n))
        self._twin = array("I", bytearray(4 * n))
        self._more = {}  # id -> [main size + 1, twin size + 1] for ids the index does not list

    def found(self, game_id, copy, size):
        """A journal file of `size` bytes in copy 0 (the main tree) or 1 (the twin)."""
        i = ix.position(self.ids, game_id)
        if i >= 0:
            (self._twin if copy else self._main)[i] = size + 1
        else:
            more = self._more.get(game_id)
            if more is None:
                more = self._more[game_id] = [0, 0]
            more[copy] = size + 1

    def set(self, game_id, main, twin):
        """Both copies' sizes (None: no file there)."""
        m = 0 if main is None else main + 1
        t = 0 if twin is None else twin + 1
        i = ix.position(self.ids, game_id)
        if i >= 0:
            self._main[i], self._twin[i] = m, t
        elif m or t:
            self._more[game_id] = [m, t]
        else:
            self._more.pop(game_id, None)

    def pop(self, game_id):
        """The game is gone from both copies."""
        self.set(game_id, None, None)

    def sizes(self, game_id):
        """(main size, twin size), None where that copy has no file; None when neither has one."""
        i = ix.position(self.ids, game_id)
        if i >= 0:
            m, t = self._main[i], self._twin[i]
        else:
            m, t = self._more.get(game_id, (0, 0))
        if not (m or t):
            return None
        return (m - 1 if m else None, t - 1 if t else None)

    def __contains__(self, game_id):
        i = ix.position(self.ids, game_id)
        if i >= 0:
            return bool(self._main[i] or self._twin[i])
        return game_id in self._more

    def __iter__(self):
        """The ids with a file in either copy: the index's in ascending order, then the others."""
        for i in range(len(self.ids)):
            if self._main[i] or self._twin[i]:
                yield self.ids[i]
        for game_id in self._more:
            yield game_id
