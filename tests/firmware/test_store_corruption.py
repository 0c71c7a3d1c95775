# Damaged bytes: every record before the damage is kept, the damage reported,
# and the damaged bytes themselves are never thrown away.
import pytest

from evening import boot
from store.errors import StoreError
from store.gamelog import GameLog
from store.keyval import SETTINGS
from tafel import journal
from tafel.game import Game

PLAYERS = ("Anna", "Ben", "Cleo", "Dana")


def _game(store, rounds, target=100000, finish=False):
    game_id = store.next_game_id()
    game = Game(PLAYERS, "standard", target, None, 7, game_id)
    store.new_game(game_id, game.create_record())
    for r in range(rounds):
        winner = PLAYERS[r % 4]
        hands = {p: (0 if p == winner else 3 + (r * 5 + i) % 60) for i, p in enumerate(PLAYERS)}
        rec = game.round_record(hands, winner)
        store.append(game_id, rec)
        game.apply(rec)
    if finish:
        rec = game.finish_record(9)
        store.append(game_id, rec)
        game.apply(rec)
        store.game_finished(game_id, game)
    return game_id, game


def _frame_ends(data):
    ends, pos = [], 0
    while pos < len(data):
        pos = journal.read_frame(data, pos)[2]
        ends.append(pos)
    return ends


def _rewrite(store, path, data, copies=("disk", "twin")):
    # Both copies by default: damage the twin cannot make good (test_store_twin.py has the rest).
    for name in copies:
        f = getattr(store, name).open(path, "wb")
        f.write(data)
        f.close()


def _flip(data, pos):
    out = bytearray(data)
    out[pos] ^= 0x20
    return bytes(out)


def test_a_flipped_byte_anywhere_in_a_stored_game_keeps_what_came_before():
    dev, store, _ = boot()
    game_id, game = _game(store, 25, finish=True)
    path = "games/%06d.tj" % game_id
    good = store.disk.read(path)
    ends = _frame_ends(good)
    assert len(ends) == 27  # create, 25 rounds, finish
    for pos in range(0, len(good), 3):
        _rewrite(store, path, _flip(good, pos))
        intact = sum(1 for end in ends if end <= pos)  # frames wholly before the flip
        if intact == 0:  # the create record itself
            with pytest.raises(StoreError) as err:
                store.read_game(game_id)
            assert err.value.key == "game_unreadable" and err.value.detail[0] == game_id
            continue
        loaded, problems = store.read_game(game_id)
        assert len(loaded.rounds) == intact - 1, pos
        assert problems and problems[0][0] == path and ("byte %d" % ends[intact - 1]) in problems[0][1]
    _rewrite(store, path, good)
    assert store.read_game(game_id)[1] == []


def test_damage_in_the_running_game_is_set_aside_and_play_goes_on():
    dev, store, _ = boot()
    game_id, game = _game(store, 80)
    segs = sorted(store.disk.listdir("live"))
    assert len(segs) >= 2
    first = "live/" + segs[0][0]
    good = store.disk.read(first)
    ends = _frame_ends(good)
    bad = _flip(good, ends[5] + 8)  # inside the 7th record of the first segment
    _rewrite(store, first, bad)
    dev, store, notes = boot(image=dev.image)
    assert notes[0][0] == "game_damaged" and notes[0][1][0] == game_id
    again = store.load_game(game_id)
    assert len(again.rounds) == 5  # create + 5 rounds survived
    # every damaged byte is still on flash, in keep/
    kept = store.disk.listdir("keep")
    assert ("live-" + segs[0][0], len(bad)) in kept and ("twin-live-" + segs[0][0], len(bad)) in kept
    assert store.disk.read("keep/live-" + segs[0][0]) == bad
    for name, _ in segs[1:]:
        assert store.disk.read("keep/live-" + name) is not None
    # play on from the good records: it is saved and the next boot is clean
    rec = again.round_record({"Anna": 0, "Ben": 1, "Cleo": 2, "Dana": 3}, "Anna")
    store.append(game_id, rec)
    again.apply(rec)
    dev, store, notes = boot(image=dev.image)
    assert notes == [] and len(store.load_game(game_id).rounds) == 6


def test_a_torn_last_record_is_cut_off_quietly():
    dev, store, _ = boot()
    game_id, game = _game(store, 3)
    seg = "live/" + store.disk.listdir("live")[-1][0]
    data = store.disk.read(seg)
    extra = journal.frame(5, game.round_record({"Anna": 0, "Ben": 1, "Cleo": 2, "Dana": 3}, "Anna"))
    _rewrite(store, seg, data + extra[:len(extra) - 3])
    dev, store, notes = boot(image=dev.image)
    assert notes == [("torn_tail_repaired", game_id)]
    assert store.disk.read(seg) == data and store.disk.listdir("keep") == []
    assert len(store.load_game(game_id).rounds) == 3


