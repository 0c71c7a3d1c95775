# The store's everyday behaviour: games, history, put-away, ids, settings, roster.
import pytest

from evening import boot
from sim.flashdev import FlashDev
from store.errors import StoreError
from store.fsys import Disk
from store.gamelog import SEGMENT_MAX
from store.mount import is_blank, mount
from store.store import Store
from tafel import journal, records, wire
from tafel.game import Game

TEN = tuple("Player %d" % i for i in range(10))


def _hands(players, r):
    winner = players[r % len(players)]
    return {p: (0 if p == winner else 5 + (r * 13 + i * 7) % 90) for i, p in enumerate(players)}, winner


def _start(store, players=("Anna", "Ben", "Cleo"), target=5000, when=100):
    game_id = store.next_game_id()
    game = Game(players, "standard", target, None, when, game_id)
    store.new_game(game_id, game.create_record())
    return game_id, game


def _play(store, game_id, game, rounds, start=0):
    for r in range(start, start + rounds):
        if game.finished:
            return
        rec = game.round_record(*_hands(game.players, r))
        store.append(game_id, rec)
        game.apply(rec)
        if game.finished:
            store.game_finished(game_id, game)


def _reboot(dev):
    return boot(image=dev.image, blocks=dev.blocks)[1:]


def test_a_blank_chip_is_formatted_and_one_with_games_never():
    dev = FlashDev(blocks=16)
    assert is_blank(dev)
    vol, formatted = mount(dev)
    assert formatted
    vol, formatted = mount(dev)
    assert not formatted
    junk = FlashDev(blocks=16)
    junk.writeblocks(7, b"old games" + journal.frame(0, records.encode_create(["A", "B"], 0, 500, game_id=3)), 100)
    with pytest.raises(StoreError) as err:
        mount(junk)
    assert err.value.key == "fs_unreadable" and err.value.detail == ("unmountable", 1)
    assert bytes(junk.image[7][100:109]) == b"old games" and junk.used_blocks() == 1
    # without any game in it (a first format cut short, a foreign flash) it is formatted again
    junk.writeblocks(7, b"\0" * 40, 100)
    vol, formatted = mount(junk)
    assert formatted


def test_a_game_survives_a_reboot_round_by_round():
    dev, store, notes = boot()
    assert notes == [] and store.running_game() is None and store.history() == []
    game_id, game = _start(store)
    assert store.running_game() == game_id and game_id == 1
    _play(store, game_id, game, 7)
    store, notes = _reboot(dev)
    assert notes == []
    assert store.running_game() == game_id
    again = store.load_game(game_id)
    assert again.totals() == game.totals() and len(again.rounds) == 7
    e = store.summary(game_id)
    assert e.live and e.rounds == 7 and not e.finished and e.created == 100
    assert e.players == ("Anna", "Ben", "Cleo") and e.variant == "standard" and e.target == 5000


def test_a_finished_game_is_put_away_with_its_history_entry():
    dev, store, _ = boot()
    game_id, game = _start(store, target=300)
    _play(store, game_id, game, 40)
    assert game.finished
    assert store.running_game() is None
    assert store.disk.listdir("live") == []
    assert [n for n, _ in store.disk.listdir("games")] == ["%06d.tj" % game_id]
    store, _ = _reboot(dev)
    e = store.summary(game_id)
    assert e.finished and e.winners() == game.winners() and e.rounds == len(game.rounds)
    assert not e.exported and not e.live and not e.damaged
    assert store.load_game(game_id).totals() == game.totals()


def test_a_game_ended_early_is_marked_so_in_its_history_entry():
    # Nobody reached the target: the entry's winners are who led, and its flags say it ended early,
    # so the laptop (LIST) does not call them winners.
    dev, store, _ = boot()
    game_id, game = _start(store, target=5000)
    _play(store, game_id, game, 3)
    rec = game.finish_record(200)
    store.append(game_id, rec)
    game.apply(rec)
    store.game_finished(game_id, game)
    assert game.ended_early and game.winners()
    store, _ = _reboot(dev)
    e = store.summary(game_id)
    assert e.finished and e.flags & wire.ENDED_EARLY and e.winners() == game.winners()
    other, played = _start(store, target=300)
    _play(store, other, played, 40)
    assert not store.summary(other).flags & wire.ENDED_EARLY


def test_journal_segments_stay_small():
    dev, store, _ = boot()
    game_id, game = _start(store, TEN, target=100000)
    _play(store, game_id, game, 120)
    segs = store.disk.listdir("live")
    assert len(segs) > 2
    assert all(size <= SEGMENT_MAX for _, size in segs)
    assert store.load_game(game_id).totals() == game.totals()


def test_a_round_programs_at_most_2_kb():
    dev, store, _ = boot()
    game_id, game = _start(store, TEN, target=100000)
    worst = 0
    for r in range(120):
        rec = game.round_record(*_hands(game.players, r))
        before = dev.programmed
        store.append(game_id, rec)
        game.apply(rec)
        worst = max(worst, dev.programmed - before)
    assert worst <= 2048, worst


