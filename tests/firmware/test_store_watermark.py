# Damage in both copies is never a silent loss: what the screen confirmed is kept outside the
# game folders (store/watermark.py), and the boot tells when a game holds less than that.
from evening import boot
from sim.flashdev import copy_image
from tafel.game import Game

PLAYERS = ("Anna", "Ben", "Cleo")


def _start(store, players=PLAYERS):
    game_id = store.next_game_id()
    game = Game(players, "standard", 100000, None, 7, game_id)
    store.new_game(game_id, game.create_record())
    return game_id, game


def _rounds(store, game_id, game, n):
    for _ in range(n):
        r = len(game.rounds)
        winner = game.players[r % len(game.players)]
        hands = dict((p, 0 if p == winner else 3 + (r * 7 + i) % 50) for i, p in enumerate(game.players))
        rec = game.round_record(hands, winner)
        store.append(game_id, rec)  # returns once committed: the screen says "saved"
        game.apply(rec)


def _changed_folder_blocks(before, after, name):
    # The metadata blocks the last save changed that list file `name` (the live folders' blocks,
    # one in each copy; the marks' folders list "mark", not the segment).
    out = []
    for b in range(len(after)):
        old, new = before[b], after[b]
        if new is None or old == new or name not in new or b"mark" in new:
            continue
        first = 0
        if old is not None:
            while old[first] == new[first]:
                first += 1
        out.append((b, first))
    return out


def test_the_last_round_cut_from_both_copies_is_told_and_marked():
    # The minimal case: a game of three, six rounds; one bit flipped at the first byte
    # the sixth save changed in /data/live's folder block and one in /twin/live's. LittleFS falls
    # back to each folder's state before that save: both copies hold five rounds.
    dev, store, _ = boot()
    game_id, game = _start(store)
    _rounds(store, game_id, game, 5)
    before = copy_image(dev.image)
    _rounds(store, game_id, game, 1)
    hits = _changed_folder_blocks(before, dev.image, b"%06d.000" % game_id)
    assert len(hits) == 2, hits
    for b, first in hits:
        dev.image[b][first] ^= 0x01
    dev, store, notes = boot(image=dev.image)
    assert ("rounds_missing", game_id) in notes
    assert store.running_game() == game_id and len(store.load_game(game_id).rounds) == 5
    assert store.damaged(game_id) and store.summary(game_id).damaged  # the history's "!"
    report = store.journals()
    assert report.flags(game_id) & 4  # the export says damaged too
    # Told once; the mark follows what is there, and play goes on from round 5.
    _rounds(store, game_id, store.load_game(game_id), 1)
    dev, store, notes = boot(image=dev.image)
    assert notes == [] and len(store.load_game(game_id).rounds) == 6
    assert store.summary(game_id).damaged  # the flag stays
    game = store.load_game(game_id)
    rec = game.finish_record(9)
    store.append(game_id, rec)
    game.apply(rec)
    store.game_finished(game_id, game)
    assert store.summary(game_id).damaged and store.summary(game_id).finished  # put away, still flagged


def test_a_running_game_that_vanished_is_told_and_no_older_game_takes_its_place():
    # The second case, as it ends: both live folders fell back to a state from before the
    # running game began, so the running game is gone from them and the segments of the game
    # that ran before it (finished being put away since) are back.
    dev, store, _ = boot()
    paused, pgame = _start(store)
    _rounds(store, paused, pgame, 8)
    stale = [(disk, f, disk.read("live/" + f)) for disk in store.disks for f, _ in disk.listdir("live")]
    running, rgame = _start(store, ("Dora", "Emil", "Fritz", "Gert", "Hanna"))  # puts the paused one away
    _rounds(store, running, rgame, 25)
    for disk in store.disks:
        for f, _ in disk.listdir("live"):
            disk.remove("live/" + f)
    for disk, f, data in stale:
        out = disk.open("live/" + f, "wb")
        out.write(data)
        out.close()
    dev, store, notes = boot(image=dev.image)
    assert ("game_lost", running) in notes
    assert store.running_game() is None  # not the paused game resumed as if it were the one played
    assert running in store.history() and store.summary(running).lost  # listed, marked lost
    assert len(store.load_game(paused).rounds) == 8 and not store.summary(paused).damaged
    new, _ = _start(store)
    assert new == running + 1  # the lost game's id is never given again
    dev, store, notes = boot(image=dev.image)
    assert ("game_lost", running) not in notes  # told once


def test_a_power_cut_between_a_round_and_its_mark_is_no_loss():
    # The mark is written after the record: a cut between them leaves it behind, never ahead.
    dev, store, _ = boot()
    game_id, game = _start(store)
    _rounds(store, game_id, game, 3)
    mark = [store.disk.read("mark"), store.twin.read("mark")]
    _rounds(store, game_id, game, 1)
    for disk, data in zip(store.disks, mark):  # as if the power went before the marks were written
        out = disk.open("mark", "wb")
        out.write(data)
        out.close()
    dev, store, notes = boot(image=dev.image)
    assert notes == [] and len(store.load_game(game_id).rounds) == 4


def test_one_damaged_mark_is_passed_over_for_the_other():
    dev, store, _ = boot()
    game_id, game = _start(store)
    _rounds(store, game_id, game, 4)
    out = store.disk.open("mark", "wb")
    out.write(b"\x00" * 12)
    out.close()
    assert store.mark.load().seq == 4  # the twin's
    store.twin.remove("mark")
    store.disk.remove("mark")
    dev, store, notes = boot(image=dev.image)  # no mark at all (a flash from before marks): no claim
    assert notes == [] and len(store.load_game(game_id).rounds) == 4


def test_a_deleted_game_is_not_missed():
    dev, store, _ = boot()
    game_id, game = _start(store)
    _rounds(store, game_id, game, 2)
    store.delete_game(game_id)
    dev, store, notes = boot(image=dev.image)
    assert notes == [] and store.history() == [] and store.next_game_id() == game_id + 1
