# Export: which games go, and the stream of frames that carries their journal files as they are.
#
# The device sends the bytes of each game's files (games/<id>.tj, then
# live/<id>.<nnn>, then what the store set aside of it in keep/) exactly as
# they are on flash, a chunk a frame; the host decodes them with
# tafel.journal and tafel.records and merges them by sequence number. Nothing
# is decoded, converted or compressed here, so an export costs a file read
# and a base64 line per chunk, whatever the game holds.
#
# The games are read through the store's view of them (store/journals.py),
# whose file numbers are GAME's (its KEPT is wire.KEEP_FILE).
from tafel import wire
from tafel.records import put_varint


def flags(journals, game_id):
    """A game's GAME and LIST flags: the store's summary flags, plus LIVE."""
    return journals.flags(game_id) | (wire.LIVE if journals.is_live(game_id) else 0)


def plan(store, r, asked=None):
    """(game ids ascending, journal bytes, cursor) of an EXPORT request body;
    the cursor is (top game, its records, change log epoch, changes). With a
    list `asked`, the body may end in a varint: the DATA size the host asks
    for (a noisy line), appended to it."""
    mode = r.byte()
    j = store.journals()
    ids = store.history()
    ids.reverse()
    top = ids[-1] if ids else 0
    j.start_change_log()  # an index from before the change log: start one, so the cursor holds
    cursor = (top, j.records(top)) + j.change_log()
    extra = j.unlisted(ids)
    if mode == wire.ONE:
        game_id = r.varint()
        _end(r, asked)
        if game_id not in ids and game_id not in extra:
            raise wire.WireError("no_game", "%d" % game_id)
        ids = [game_id]
    elif mode == wire.ALL:
        _end(r, asked)
        ids = sorted(ids + extra)
    elif mode == wire.SINCE:
        g = r.varint()
        s = r.varint()
        _end(r, asked)
        ids = [i for i in ids if i > g
               or (i == g and (cursor[1] if i == top else j.records(i)) > s)
               or (i < g and (j.is_live(i) or not flags(j, i) & wire.EXPORTED))]
        ids = sorted(ids + extra)
    elif mode == wire.AFTER:
        epoch = r.varint()
        n = r.varint()
        _end(r, asked)
        ids = sorted(j.changed_after(ids, epoch, n) + extra)
    else:
        raise wire.WireError("bad_request", "mode %d" % mode)
    total = 0
    for game_id in ids:
        total += j.size(game_id)
    return ids, total, cursor


def _end(r, asked):
    if asked is not None and r.pos < len(r.data):
        asked.append(r.varint())
    r.end()


def frames(store, ids, cursor, chunk):
    """Yields (kind, body) of the stream: per game GAME, DATA..., GEND; then DONE."""
    j = store.journals()
    buf = bytearray(chunk)
    for game_id in ids:
        j.refresh()  # afresh: the game may have moved since the plan
        got = j.files(game_id)
        body = bytearray()
        put_varint(body, game_id)
        body.append(flags(j, game_id))
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
                if j.read(path, offset, buf, want) < want:
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