def test_a_game_whose_start_is_destroyed_is_reported_and_left_alone():
    dev, store, _ = boot()
    lost, _ = _game(store, 5, finish=True)
    fine, game = _game(store, 5, finish=True)
    path = "games/%06d.tj" % lost
    bad = _flip(store.disk.read(path), 3)
    _rewrite(store, path, bad)
    dev, store, notes = boot(image=dev.image)
    # closed games are not replayed at boot (that is what the index is for),
    # but the history shows it, and opening it says what is wrong
    assert lost in store.history()
    with pytest.raises(StoreError) as err:
        store.read_game(lost)
    assert err.value.key == "game_unreadable"
    assert store.disk.read(path) == bad
    assert store.load_game(fine).totals() == game.totals()
    # without an index the boot must rebuild, and then it reports the game
    store.disk.remove("index")
    dev, store, notes = boot(image=dev.image)
    assert ("game_unreadable", (lost, "no records")) in notes
    assert store.summary(lost).damaged and store.summary(fine).rounds == 5
    assert store.disk.read(path) == bad


def test_a_damaged_index_is_rebuilt_from_the_journals():
    dev, store, _ = boot()
    ids = [_game(store, 3 + n, finish=True)[0] for n in range(5)]
    store.mark_exported(ids[:1])
    data = store.disk.read("index")
    _rewrite(store, "index", _flip(data, len(data) - 20))  # inside the last entry
    dev, store, notes = boot(image=dev.image)
    assert notes[0][0] == "index_damaged" and ("index_rebuilt", 1) in notes
    assert store.history() == sorted(ids, reverse=True)
    assert [store.summary(i).rounds for i in ids] == [3, 4, 5, 6, 7]
    assert store.summary(ids[0]).exported  # entries before the damage keep their flags
    dev, store, notes = boot(image=dev.image)
    assert notes == []


def test_damaged_settings_fall_back_to_defaults_and_keep_their_bytes():
    dev, store, _ = boot()
    store.save_settings({"lang": "en"})
    bad = _flip(store.disk.read(SETTINGS), 12)
    _rewrite(store, SETTINGS, bad)
    dev, store, notes = boot(image=dev.image)
    assert notes == [("settings_damaged", None)] and store.settings == {}
    assert store.disk.read("keep/" + SETTINGS) == bad


def test_bit_rot_on_the_raw_flash_is_caught_by_the_record_crc():
    # LittleFS checks its metadata but not file contents: a bit that flips in
    # a data block reaches us, and the frame CRC must catch it.
    dev, store, _ = boot()
    game_id, game = _game(store, 30, finish=True)
    data = store.disk.read("games/%06d.tj" % game_id)
    needle = data[400:416]
    # (older copies may linger in freed blocks: flip them all)
    hits = [b for b in range(dev.blocks) if dev.image[b] is not None and needle in dev.image[b]]
    assert hits
    for b in hits:
        block = dev.image[b]
        block[block.find(needle) + 4] ^= 0x01
    dev, store, notes = boot(image=dev.image)
    loaded, problems = store.read_game(game_id)
    assert problems and len(loaded.rounds) < 30
    assert GameLog(store.disk, game_id).scan() == len(loaded.rounds) + 1


def test_every_boot_rebuilds_an_entry_whose_journal_changed_behind_its_back():
    # The boot lists games/ of both copies and compares with the index every
    # time (bench/storage_wear.py says what that costs with 500 games). A journal
    # shorter than when it was put away lost rounds: that is told, once, and the
    # rebuilt entry says damaged for good.
    dev, store, _ = boot()
    game_id, game = _game(store, 4, finish=True)
    path = "games/%06d.tj" % game_id
    data = store.disk.read(path)
    ends = _frame_ends(data)
    _rewrite(store, path, data[:ends[2]])  # behind the index's back, both copies: 2 rounds left
    dev, store, notes = boot(image=dev.image)
    assert notes == [("rounds_missing", game_id), ("index_rebuilt", 1)]
    e = store.summary(game_id)
    assert e.rounds == 2 and not e.finished and e.damaged
    dev, store, notes = boot(image=dev.image)
    assert notes == [] and store.summary(game_id).damaged
