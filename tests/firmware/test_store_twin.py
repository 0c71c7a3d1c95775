# Two copies of every game: damage in one is made good from the other, the boot
# reconciles index and journals both ways, and a game id is never used twice.
import pytest

from evening import boot
from store.errors import StoreError
from store.space import Space
from tafel import journal, records
from tafel.game import Game

PLAYERS = ("Anna", "Ben", "Cleo", "Dana")


def _game(store, rounds, finish=False, players=PLAYERS):
    game_id = store.next_game_id()
    game = Game(players, "standard", 100000, None, 7, game_id)
    store.new_game(game_id, game.create_record())
    for r in range(rounds):
        winner = players[r % len(players)]
        hands = {p: (0 if p == winner else 3 + (r * 7 + i) % 50) for i, p in enumerate(players)}
        rec = game.round_record(hands, winner)
        store.append(game_id, rec)
        game.apply(rec)
    if finish:
        rec = game.finish_record(9)
        store.append(game_id, rec)
        game.apply(rec)
        store.game_finished(game_id, game)
    return game_id, game


def _tree(disk):
    out = {}
    for folder in ("live", "games"):
        for fname, _ in disk.listdir(folder):
            out[folder + "/" + fname] = disk.read(folder + "/" + fname)
    return out


def _write(disk, path, data):
    f = disk.open(path, "wb")
    f.write(data)
    f.close()


def test_every_record_goes_to_both_copies_byte_for_byte():
    dev, store, _ = boot()
    done, _ = _game(store, 12, finish=True)
    running, game = _game(store, 90)
    assert _tree(store.disk) == _tree(store.twin)
    assert len([p for p in _tree(store.twin) if p.startswith("live/")]) >= 2
    assert "games/%06d.tj" % done in _tree(store.twin)
    dev, store, notes = boot(image=dev.image)
    assert notes == [] and store.load_game(running).totals() == game.totals()


def test_damage_in_one_copy_is_made_good_from_the_other_and_its_bytes_are_kept():
    dev, store, _ = boot()
    game_id, game = _game(store, 60)
    first = "live/" + store.disk.listdir("live")[0][0]
    bad = bytearray(store.disk.read(first))
    bad[100] ^= 0x10
    _write(store.disk, first, bad)
    dev, store, notes = boot(image=dev.image)
    assert notes == [("game_mended", game_id)]
    again = store.load_game(game_id)
    assert len(again.rounds) == 60 and again.totals() == game.totals()
    assert _tree(store.disk) == _tree(store.twin)
    assert store.disk.read("keep/" + first.replace("/", "-")) == bad
    dev, store, notes = boot(image=dev.image)
    assert notes == []


def test_a_closed_game_damaged_in_the_twin_is_mended_at_boot():
    dev, store, _ = boot()
    game_id, game = _game(store, 20, finish=True)
    path = "games/%06d.tj" % game_id
    data = store.twin.read(path)
    _write(store.twin, path, data[:journal.scan(data[:200])[1]])  # a copy cut short, at a frame's end
    dev, store, notes = boot(image=dev.image)
    assert notes == [("copy_mended", game_id)]
    assert store.twin.read(path) == store.disk.read(path)
    assert store.load_game(game_id).totals() == game.totals()


def test_a_live_folder_fallen_back_to_an_older_state_loses_no_round():
    # One damaged metadata block makes LittleFS use the folder's older state:
    # segments are missing or shorter in that copy.
    dev, store, _ = boot()
    game_id, game = _game(store, 130)
    segs = sorted(store.disk.listdir("live"))
    assert len(segs) >= 3
    for fname, _ in segs[-2:]:
        store.disk.remove("live/" + fname)
    dev, store, notes = boot(image=dev.image)
    assert notes == [("copy_mended", game_id)]
    assert len(store.load_game(game_id).rounds) == 130
    assert _tree(store.disk) == _tree(store.twin)


