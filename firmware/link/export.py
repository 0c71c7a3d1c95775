# Export: which games go, and the stream of frames that carries their journal files as they are.
#
# The device sends the bytes of each game's files (games/<id>.tj, then
# live/<id>.<nnn>, then what the store set aside of it in keep/) exactly as
# they are on flash, a chunk a frame; the host decodes them with
# tafel.journal and tafel.records and merges them by sequence number. Nothing
# is decoded, converted or compressed here, so an export costs a file read
# and a base64 line per chunk, whatever the game holds.
from store import index as ix
from store.gamelog import GAMES, KEEP, LIVE, GameLog, name, parse
from tafel import wire
from tafel.records import put_varint


def live_files(disk):
    """{game id: [(segment number, size)]} of what is in live/."""
    out = {}
    for fname, size in disk.listdir(LIVE):
        got = parse(fname)
        if got and got[1] is not None:
            out.setdefault(got[0], []).append((got[1], size))
    return out


def keep_id(fname):
    """The game id of a file in keep/ (live-000007.003, twin-games-000007.tj.1, ...), or None."""
    stem = fname[fname.rfind("-") + 1:]
    if len(stem) > 7 and stem[6] == "." and stem[:6].isdigit():
        return int(stem[:6])
    return None


def keep_files(disk):
    """{game id: [(name, size)]} of what the store set aside in keep/ (settings, roster: not games)."""
    out = {}
    for fname, size in disk.listdir(KEEP):
        game_id = keep_id(fname)
        if game_id is not None:
            out.setdefault(game_id, []).append((fname, size))
    return out


def files(disk, game_id, live, keep=None):
    """[(file number, path, size)] of a game in reading order: 0 is the closed
    journal (if there is one), n + 1 the live segment n, wire.KEEP_FILE + k the
    k-th of its files in keep/ (by name)."""
    stem = name(game_id)
    out = []
    closed = GAMES + "/" + stem + ".tj"
    size = disk.size(closed)
    if size is not None:
        out.append((0, closed, size))
    for seg, size in sorted(live.get(game_id, ())):
        out.append((seg + 1, LIVE + "/" + stem + ".%03d" % seg, size))
    kept = sorted(keep.get(game_id, ())) if keep else ()
    for k in range(len(kept)):
        out.append((wire.KEEP_FILE + k, KEEP + "/" + kept[k][0], kept[k][1]))
    return out


def size(disk, game_id, live, keep=None):
    n = 0
    for _, _, s in files(disk, game_id, live, keep):
        n += s
    return n


def flags(store, game_id, live, keep=None):
    """A game's summary flags (finished, exported, damaged from the index) plus
    LIVE; DAMAGED too when it has bytes in keep/ or no history entry."""
    idx = store.index
    i = idx.find(game_id)
    out = idx.flags[i] & (ix.FINISHED | ix.EXPORTED | ix.DAMAGED) if i >= 0 else wire.DAMAGED
    if game_id in live:  # still changing: an earlier export's mark no longer holds
        out = out & ~ix.EXPORTED | wire.LIVE
    if keep and game_id in keep:
        out |= wire.DAMAGED
    return out


def extra_ids(store, ids, keep):
    """Games with bytes on flash but no history entry: only in keep/, or
    unreadable at boot. They go out with every export (damaged, never marked)."""
    out = [i for i in keep if i not in ids]
    for i in getattr(store, "unreadable", ()):
        if i not in ids and i not in out:
            out.append(i)
    return out


def records(disk, game_id):
    return GameLog(disk, game_id).scan() if game_id else 0


def changed_after(store, ids, live, epoch, n):
    """The games of `ids` that may have changed after change number n of the
    index's change log `epoch`: all of them for another epoch (a count that
    started again), else the live ones, those without an index entry (the
    running game) and those whose entry was written after n."""
    idx = store.index
    if epoch != idx.epoch or not epoch or n > idx.changes:
        return ids
    out = []
    for game_id in ids:
        i = idx.find(game_id)
        if i < 0 or game_id in live or idx.stamps[i] > n:
            out.append(game_id)
    return out


def plan(store, r):
    """(game ids ascending, journal bytes, cursor) of an EXPORT request body;
    the cursor is (top game, its records, change log epoch, changes)."""
    mode = r.byte()
    disk = store.disk
    ids = store.history()
    ids.reverse()
    top = ids[-1] if ids else 0
    if not store.index.epoch:  # an index from before the change log: start one, so the cursor holds
        try:
            store.index.write({}, store.next_game_id())
        except OSError:
            pass  # flash full: epoch 0 stays, the next export sends everything again
    cursor = (top, records(disk, top), store.index.epoch, store.index.changes)
    live = live_files(disk)
    keep = keep_files(disk)
    extra = extra_ids(store, ids, keep)
    if mode == wire.ONE:
        game_id = r.varint()
        r.end()
        if game_id not in ids and game_id not in extra:
            raise wire.WireError("no_game", "%d" % game_id)
        ids = [game_id]
    elif mode == wire.ALL:
        r.end()
        ids = sorted(ids + extra)
    elif mode == wire.SINCE:
        g = r.varint()
        s = r.varint()
        r.end()
        ids = [i for i in ids if i > g
               or (i == g and (cursor[1] if i == top else records(disk, i)) > s)
               or (i < g and (i in live or not flags(store, i, live) & ix.EXPORTED))]
        ids = sorted(ids + extra)
    elif mode == wire.AFTER:
        epoch = r.varint()
        n = r.varint()
        r.end()
        ids = sorted(changed_after(store, ids, live, epoch, n) + extra)
    else:
        raise wire.WireError("bad_request", "mode %d" % mode)
    total = 0
    for game_id in ids:
        total += size(disk, game_id, live, keep)
    return ids, total, cursor


def frames(store, ids, cursor, chunk):
    """Yields (kind, body) of the stream: per game GAME, DATA..., GEND; then DONE."""
    disk = store.disk
    buf = bytearray(chunk)
    for game_id in ids:
        live = live_files(disk)  # afresh: the game may have moved since the plan
        keep = keep_files(disk)
        got = files(disk, game_id, live, keep)
        body = bytearray()
        put_varint(body, game_id)
        body.append(flags(store, game_id, live, keep))
        put_varint(body, len(got))
        for number, _, n in got:
            put_varint(body, number)
            put_varint(body, n)
        yield wire.GAME, body
        status = wire.WHOLE if got else wire.CHANGED  # no files: deleted meanwhile
        for number, path, n in got:
            offset = 0
            while offset < n:
                want = min(chunk, n - offset)
                if _read(disk, path, offset, buf, want) < want:
                    status = wire.CHANGED  # shrank or went: put away or deleted meanwhile
                    break
                body = bytearray()
                put_varint(body, game_id)
                put_varint(body, number)
                put_varint(body, offset)
                body.extend(memoryview(buf)[:want])
                yield wire.DATA, body
                offset += want
        body = bytearray()
        put_varint(body, game_id)
        body.append(status)
        yield wire.GEND, body
    body = bytearray()
    for n in (len(ids),) + tuple(cursor):
        put_varint(body, n)
    yield wire.DONE, body


def _read(disk, path, offset, buf, want):
    # Opened for each chunk: the app may append to, put away or delete the
    # file between two steps, and a handle kept open across them would not see it.
    f = disk.open_existing(path)
    if f is None:
        return 0
    try:
        f.seek(offset)
        return f.readinto(memoryview(buf)[:want]) or 0
    finally:
        f.close()
