# The running game: every change is saved to flash first, then applied and shown.
import gc

import reserve
from tafel import Game

OVER = "over"  # settings key: the id of a game whose end is on screen and not yet seen


class NotLoaded(Exception):
    """The change is on flash, but the game did not fit in memory again: the heap ran out while
    the change was applied and once more while the game was replayed from flash (the screens
    still held the old game). The UI says the change is saved, lets go of its screens and tries
    once more (ui/app.py reload_saved())."""


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
        reserve.keep()

    def resume(self):
        """Load the unfinished game from flash, if there is one; else a game whose
        end the table has not yet seen (the power went while it showed)."""
        self.game_id = self.store.running_game()
        if self.game_id is None:
            over = self.store.settings.get(OVER)
            if type(over) is int:
                try:
                    self.game = self.store.load_game(over)
                except Exception:  # gone or unreadable: the history says so, not the boot
                    self.game = None
                if self.game is not None and self.game.finished:
                    self.game_id = over
                    return self.game
                self._seen_over()
        self.game = self.store.load_game(self.game_id) if self.game_id is not None else None
        return self.game

    def reload(self):
        """After a screen crash or a heap that ran out: throw away memory, trust only what is on
        flash. The old game is let go first and the heap collected, so the replay has the room
        of whatever nothing else holds; a replay the heap refuses is tried once more after
        another collection. When it fails there is no game in memory (the flash keeps it)."""
        if self.game_id is None:
            return
        self.game = None
        with reserve.room:  # the files the replay opens: it comes after the heap ran out
            for attempt in (0, 1):
                gc.collect()
                try:
                    self.game = self.store.load_game(self.game_id)
                    return
                except MemoryError:
                    if attempt:
                        raise

    def unload(self):
        """Let go of the game in memory (it is on flash: reload() brings it back); the running
        game's id stays (App.make_room, while an update's checks need the heap)."""
        self.game = None

    def load_saved(self):
        """After NotLoaded, once the screens let go of the old game: the game from flash (MemoryError
        if it still does not fit), and what its change asks of the store when it ended the game."""
        self.reload()
        self._settled()

    def start(self, players, variant, target, values=None, dealer=0):
        """A new game (values: house card values by rank word; dealer: the seat index that
        deals round 1), durable on flash before it becomes the running game."""
        game_id = self.store.next_game_id()
        game = Game(players, variant, target, values, self.clock.time(), game_id, dealer)
        self.store.new_game(game_id, game.create_record())
        self.game, self.game_id = game, game_id
        if self.store.settings.get(OVER) is not None:  # from game over straight into a new game
            self._seen_over()
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
        """The table has seen the game's end (or leaves the game): nothing to come back to."""
        if self.store.settings.get(OVER) is not None:
            self._seen_over()
        self.game = None
        self.game_id = None

    def _seen_over(self):
        settings = dict(self.store.settings)
        settings.pop(OVER, None)
        self._settings(settings)

    def _settings(self, settings):
        # A marker for the screens, never worth a refusal: a full flash keeps the old one.
        try:
            self.store.save_settings(settings)
        except Exception:
            pass

    def _save(self, record):
        # Late in a long evening the heap's free space lies in runs mostly shorter than the few
        # hundred bytes a save needs in one piece (the files it opens, the game's next chunk of
        # rounds): the reserve is let go for them, and kept again after (reserve.py). The game's
        # next chunk of rounds is made before that, so that it does not take the reserve's run
        # and leave the reserve to find another one; only when the heap has no room for it
        # otherwise does it take part of the reserve.
        try:
            self.game.make_room()
        except MemoryError:
            reserve.let_go()
            self.game.make_room()
        with reserve.room:
            self.store.append(self.game_id, record)  # durable from here: nothing below may say "not saved"
            try:
                self.game.apply(record)
            except MemoryError:  # the game in memory may be half changed; the flash has the whole truth
                try:
                    self.reload()
                except MemoryError:
                    raise NotLoaded() from None
            self._settled()

    def _settled(self):
        # A change is on flash and in the game: a game it ended is put away.
        if self.game.finished:
            self.store.game_finished(self.game_id, self.game)
            settings = dict(self.store.settings)
            settings[OVER] = self.game_id  # game over is shown again after a power cut until seen
            self._settings(settings)
