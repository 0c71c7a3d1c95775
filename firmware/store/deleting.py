# Deleting games: by the user's choice, or exported ones to make room (imported only while it runs).
from . import index as ix
from .mend import remove_kept


def delete(store, game_ids):
    """Removes games in one go. Tombstones go into the index first, so a cut
    in the middle is finished at the next boot and never brings half a game
    back."""
    next_id = store.next_game_id()
    mark = store.mark
    if mark.game_id in game_ids and mark.seq >= 0:
        mark.write(mark.game_id, -1)  # gone by choice: nothing for the boot to miss (watermark.py)
    store.index.write(dict((i, ix.Entry(i, ix.DELETED)) for i in game_ids), next_id)
    for game_id in game_ids:
        if store.live is not None and store.live.game_id == game_id:
            store.live = None
        store.log(game_id).remove_all()
        remove_kept(store.disk, game_id)  # the user's choice: its set-aside bytes go too
    store.index.write(dict((i, None) for i in game_ids), next_id)


def prune_exported(store, free_blocks):
    """Deletes exported, finished games, oldest first, until `free_blocks`
    blocks are free (or none is left to delete). Returns how many went."""
    idx = store.index
    done = 0
    while True:
        space = store.space()
        short = free_blocks - space.free
        if short <= 0:
            return done
        batch = []
        for i in range(len(idx.ids)):
            flags = idx.flags[i]
            if flags & ix.EXPORTED and flags & ix.FINISHED and not flags & ix.DELETED:
                batch.append(idx.ids[i])
                # a journal frees its blocks (a tiny one lives in metadata)
                short -= (idx.sizes[i] + space.block_size - 1) // space.block_size
                if short <= 0:
                    break
        if not batch:
            return done
        store._space = None
        delete(store, batch)
        done += len(batch)
