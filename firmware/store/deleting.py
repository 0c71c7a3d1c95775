# Deleting games, only ever by the user's choice (imported only while it runs).
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
