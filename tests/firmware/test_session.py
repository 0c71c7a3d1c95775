# The running game's session: "durable, then visible", and never a "not saved" for a round on flash.
from clock import SimClock
from evening import boot
from session import NotLoaded, Session


def _session():
    dev, store, _ = boot(blocks=128)
    session = Session(store, SimClock(0))
    session.start(("Anna", "Ben", "Cleo"), "standard", 500)
    return dev, store, session


def test_a_saved_round_is_on_flash_and_in_the_game():
    _, store, session = _session()
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    assert session.game.totals()[0] == ("Anna", 89)
    assert store.load_game(session.game_id).totals()[0] == ("Anna", 89)


def test_out_of_memory_after_the_round_is_durable_shows_the_round_from_flash():
    # The heap runs out while the round is applied in memory, after the flash took it: the
    # round is saved, so the session must not fail; it reloads the game from the flash.
    _, store, session = _session()
    real = session.game

    def no_memory(record):
        raise MemoryError("memory allocation failed")

    real.apply = no_memory
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")  # no exception: it is saved
    assert session.game is not real
    assert session.game.totals()[0] == ("Anna", 89) and len(session.game.rounds) == 1
    assert store.load_game(session.game_id).totals()[0] == ("Anna", 89)


def test_a_refused_round_changes_nothing():
    _, store, session = _session()
    try:
        session.save_round({"Ben": 36, "Cleo": 53}, None)  # no winner in a standard game
    except ValueError:
        pass
    else:
        raise AssertionError("a round without a winner was taken")
    assert len(session.game.rounds) == 0 and len(store.load_game(session.game_id).rounds) == 0


def test_a_round_on_flash_that_will_not_fit_in_memory_again_says_so_and_loads_once_there_is_room():
    # The heap runs out while the round is applied and again while the game is replayed from
    # flash: the round is durable, so the session says NotLoaded (not a flash failure) and the
    # UI lets go of its screens before asking for the game once more.
    _, store, session = _session()

    def no_memory(*args):
        raise MemoryError("memory allocation failed")

    session.game.apply = no_memory
    load = store.load_game
    store.load_game = no_memory
    try:
        session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    except NotLoaded:
        pass
    else:
        raise AssertionError("no NotLoaded")
    assert session.game is None  # nothing half changed is kept
    store.load_game = load
    session.load_saved()
    assert session.game.totals()[0] == ("Anna", 89) and len(session.game.rounds) == 1


def _no_memory(*args):
    raise MemoryError("memory allocation failed")


def test_a_game_ended_where_the_heap_cannot_put_it_away_is_saved_and_put_away_at_the_next_boot():
    # Putting a game away (its compact copy in games/, its history entry) opens two files at
    # once; late in a long evening the heap may refuse them. The end is on flash already, so
    # the table sees the game over, not "not saved", and the next boot does the putting away.
    dev, store, session = _session()
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    session.save_round({"Anna": 20, "Cleo": 5}, "Ben")
    game_id = session.game_id
    store.live.write_closed = _no_memory
    session.finish()  # no exception
    assert session.game.finished
    assert store.summary(game_id).live  # still in live/, as after a flash that refused it
    _, store, notes = boot(image=dev.image, blocks=128)
    summary = store.summary(game_id)
    assert summary.finished and summary.rounds == 2 and not summary.live
    assert store.running_game() is None
    assert store.load_game(game_id).totals() == session.game.totals()


def test_a_new_game_starts_where_the_heap_cannot_replay_the_one_before_and_the_boot_puts_that_away():
    dev, store, session = _session()
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    first = session.game_id
    log = store.log

    def log_without_heap(game_id):  # replaying the game to be put away fails for want of heap
        found = log(game_id)
        found.records = _no_memory
        return found

    store.log = log_without_heap
    session.start(("Dana", "Emil"), "standard", 500)
    store.log = log
    session.save_round({"Emil": 9}, "Dana")
    assert first in store.journals().live  # left in live/
    _, store, notes = boot(image=dev.image, blocks=128)
    assert store.running_game() == session.game_id
    summary = store.summary(first)
    assert summary.rounds == 1 and not summary.finished and not summary.live
    assert store.load_game(first).totals()[0] == ("Anna", 89)