def test_an_index_fallen_back_costs_no_game_and_its_id_is_never_given_again():
    dev, store, _ = boot()
    first, _ = _game(store, 3, finish=True)
    old_index = store.disk.read("index")
    second, g2 = _game(store, 4, finish=True)
    third, g3 = _game(store, 5, finish=True)
    _write(store.disk, "index", old_index)  # valid, but knows only the first game
    dev, store, notes = boot(image=dev.image)
    assert notes == [("index_rebuilt", 2)]
    assert store.history() == [third, second, first]
    assert store.summary(third).rounds == 5 and store.summary(third).finished
    new, game = _game(store, 2)
    assert new == third + 1
    dev, store, notes = boot(image=dev.image)
    assert store.load_game(second).totals() == g2.totals()
    assert store.load_game(third).totals() == g3.totals()
    assert len(store.load_game(new).rounds) == 2


def test_ids_of_deleted_games_are_not_given_again_even_without_the_index():
    dev, store, _ = boot()
    ids = [_game(store, 1, finish=True)[0] for _ in range(3)]
    store.delete_games(ids)
    store.disk.remove("index")  # the index header's memory is gone: the twin's counter remains
    dev, store, notes = boot(image=dev.image)
    assert store.history() == [] and store.next_game_id() == ids[-1] + 1


def test_a_new_game_never_lands_on_an_id_that_has_files():
    dev, store, _ = boot()
    game_id, _ = _game(store, 3, finish=True)
    with pytest.raises(ValueError):
        store.new_game(game_id, Game(PLAYERS, "standard", 500, None, 1, game_id).create_record())


def test_records_are_never_appended_to_another_games_journal():
    dev, store, _ = boot()
    stranger = journal.frame(0, records.encode_create(["X", "Y"], 0, 500, game_id=7))
    store.disk.mkdir("live")
    _write(store.disk, "live/000009.000", stranger)  # says it is game 7
    _write(store.twin, "live/000009.000", stranger)
    with pytest.raises(StoreError) as err:
        store.append(9, records.encode_round(0, [0, 5]))
    assert err.value.key == "no_game"
    assert store.disk.read("live/000009.000") is None  # set aside, bytes kept
    assert store.disk.read("keep/live-000009.000") == stranger


def test_a_game_whose_journal_is_gone_from_both_copies_is_reported_once_and_stays_listed():
    dev, store, _ = boot()
    lost, _ = _game(store, 6, finish=True)
    kept, game = _game(store, 4, finish=True)
    for disk in store.disks:
        disk.remove("games/%06d.tj" % lost)
    dev, store, notes = boot(image=dev.image)
    assert notes == [("game_lost", lost)]
    assert store.history() == [kept, lost]
    e = store.summary(lost)
    assert e.lost and e.damaged and e.rounds == 6
    dev, store, notes = boot(image=dev.image)
    assert notes == [] and store.load_game(kept).totals() == game.totals()


def test_a_game_found_only_in_keep_is_reported_and_its_id_stays_taken():
    dev, store, _ = boot()
    store.disk.mkdir("keep")
    rec = records.encode_create(["A", "B"], 0, 500, game_id=42)
    _write(store.disk, "keep/live-000042.003", journal.frame(0, rec))
    dev, store, notes = boot(image=dev.image)
    assert ("game_set_aside", 42) in notes
    assert store.next_game_id() == 43
    assert 42 in store.unreadable  # listed (the history shows it), exported by the link
    store.delete_game(42)  # the user's choice: its bytes go too
    dev, store, notes = boot(image=dev.image)
    assert notes == [] and store.disk.listdir("keep") == [] and store.next_game_id() == 43


def test_the_reserve_covers_a_long_game_in_both_copies():
    # A 10-seat game of 300 rounds in both copies, closed copies included, fits RUNNING.
    dev, store, _ = boot()
    before = store.space().free
    seats = tuple("S%d" % i for i in range(10))
    game_id, game = _game(store, 300, finish=True, players=seats)
    store.forget_space()
    used = before - store.space().free
    assert 0 < used <= Space(0, 0, 4096).reserve, used
