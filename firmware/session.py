# The running game: every change is saved to flash first, then applied and shown.
from tafel import Game


class Session:
    """Owns the game being played and the order "durable, then visible".

    Each method builds the core's record (which validates and raises ScoreError
    without changing anything), hands it to the store (which returns only when
    the record is durable), and only then applies it to the game in memory.
    """

    def __init__(self, store, clock):
        self.store = store
        self.clock = clock
        self.game = None
        self.game_id = None

    def resume(self):
        """Load the unfinished game from flash, if there is one."""
        self.game_id = self.store.running_game()
        self.game = self.store.load_game(self.game_id) if self.game_id is not None else None
        return self.game

    def reload(self):
        # After a screen crash: throw away memory, trust only what is on flash.
        if self.game_id is not None:
            self.game = self.store.load_game(self.game_id)

    def start(self, players, variant, target, values=None):
        game_id = self.store.next_game_id()
        game = Game(players, variant, target, values, self.clock.time(), game_id)
        self.store.new_game(game_id, game.create_record())
        self.game, self.game_id = game, game_id
        return game

    def open(self, game_id):
        """Continue a stored, unfinished game (from the history)."""
        self.game = self.store.load_game(game_id)
        self.game_id = game_id

    def save_round(self, hands, winner):
        self._save(self.game.round_record(hands, winner))

    def edit_round(self, index, hands, winner):
        self._save(self.game.edit_record(index, hands, winner))

    def undo_round(self):
        self._save(self.game.undo_record())

    def finish(self):
        self._save(self.game.finish_record(self.clock.time()))

    def close(self):
        self.game = None
        self.game_id = None

    def _save(self, record):
        self.store.append(self.game_id, record)  # durable from here: nothing below may say "not saved"
        try:
            self.game.apply(record)
        except MemoryError:  # the game in memory is half changed; the flash has the whole truth
            self.game = None
            self.reload()
        if self.game.finished:
            self.store.game_finished(self.game_id, self.game)
