# A full flash: warned early, new games refused, the running game never the victim.
# slow: flash filled to the edge, several times
import pytest

from evening import boot
from store.errors import StoreError
from tafel.game import Game

BLOCKS = 256  # a small chip fills quickly; the policy is the same
TEN = tuple("Seat %d" % i for i in range(10))


def _start(store, players, target, when=0):
    game_id = store.next_game_id()
    game = Game(players, "standard", target, None, when, game_id)
    store.new_game(game_id, game.create_record())
    return game_id, game


def _round(store, game_id, game, r):
    winner = game.players[r % len(game.players)]
    hands = {p: (0 if p == winner else 100 + (r * 31 + i * 17) % 150) for i, p in enumerate(game.players)}
    rec = game.round_record(hands, winner)
    store.append(game_id, rec)
    game.apply(rec)
    if game.finished:
        store.game_finished(game_id, game)


def _fill(store):
    """Stores finished games (each big enough to take a flash block) until a
    new one is refused; returns (their ids and totals, the space levels seen
    on the way, the refusal)."""
    kept = {}
    levels = []
    for n in range(1000):
        levels.append(store.space_note())
        try:
            game_id, game = _start(store, TEN, 2000, n)
        except StoreError as err:
            return kept, levels, err
        hands = {p: 20 for p in TEN}
        hands[TEN[0]] = 0
        while not game.finished:
            rec = game.round_record(hands, TEN[0])
            store.append(game_id, rec)
            game.apply(rec)
        store.game_finished(game_id, game)
        kept[game_id] = game.totals()
    raise AssertionError("the flash never filled up")


def test_warned_first_then_new_games_refused_but_the_running_game_plays_to_the_end():
    dev, store, _ = boot(blocks=BLOCKS)
    # the game of the evening starts while there is room ...
    running, game = _start(store, TEN, 10 ** 6)
    _round(store, running, game, 0)
    # ... then the history fills the flash (each new game puts the one
    # before it away, so this is as if the evening's game had been paused)
    kept, levels, refusal = _fill(store)
    assert refusal.key == "flash_full" and refusal.detail == store.space().free_kb
    assert "flash_low" in levels and levels.index("flash_low") < len(levels) - 1
    assert levels[0] is None and store.space_note() == "flash_full"
    # the refused game left nothing behind
    assert store.next_game_id() == max(kept) + 1
    # the running game (it was put away by the first new game; continue it)
    game = store.load_game(running)
    for r in range(1, 300):
        _round(store, running, game, r)
    rec = game.finish_record(99)
    store.append(running, rec)
    game.apply(rec)
    store.game_finished(running, game)
    assert store.summary(running).finished and store.summary(running).rounds == 300
    # after a reboot everything is still there, and the screen is told
    dev, store, notes = boot(image=dev.image, blocks=BLOCKS)
    assert ("flash_full", store.space().free_kb) in notes
    for game_id, totals in kept.items():
        assert store.load_game(game_id).totals() == totals
    assert len(store.load_game(running).rounds) == 300
    # settings and roster may still change: they are tiny
    store.save_roster(["Anna", "Ben"])
    # freeing space: the table deletes games (the history's menu), and a new game is allowed again
    store.delete_games(list(kept))
    assert store.space_note() != "flash_full"
    _start(store, ("Anna", "Ben"), 500)


def test_when_something_else_ate_the_flash_a_save_fails_cleanly():
    # The policy keeps room, but if the file system is full anyway (a bug, a
    # stranger's file) a save must fail loudly and change nothing.
    dev, store, _ = boot(blocks=BLOCKS)
    game_id, game = _start(store, TEN, 10 ** 6)
    for r in range(5):
        _round(store, game_id, game, r)
    vol = store.disk.vol
    f = vol.open("/filler", "wb")
    chunk = b"\x00" * 4096
    with pytest.raises(OSError):
        while True:
            f.write(chunk)
            f.flush()
    f.close()
    totals = game.totals()
    failed = 0
    for r in range(5, 60):
        try:
            _round(store, game_id, game, r)
        except StoreError as err:
            assert err.key == "save_failed" and err.detail == 28  # ENOSPC
            failed += 1
            break
    assert failed == 1
    assert len(game.rounds) >= 5 and game.totals() != [] and totals
    saved = len(game.rounds)
    with pytest.raises(StoreError) as err:
        store.save_settings({"lang": "en"})
    assert err.value.key in ("flash_full", "save_failed")
    with pytest.raises(StoreError) as err:
        _start(store, ("A", "B"), 500)
    assert err.value.key == "flash_full"
    # whatever was acknowledged is on flash; free the space and play on
    dev, store, notes = boot(image=dev.image, blocks=BLOCKS)
    again = store.load_game(game_id)
    assert len(again.rounds) == saved and again.totals() == game.totals()
    store.disk.vol.remove("/filler")
    _round(store, game_id, again, saved)
    dev, store, _ = boot(image=dev.image, blocks=BLOCKS)
    assert len(store.load_game(game_id).rounds) == saved + 1