def test_a_new_game_puts_the_running_one_away_and_it_can_be_continued():
    dev, store, _ = boot()
    a, game_a = _start(store)
    _play(store, a, game_a, 3)
    b, game_b = _start(store, ("Dana", "Emil"))
    assert store.running_game() == b
    e = store.summary(a)
    assert e.rounds == 3 and not e.finished and not e.live
    # back to the first game: more rounds go on its journal
    game_a = store.load_game(a)
    _play(store, a, game_a, 2, start=3)
    assert store.running_game() == a
    assert store.summary(b).rounds == 0
    store, _ = _reboot(dev)
    assert store.running_game() == a
    assert len(store.load_game(a).rounds) == 5
    assert store.history() == [b, a]


def test_edit_and_undo_are_journalled_too():
    dev, store, _ = boot()
    game_id, game = _start(store)
    _play(store, game_id, game, 4)
    for rec in (game.edit_record(1, *_hands(game.players, 50)), game.undo_record()):
        store.append(game_id, rec)
        game.apply(rec)
    store, _ = _reboot(dev)
    again = store.load_game(game_id)
    assert len(again.rounds) == 3 and again.totals() == game.totals()


def test_ids_are_never_reused():
    dev, store, _ = boot()
    a, _ = _start(store)
    b, _ = _start(store)
    store.delete_game(b)
    store, _ = _reboot(dev)
    assert store.history() == [a]
    assert store.next_game_id() == b + 1


def test_deleting_removes_every_file_and_the_entry():
    dev, store, _ = boot()
    a, game = _start(store, target=200)
    _play(store, a, game, 30)
    b, game_b = _start(store)
    _play(store, b, game_b, 2)
    store.delete_game(a)
    store.delete_game(b)
    assert store.history() == [] and store.running_game() is None
    assert store.disk.listdir("games") == [] and store.disk.listdir("live") == []
    with pytest.raises(StoreError) as err:
        store.summary(a)
    assert err.value.key == "no_game"
    store, _ = _reboot(dev)
    assert store.history() == []


def test_the_exported_flag_is_kept_for_put_away_games_and_never_deletes_one():
    dev, store, _ = boot()
    ids = []
    for n in range(4):
        game_id, game = _start(store, target=150, when=n)
        _play(store, game_id, game, 30)
        ids.append(game_id)
    live, game = _start(store)
    store.mark_exported(ids[:2] + [live])
    assert [store.summary(i).exported for i in ids] == [True, True, False, False]
    assert not store.summary(live).exported
    store, _ = _reboot(dev)
    assert [store.summary(i).exported for i in ids] == [True, True, False, False]
    assert store.history() == [live] + ids[::-1]  # games are deleted only by the table's choice


def test_marking_exported_changes_only_the_flag_and_writes_nothing_twice():
    dev, store, _ = boot()
    ids = []
    for n in range(5):
        game_id, game = _start(store, players=("Anna", "Ben", "Cleo %d" % n), when=n)
        _play(store, game_id, game, n + 2)
        ids.append(game_id)
    _start(store)  # puts the fifth away
    store.delete_game(ids[4])  # a deleted game is not brought back by marking it
    idx = store.index
    before = dict((e.id, e) for e in idx.entries(ids[:4]))
    stamps, changes = [idx.stamps[idx.find(i)] for i in ids[:4]], idx.changes
    store.mark_exported(ids)
    after = dict((e.id, e) for e in idx.entries(ids[:4]))
    for i in ids[:4]:
        a, b = before[i], after[i]
        assert b.flags == a.flags | 2  # ix.EXPORTED, nothing else
        assert (b.size, b.created, b.rounds, b.winner_mask, b.target, b.variant, b.players, b.changed) == \
            (a.size, a.created, a.rounds, a.winner_mask, a.target, a.variant, a.players, a.changed)
    assert [idx.stamps[idx.find(i)] for i in ids[:4]] == stamps and idx.changes == changes
    assert idx.find(ids[4]) < 0 and ids[4] not in store.history()
    with store.disk.open("index", "rb") as f:
        image = f.read()
    assert idx.add_flag(ids, 2, store.next_game_id()) == 0  # all marked already: no write
    with store.disk.open("index", "rb") as f:
        assert f.read() == image
    store, _ = _reboot(dev)
    assert [store.summary(i).exported for i in ids[:4]] == [True] * 4
    assert [store.summary(i).players[2] for i in ids[:4]] == ["Cleo %d" % n for n in range(4)]


def test_marking_some_games_in_the_middle_leaves_the_others_as_they_were():
    dev, store, _ = boot()
    ids = []
    for n in range(5):
        game_id, game = _start(store, players=("Anna", "Ben %d" % n), when=n)
        _play(store, game_id, game, 2)
        ids.append(game_id)
    _start(store)  # puts the fifth away
    idx = store.index
    before = dict((e.id, e) for e in idx.entries(ids))
    # the second and the fourth, one of them twice, and one the index does not have
    assert idx.add_flag([ids[3], ids[1], ids[3], 999], 2, store.next_game_id()) == 2
    for reboot in (False, True):
        if reboot:
            store, _ = _reboot(dev)
            idx = store.index
        after = dict((e.id, e) for e in idx.entries(ids))
        assert [after[i].flags & 2 for i in ids] == [0, 2, 0, 2, 0]
        assert [after[i].players for i in ids] == [before[i].players for i in ids]
        assert [idx.ids[k] for k in range(len(idx.ids))] == sorted(ids)  # the running game is not in it


