# The one exception the storage code raises to the UI.
#
# `key` is a short stable text the UI translates (German/English), `detail`
# optional values for the message (a game id, kilobytes free, ...).
# Keys used:
#   flash_full      a new game (or a settings/roster change) is refused: too
#                   little room left; detail = kilobytes free
#   save_failed     the flash refused a write; nothing was saved;
#                   detail = OS error number (28 = no space left)
#   fs_unreadable   the flash holds data but no readable file system; it was
#                   left untouched (never formatted)
#   no_game         there is no stored game with that id; detail = id
#   game_full       a game has ~1 MB of records (40,000 rounds): no more; detail = id
#   game_unreadable not even the first record of the game can be read; its
#                   bytes are left as they are; detail = (id, text)


class StoreError(Exception):
    def __init__(self, key, detail=None):
        super().__init__(key, detail)
        self.key = key
        self.detail = detail
