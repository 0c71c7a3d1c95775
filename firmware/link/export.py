# Export: which games go, and the stream of frames that carries their journal files as they are.
#
# The device sends the bytes of each game's files (games/<id>.tj, then
# live/<id>.<nnn>) exactly as they are on flash, a chunk a frame; the host
# decodes them with tafel.journal and tafel.records (wire.journal_records).
# Nothing is decoded, converted or compressed here, so an export costs a
# file read and a base64 line per chunk, whatever the game holds.
from store import index as ix
from store.gamelog import GAMES, LIVE, GameLog, name, parse
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


def files(disk, game_id, live):
    """[(file number, path, size)] of a game in reading order: 0 is the closed
    journal (if there is one), n + 1 the live segment n."""
    stem = name(game_id)
    out = []
    closed = GAMES + "/" + stem + ".tj"
    size = disk.size(closed)
    if size is not None:
        out.append((0, closed, size))
    for seg, size in sorted(live.get(game_id, ())):
        out.append((seg + 1, LIVE + "/" + stem + ".%03d" % seg, size))
    return out


def size(disk, game_id, live):
    n = 0
    for _, _, s in files(disk, game_id, live):
        n += s
    return n


def flags(store, game_id, live):
    """A game's summary flags (finished, exported, damaged from the index) plus LIVE."""
    idx = store.index
    i = idx.find(game_id)
    out = idx.flags[i] & (ix.FINISHED | ix.EXPORTED | ix.DAMAGED) if i >= 0 else 0
    if game_id in live:  # still changing: an earlier export's mark no longer holds
        out = out & ~ix.EXPORTED | wire.LIVE
    return out


def records(disk, game_id):
    return GameLog(disk, game_id).scan() if game_id else 0


def plan(store, r):
    """(game ids ascending, journal bytes, cursor) of an EXPORT request body."""
    mode = r.byte()
    disk = store.disk
    ids = store.history()
    ids.reverse()
    top = ids[-1] if ids else 0
    cursor = (top, records(disk, top))
    live = live_files(disk)
    if mode == wire.ONE:
        game_id = r.varint()
        r.end()
        if game_id not in ids:
            raise wire.WireError("no_game", "%d" % game_id)
        ids = [game_id]
    elif mode == wire.ALL:
        r.end()
    elif mode == wire.SINCE:
        g = r.varint()
        s = r.varint()
        r.end()
        ids = [i for i in ids if i > g
               or (i == g and (cursor[1] if i == top else records(disk, i)) > s)
               or (i < g and (i in live or not flags(store, i, live) & ix.EXPORTED))]
    else:
        raise wire.WireError("bad_request", "mode %d" % mode)
    total = 0
    for game_id in ids:
        total += size(disk, game_id, live)
    return ids, total, cursor


def frames(store, ids, cursor, chunk):
    """Yields (kind, body) of the stream: per game GAME, DATA..., GEND; then DONE."""
    disk = store.disk
    buf = bytearray(chunk)
    for game_id in ids:
        live = live_files(disk)  # afresh: the game may have moved since the plan
        got = files(disk, game_id, live)
        body = bytearray()
        put_varint(body, game_id)
        body.append(flags(store, game_id, live))
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
    for n in (len(ids), cursor[0], cursor[1]):
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