def test_settings_and_roster_round_trip():
    dev, store, _ = boot()
    assert store.settings == {} and store.roster == []
    store.save_settings({"lang": "en", "sleep": 30})
    store.save_roster(["Anna", " Ben ", "", "anna", "Gül", "Hanna & Ömer"])
    assert store.roster == ["Anna", "Ben", "Gül", "Hanna & Ömer"]
    store, notes = _reboot(dev)
    assert notes == []
    assert store.settings == {"lang": "en", "sleep": 30}
    assert store.roster == ["Anna", "Ben", "Gül", "Hanna & Ömer"]


def test_the_roster_keeps_only_names_a_game_takes_and_says_why_not():
    from store import keyval

    assert keyval.roster_problem(["Anna", " ", "Ben"]) is None  # blanks are dropped, no problem
    assert keyval.roster_problem(["Anna", "Cleo\x1b[2J"])[0] == "name_bad"
    code, text = keyval.roster_problem(["Anna", "Ben", "X" * 30])
    assert code == "name_long" and text.startswith("name 3:") and "20" in text
    code, text = keyval.roster_problem(["P%d" % i for i in range(70)])
    assert code == "roster_long" and "64" in text
    assert keyval.roster_problem(["P%d" % i for i in range(64)] + ["p0", "P1"]) is None  # 64 once cleaned
    # What the store keeps: a name that is not printable or too long is dropped, never cut or kept raw.
    assert keyval.clean_roster(["Anna", "Ben\x00", "X" * 21, "Cleo"]) == ["Anna", "Cleo"]
    assert len(keyval.clean_roster(["P%d" % i for i in range(70)])) == keyval.MAX_ROSTER
    # A letter the device has no glyph for is kept in its plain form, as tafel roster push sends it;
    # a character with no plain form refuses the roster with its place.
    assert keyval.clean_roster(["Zoë", "Łukasz", "Şükrü", "Zoe", "Özlem"]) == ["Zoe", "Lukasz", "Sükrü", "Özlem"]
    assert keyval.roster_problem(["Anna", "Zoë"]) is None
    assert keyval.roster_problem(["Anna", "Ben 🙂"]) == ("name_bad", "name 2: no letter to show at position 5")


def test_a_data_folder_beside_other_files():
    # On the device the app's own files share the file system with /data and /twin.
    dev = FlashDev(blocks=128)
    vol, _ = mount(dev)
    f = vol.open("/main.py", "w")
    f.write("print('hi')\n")
    f.close()
    store = Store(Disk(vol, "/data"))
    store.boot()
    _start(store)
    assert vol.open("/main.py", "r").read() == "print('hi')\n"
    assert sorted(n for n, _, _, _ in vol.ilistdir("/")) == ["data", "main.py", "twin"]


def test_storage_code_reads_no_clock_and_prints_nothing():
    import os

    folder = __file__.rsplit("/", 3)[0] + "/firmware/store"
    for name in os.listdir(folder):
        if name.endswith(".py"):
            with open(folder + "/" + name) as f:
                text = f.read()
            for bad in ("print(", "import time", "utime", "ticks_"):
                assert bad not in text, (name, bad)


def test_index_changes_in_the_middle_and_at_the_end_survive_reboots():
    dev, store, _ = boot()
    ids = []
    for n in range(8):
        game_id, game = _start(store, when=n)
        _play(store, game_id, game, n + 1)
        ids.append(game_id)
    _start(store)  # puts the eighth away
    store.mark_exported([ids[2], ids[5]])
    store.delete_game(ids[3])
    game = store.load_game(ids[1])
    _play(store, ids[1], game, 3, start=10)  # continue an old one ...
    _start(store)  # ... and put it away again: its entry changes in the middle
    store, _ = _reboot(dev)
    want = [i for i in ids if i != ids[3]]
    assert [i for i in store.history() if i in ids] == sorted(want, reverse=True)
    rounds = [store.summary(i).rounds for i in want]
    assert rounds == [1, 5, 3, 5, 6, 7, 8]
    assert [store.summary(i).exported for i in want] == [False, False, True, False, True, False, False]
    assert [e.id for e in store.index.entries(want)] == want
    page = store.history()[:4]
    assert [e.id for e in store.summaries(page)] == page and store.summaries(page)[0].live


def test_a_taken_game_id_is_refused():
    dev, store, _ = boot()
    game_id, game = _start(store)
    with pytest.raises(ValueError):
        store.new_game(game_id, game.create_record())
    assert store.load_game(game_id).players == game.players
