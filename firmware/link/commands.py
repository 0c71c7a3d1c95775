# What each request does: returns the OK body, None when the answer comes later
# (a question on the screen), or raises wire.WireError / a body's RecordError.
from micropython import const

from tafel import wire
from tafel.records import MAX_NUMBER, put_text, put_varint, varints
from tafel.wire import Body, WireError

_PAGE = const(12)  # summaries read from the index at a time for LIST
_MAX_NAMES = const(128)  # names a roster push may gather (the store keeps 64)
_MAX_MARK = const(20)  # games one MARK may name
SMALLEST_CHUNK = const(16)  # the least file bytes a DATA frame carries, whatever a host asks
_CLUB_PAIR = const(0x18)  # tafel.club.PAIR and UNPAIR (link/pair.py): kept out of tafel.wire's names
_CLUB_UNPAIR = const(0x19)


def run(link, kind, seq, body):
    r = Body(body)
    if kind == wire.HELLO:
        return _hello(link, r)
    if kind == wire.INFO:
        return info(link, r)
    if kind == wire.LIST:
        return list_games(link, r)
    if kind == wire.EXPORT:
        return start_export(link, r)
    if kind == wire.CANCEL:
        r.end()
        link.cancel()
        return b""
    if kind == wire.CLOCK:
        return clock(link, r)
    if kind == wire.ROSTER_PUSH:
        return roster_push(link, r)
    if kind == wire.ROSTER_PULL:
        return roster_pull(link, r)
    if kind == wire.MARK:
        return mark(link, r)
    if kind == wire.DELETE:
        return delete(link, seq, r)
    if kind == wire.WIPE:
        return wipe(link, seq, r)
    if kind == wire.BYE:
        r.end()
        return b""
    if kind == wire.FLASH_READ:  # the raw flash, read-only (link/flashread.py)
        from link import flashread

        return flashread.start(link, r)
    if wire.UPDATE_BEGIN <= kind <= wire.UPDATE_SEND:
        from . import update

        return update.run(link, kind, r)
    if kind == _CLUB_PAIR or kind == _CLUB_UNPAIR:  # the club's pairing, imported when asked
        from . import pair

        return pair.run(link, kind, r)
    if 0x10 <= kind <= 0x17:
        raise WireError("unsupported", "kind %d" % kind)
    raise WireError("unknown", "kind %d" % kind)


def _hello(link, r):
    r.end()
    out = varints(wire.PROTOCOL)
    put_text(out, link.device_id)
    put_text(out, link.firmware)
    t = link.t
    put_varint(out, t.window)
    put_varint(out, t.chunk)
    put_varint(out, wire.MAX_REQUEST)
    return out


def info(link, r):
    r.end()
    store = link.app.store
    space = store.space()
    out = varints(space.free_kb, space.total_kb, len(store.history()), store.running_game() or 0,
                  min(link.app.clock.time(), MAX_NUMBER), store.next_game_id())  # any stored time fits
    put_text(out, link.firmware)
    put_text(out, space.level)
    _update_state(out, store.update_volume(), link.app.clock.ticks_ms())
    _storage_report(out, getattr(store, "report", None) or ())
    return out


# The boot check's notes whose whole detail is a game id (store/bootcheck.py): sent as the game.
_GAME_NOTES = ("game_lost", "rounds_missing", "copy_mended", "game_mended", "torn_tail_repaired", "game_set_aside")


def _storage_report(out, notes):
    # What the boot check found and did (store.report: (key, detail), detail None,
    # an int, a text or (game id, text)): per note key, game id (0: none), detail
    # as text. Notes that would not fit the reply end in ("more", count left).
    room = wire.MAX_REPLY - len(out) - 16
    body = bytearray()
    n = 0
    for i in range(len(notes)):
        key, detail = notes[i]
        game = 0
        if isinstance(detail, (tuple, list)):
            game, detail = detail[0], detail[1] if len(detail) > 1 else None
            game = game if type(game) is int and game > 0 else 0
        elif type(detail) is int and key in _GAME_NOTES:
            game, detail = detail, None
        one = bytearray()
        put_text(one, _short(str(key)))
        put_varint(one, game)
        put_text(one, "" if detail is None else _short(str(detail)))
        if len(body) + len(one) > room:
            body.extend(b"\x04more\x00")
            put_text(body, "%d" % (len(notes) - i))
            n += 1
            break
        body.extend(one)
        n += 1
    put_varint(out, n)
    out.extend(body)


def _short(text):
    # A text the host's reader takes: at most 64 bytes of UTF-8.
    text = text[:60]
    while len(text.encode()) > 64:
        text = text[:-1]
    return text


def _update_state(out, vol, now):
    # The update's trial and the rollbacks remembered (update/health.py, bootsel.py; docs/protocol.md INFO).
    from update import health

    phase, tries, most, wdt_ms, confirm_ms, left, bundle_id, rolled = health.report(vol, now)
    for n in (phase, tries, most, wdt_ms, confirm_ms, left):
        put_varint(out, n)
    put_text(out, bundle_id)
    put_varint(out, len(rolled))
    for rec in rolled:
        put_text(out, str(rec.get("version") or "?"))
        put_text(out, str(rec.get("why") or "?"))
        at = rec.get("at")
        put_varint(out, at if type(at) is int and at > 0 else 0)
        count = rec.get("count")
        put_varint(out, count if type(count) is int and count > 0 else 0)


