# What the screen last confirmed as saved, kept outside the game folders, and the boot's check against it.
#
# Every game is kept twice (live/ and games/ in /data and in /twin, store.py), so damage to one
# copy is mended from the other. Damage that hits both can still roll a game back: LittleFS
# falls back to a folder's previous commit when the last one no longer checks out, so a bit
# flipped in the last commit of /data/live and one in /twin/live cut the newest round from both,
# and flips in older commits can take a whole running game. Nothing inside those folders can
# tell; this mark can. It lives in the file "mark" of /data and of /twin (two more folders,
# whose commits a flip in live/ does not touch), written after each record is committed in both
# copies and before store.append() returns, so before the screen says "saved" (gamelog.Mark: the
# game's id and its last record's sequence number, the newer of the two copies wins).
# A cut between the record and the mark leaves the mark behind the record, never ahead: the check
# below never cries wolf over a power cut. Older games need no mark: a put-away game's history
# entry holds its journal's size (index.py), which the boot's reconcile compares (bootcheck.py).
#
# The check at boot: the marked game must hold a record numbered at least as high as the mark.
#   not a file of it anywhere   -> ("game_lost", id), and a history entry flagged lost (it stays
#                                  listed); an older game that would now run in its place is put
#                                  away instead (it is not the game the table was playing)
#   fewer records than marked   -> ("rounds_missing", id), its history entry flagged damaged
# The mark is then set to what is there, so each loss is told once (the flags stay).
from . import index as ix


def check(store, notes):
    """The boot's cross-check, after the live games were opened and put away or resumed: adds
    its notes. A put-away game's history entry guards it from here on (its journal's size, which
    bootcheck.py's reconcile compares); the mark guards the game being played."""
    mark = store.mark
    game_id, seq = mark.game_id, mark.seq
    if game_id is None or seq < 0:
        return
    idx = store.index
    i = idx.find(game_id)
    live = store.live
    if live is not None and live.game_id == game_id:
        have = live.next_seq
    elif i >= 0 or game_id in store.unreadable:
        return  # put away (its entry guards it), lost or deleted already, or told as unreadable
    else:
        log = store.log(game_id)
        have = log.scan() if log.exists() else 0
    if have > seq:
        return
    booted = store._booted
    if have == 0:
        notes.append(("game_lost", game_id))
        idx.write({game_id: ix.Entry(game_id, ix.LOST | ix.DAMAGED)}, store.next_game_id())
        if live is not None and live.game_id < game_id:  # a stale game would take the lost one's place
            if booted is not None:
                store._put_away_soft(live, booted[1])
            store.live = store._booted = None
        mark.write(game_id, -1)
        return
    notes.append(("rounds_missing", game_id))
    game = booted[1] if booted is not None and booted[0] == game_id else None
    if game is None:
        from .gamelog import replay

        game = replay(store.log(game_id))[0]
    # A history entry for the running game (store.py keeps its flag when the game is put away,
    # and shows it in the history and the export).
    e = ix.entry_for(game, game_id, 0, ix.DAMAGED) if game is not None else ix.Entry(game_id, ix.DAMAGED)
    idx.write({game_id: e}, store.next_game_id())
    mark.write(game_id, have - 1)
