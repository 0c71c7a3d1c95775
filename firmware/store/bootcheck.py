# The boot check: after every power-up, before the UI shows anything.
#
# It mounts nothing itself (mount.py does that); it walks the data folder:
#  - removes *.new files (a write-new-then-rename that was cut short),
#  - loads settings and roster (a damaged one: defaults, bytes to keep/),
#  - loads the index and finishes deletions its tombstones announce,
#  - replays every game in live/: a torn last record is cut off, other damage
#    is set aside into keep/ (never dropped), a game that is over is put away,
#    the newest unfinished game stays running,
#  - reports free space.
# It does not list games/: with hundreds of games that costs more than all
# the rest (LittleFS reads a directory entry by entry). The order of writes
# makes the index trustworthy without it: a game is put away as compact
# copy, then index entry, then removal of its live segments, so a game whose
# entry is missing still has segments in live/ and is put away again. Only
# when the index is missing or damaged, or with deep=True, is games/ listed
# and the index rebuilt from the journals wherever it disagrees with them.
# Every step is idempotent, so a power cut during the check is finished by
# the next boot.
from . import index as ix
from . import keyval
from .gamelog import GAMES, LIVE, GameLog, parse, replay

ROOT_DIRS = ("", LIVE, GAMES)


def run(store, deep=False):
    """Checks everything after power-up; returns notes for the UI as a list
    of (key, detail):
      index_damaged      the index file was damaged; detail = text
      index_rebuilt      entries rebuilt from the journals; detail = count
      torn_tail_repaired a cut-short last record was removed; detail = id
      game_damaged       damage set aside, bytes kept in keep/; detail = (id, text)
      game_unreadable    a game that cannot be replayed, left as it is; detail = (id, text)
      settings_damaged / roster_damaged    defaults in use, bytes in keep/
      flash_low / flash_full               detail = kilobytes free
    """
    notes = []
    for d in ROOT_DIRS:
        store.disk.mkdir(d)
        if d != GAMES or deep:  # games/ leftovers: see _boot_live and deep
            _remove_leftovers(store.disk, d)
    store.settings, problem = keyval.load(store.disk, keyval.SETTINGS, {})
    if problem:
        notes.append(("settings_damaged", None))
    store.roster, problem = keyval.load(store.disk, keyval.ROSTER, [])
    if problem:
        notes.append(("roster_damaged", None))
    store._top = None
    store.live = None
    store._booted = None
    store.forget_space()
    problem = store.index.load()
    if problem is not None and problem != "missing":
        notes.append(("index_damaged", problem))
    _finish_deletions(store)
    if problem is not None or deep:
        _reconcile(store, notes)
    _boot_live(store, notes)
    note = store.space().message()
    if note:
        notes.append(note)
    return notes


def _remove_leftovers(disk, folder):
    for fname, _ in disk.listdir(folder):
        if fname.endswith(".new"):  # a write-new-then-rename cut short
            disk.remove((folder + "/" if folder else "") + fname)


def _finish_deletions(store):
    idx = store.index
    gone = [idx.ids[i] for i in range(len(idx.ids)) if idx.flags[i] & ix.DELETED]
    if gone:
        for game_id in gone:
            GameLog(store.disk, game_id).remove_all()
        idx.write(dict((game_id, None) for game_id in gone), store.next_game_id())


def _reconcile(store, notes):
    # The index must match games/: drop entries without a file, rebuild
    # entries that are missing or older than their file.
    idx = store.index
    on_flash = {}
    for fname, size in store.disk.listdir(GAMES):
        got = parse(fname)
        if got and got[1] is None:
            on_flash[got[0]] = size
    changes = {}
    for game_id in idx.ids:
        if game_id not in on_flash:
            changes[game_id] = None
    rebuilt = 0
    for game_id, size in on_flash.items():
        i = idx.find(game_id)
        if i >= 0 and idx.sizes[i] == size:
            continue
        changes[game_id] = _rebuild_entry(store, game_id, size, notes)
        rebuilt += 1
    if changes:
        store._top = None
        idx.write(changes, store.next_game_id(on_flash))
    if rebuilt:
        notes.append(("index_rebuilt", rebuilt))


def _rebuild_entry(store, game_id, size, notes):
    log = GameLog(store.disk, game_id)
    game, problem = replay(log)
    if game is None:
        store.unreadable[game_id] = problem or "no records"
        notes.append(("game_unreadable", (game_id, store.unreadable[game_id])))
        return ix.Entry(game_id, ix.DAMAGED, size)
    flags = ix.DAMAGED if (problem or log.problems) else 0
    return ix.entry_for(game, game_id, size, flags)


def _boot_live(store, notes):
    # Every game with segments in live/: check it, put away what is over,
    # keep the newest unfinished one running.
    ids = []
    for fname, _ in store.disk.listdir(LIVE):
        got = parse(fname)
        if got and got[1] is not None and got[0] not in ids:
            ids.append(got[0])
    ids.sort()
    running = None
    for game_id in ids:
        store.disk.remove(GAMES + "/%06d.tj.new" % game_id)  # a put-away cut short
        log, game = open_game(store, game_id, notes)
        if log is None:
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


def open_game(store, game_id, notes):
    # (log, game) replayed, damage repaired or set aside; (None, None) if unreadable.
    log = GameLog(store.disk, game_id)
    game, problem = replay(log)
    if log.problems and game is not None and problem is None:
        torn = log.torn_only()
        text = log.problems[0][1]
        log.set_aside()
        game, problem = replay(log)
        notes.append(("torn_tail_repaired", game_id) if torn else ("game_damaged", (game_id, text)))
    if game is None and not log.problems and log.next_seq == 0:
        log.remove_live()  # a game whose create record never landed
        return None, None
    if game is None or problem is not None:
        store.unreadable[game_id] = problem or "no create record"
        notes.append(("game_unreadable", (game_id, store.unreadable[game_id])))
        return None, None
    return log, game