def list_games(link, r):
    after = r.varint()
    r.end()
    store = link.app.store
    ids = [i for i in store.history() if i > after]
    ids.reverse()
    j = store.journals()
    from . import export  # the export's module: imported by the first LIST or EXPORT, not by every request

    entries = bytearray()
    n = 0
    full = False
    for e in store.summaries(ids[:_PAGE]):
        one = bytearray()
        wire.put_summary(one, e, export.flags(j, e.id) | (wire.FINISHED if e.finished else 0), j.size(e.id))
        if len(entries) + len(one) > wire.MAX_REPLY - 8:
            full = True
            break
        entries.extend(one)
        n += 1
    out = bytearray((1 if full or n < len(ids) else 0,))
    put_varint(out, n)
    out.extend(entries)
    return out


def start_export(link, r):
    from . import export

    store = link.app.store
    asked = []  # a host on a noisy line asks for smaller DATA frames (docs/protocol.md, EXPORT)
    ids, total, cursor = export.plan(store, r, asked)
    chunk = link.t.chunk
    if asked:
        chunk = max(SMALLEST_CHUNK, min(chunk, asked[0]))
    link.exported_at = cursor[2:]  # (epoch, changes) when this export was planned: for MARK
    link.stream(export.frames(store, ids, cursor, chunk))
    return varints(len(ids), total, cursor[2], cursor[3])  # + the change log when planned


def clock(link, r):
    when = r.varint()
    r.end()
    if not when or when > wire.CLOCK_MAX:
        raise WireError("bad_request", "time %d: the clock takes 1 to %d" % (when, wire.CLOCK_MAX))
    clk = link.app.clock
    before = clk.time()
    clk.set_time(when)
    return varints(before)


def roster_push(link, r):
    flags = r.byte()
    names = r.texts()
    r.end()
    if flags & wire.FIRST:
        link.names = []
    elif link.names is None:
        raise WireError("bad_request", "no FIRST part")
    if len(link.names) + len(names) > _MAX_NAMES:
        link.names = None
        raise WireError("bad_request", "too many names")
    link.names.extend(names)
    if not flags & wire.LAST:
        return varints(len(link.names))
    store = link.app.store
    names, link.names = link.names, None
    from store import keyval

    problem = keyval.roster_problem(names)
    if problem:  # refused whole: the stored roster stays as it was
        raise WireError("bad_request", problem[1])
    store.save_roster(names)
    return varints(len(store.roster))


def roster_pull(link, r):
    start = r.varint()
    r.end()
    names = link.app.store.roster
    out = bytearray()
    n = 0
    for name in names[start:]:
        one = bytearray()
        put_text(one, name)
        if len(out) + len(one) > wire.MAX_REPLY - 4 or n == 255:
            break
        out.extend(one)
        n += 1
    return bytes((1 if start + n < len(names) else 0, n)) + out


def mark(link, r):
    count = r.varint()
    if count > _MAX_MARK:
        raise WireError("bad_request", "more than %d games" % _MAX_MARK)
    ids = [r.varint() for _ in range(count)]
    sizes = [r.varint() for _ in range(count)] if r.pos < len(r.data) else None
    r.end()
    store = link.app.store
    known = store.history()
    running = store.running_game()
    j = store.journals()
    # A game counts as taken home only if it was exported whole after its last
    # change: with sizes, only a game that is still what the host got is marked
    # (one played on since must go out again; sizes count its keep/ files too);
    # after an export in this session, only a game not changed since it was
    # planned. With neither there is no proof: nothing is marked.
    at = getattr(link, "exported_at", None)
    if at is not None and at[0] != j.change_log()[0]:
        at = (at[0], -1)  # the change log started again since: no game is provably unchanged
    ids = [ids[i] for i in range(count) if ids[i] in known and ids[i] != running and not j.is_live(ids[i])
           and (sizes is not None or at is not None)
           and (sizes is None or j.size(ids[i]) == sizes[i])
           and (at is None or j.unchanged(ids[i], at[1]))]
    if ids:
        import reserve

        with reserve.room:  # the index is written anew: two files open, its arrays copied once
            store.mark_exported(ids)
    return varints(len(ids))


def delete(link, seq, r):
    game_id = r.varint()
    r.end()
    store = link.app.store
    if game_id not in store.history():
        raise WireError("no_game", "%d" % game_id)
    players = " ".join(store.summary(game_id).players)
    link.ask(seq, link.app.t("laptop_delete") % game_id, players, lambda: _delete(link, [game_id], False))
    return None


def wipe(link, seq, r):
    r.end()
    ids = link.app.store.history()
    if not ids:
        return varints(0)
    t = link.app.t
    link.ask(seq, t("laptop_wipe"), t("laptop_games") % len(ids), lambda: _delete(link, ids, True))
    return None


def _delete(link, ids, count):
    # After the user pressed #: the OK body (WIPE: how many went).
    app = link.app
    app.store.delete_games(ids)
    if app.session.game_id in ids:
        app.session.close()
    app.show_game()  # no screen may go on showing a game that is gone
    return varints(len(ids)) if count else b""
