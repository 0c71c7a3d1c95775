# The store's view of its games for the link (store/journals.py): files, sizes, flags, change log.
from store import index as ix
from store.journals import KEPT
from tafel import wire
from test_link import SAVE, played, set_aside
from test_ui_flows import worked_example


def test_a_game_s_files_come_closed_then_live_then_kept_numbered_as_game_frames_say():
    dev = played()
    dev.play("*")
    worked_example(dev)  # game 2 runs; game 1 is put away
    dev.play(SAVE)
    set_aside(dev, 2, 20)
    j = dev.app.store.journals()
    disk = dev.app.store.disk
    assert [(n, p) for n, p, _ in j.files(1)] == [(0, "games/000001.tj")]
    assert [n for n, _, _ in j.files(2)] == [1, KEPT, KEPT + 1] and KEPT == wire.KEEP_FILE
    assert j.size(2) == sum(disk.size(p) for _, p, _ in j.files(2))
    assert j.files(7) == [] and j.size(7) == 0


def test_flags_say_finished_exported_and_damaged_and_a_live_game_is_never_exported():
    dev = played()
    dev.play("*")
    worked_example(dev)  # game 2 runs; game 1 is put away
    dev.play(SAVE)
    store = dev.app.store
    store.mark_exported([1])
    j = store.journals()
    assert not j.is_live(1) and j.flags(1) == ix.EXPORTED
    assert j.is_live(2) and not j.flags(2) & ix.EXPORTED
    assert j.flags(9) == ix.DAMAGED  # no history entry
    assert store.running_game() == 2 and store.index.find(2) < 0 and j.flags(2) == 0  # the running game's
    set_aside(dev, 2, 20)
    j.refresh()
    assert j.flags(2) & ix.DAMAGED and j.unlisted(store.history()) == []
    assert j.unlisted([1]) == [2]  # bytes in keep/ of a game the history does not name


def test_the_change_log_is_read_and_started_only_when_asked():
    dev = played()
    store = dev.app.store
    store.index.epoch = 0  # an index from before the change log
    j = store.journals()
    assert j.change_log() == (0, store.index.changes)
    j.start_change_log()
    epoch, changes = j.change_log()
    assert epoch != 0 and j.changed_after([1], epoch + 1, 0) == [1]  # another epoch: everything
    assert j.changed_after([1], epoch, changes) == [1]  # live: changed, whatever its number
    assert not j.unchanged(1, changes)


def test_read_gives_the_bytes_of_a_file_and_nothing_of_one_that_went():
    dev = played()
    j = dev.app.store.journals()
    (_, path, size), = j.files(1)
    buf = bytearray(8)
    assert j.read(path, 2, buf, 5) == 5 and bytes(buf[:5]) == dev.app.store.disk.read(path)[2:7]
    assert j.read("live/000009.000", 0, buf, 8) == 0
