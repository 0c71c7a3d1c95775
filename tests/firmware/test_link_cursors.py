# Export cursors per laptop: EXPORT AFTER a change number never misses a game another laptop took home.
# slow: export cursors over many sessions (about half a minute)
from linkhost import Host, decode, device
from sim.flashdev import FlashDev, PowerCut, copy_image
from tafel import wire
from tafel.records import varints

ANNA, BEN, CLEO = "Anna", "Ben", "Cleo"
FINAL = [(ANNA, 589), (BEN, 0), (CLEO, 0)]


def laptop(dev):
    host = Host(dev)
    host.handshake()
    return host


def after(host, cursor):
    """EXPORT AFTER the laptop's cursor (None: it has none yet); returns (games, its new cursor)."""
    epoch, n = cursor if cursor else (0, 0)
    games, _, _ = host.export(wire.AFTER, epoch, n)
    return games, host.changes


def take_home(host, games):
    """MARK what came whole and is not live, with the sizes GAME announced."""
    home = [(i, sum(len(f) for f in g[1])) for i, g in sorted(games.items())
            if g[2] == wire.WHOLE and not g[0] & wire.LIVE]
    body = varints(len(home), *([i for i, _ in home] + [s for _, s in home]))
    return wire.parse_numbers(host.ok(wire.MARK, body), 1)[0]


def evening(flash=None):
    """Game 1 (Anna 89, unfinished, put away) and game 2 (running)."""
    dev = device(flash=flash)
    session = dev.app.session
    for _ in range(2):
        session.start((ANNA, BEN, CLEO), "standard", 500)
        session.save_round({BEN: [36], CLEO: [53]}, ANNA)
    return dev


def play_on_and_finish(dev):
    # Game 1 continued from the history and won: Anna 89 + 500 = 589.
    session = dev.app.session
    session.open(1)
    session.save_round({BEN: [250, 250], CLEO: [0]}, ANNA)
    assert session.game.finished


def test_two_laptops_both_get_a_game_finished_after_both_exported():
    dev = evening()
    a, b = laptop(dev), laptop(dev)
    games, cursor_a = after(a, None)
    assert sorted(games) == [1, 2] and cursor_a[0] != 0
    assert take_home(a, games) == 1  # game 1: game 2 is live
    b = laptop(dev)
    games, cursor_b = after(b, None)
    assert sorted(games) == [1, 2]
    take_home(b, games)
    play_on_and_finish(dev)
    a = laptop(dev)
    games, cursor_a = after(a, cursor_a)
    assert 1 in games and decode(games[1][1]).totals() == FINAL
    assert take_home(a, games) >= 1
    b = laptop(dev)
    games, cursor_b = after(b, cursor_b)  # game 1 is marked exported by A: B gets it all the same
    assert 1 in games and decode(games[1][1]).totals() == FINAL and decode(games[1][1]).finished
    a = laptop(dev)
    games, _ = after(a, cursor_a)
    assert games == {}, [(i, g[0]) for i, g in games.items()]  # nothing changed since A's last export: nothing again
    assert dev.errors == []


def test_a_cursor_of_another_count_or_from_the_future_gets_every_game():
    dev = evening()
    host = laptop(dev)
    _, cursor = after(host, None)
    epoch, n = cursor
    assert sorted(after(host, (epoch + 1, n))[0]) == [1, 2]  # the count started again since
    assert sorted(after(host, (epoch, n + 5))[0]) == [1, 2]  # a number the device never gave
    assert sorted(after(host, (0, 0))[0]) == [1, 2]


def test_old_requests_keep_working_and_done_keeps_its_first_fields():
    dev = evening()
    host = laptop(dev)
    games, cursor, _ = host.export(wire.SINCE, 0, 0)
    assert sorted(games) == [1, 2] and cursor == (2, 2) and host.changes is not None
    games, _, _ = host.export(wire.ALL)
    assert sorted(games) == [1, 2]


def test_marking_counts_only_games_exported_whole_after_their_last_change():
    dev = evening()
    host = laptop(dev)
    games, _ = after(host, None)
    sizes = dict((i, sum(len(f) for f in g[1])) for i, g in games.items())
    play_on_and_finish(dev)  # game 1 changes between the export and the MARK
    assert wire.parse_numbers(host.ok(wire.MARK, varints(1, 1)), 1) == [0]  # without sizes: changed since the plan
    assert wire.parse_numbers(host.ok(wire.MARK, varints(1, 1, sizes[1])), 1) == [0]
    games, _ = after(host, None)
    assert take_home(host, games) == 2  # game 1 finished, game 2 put away when game 1 was continued
    games, _ = after(host, None)
    assert wire.parse_numbers(host.ok(wire.MARK, varints(2, 1, 2)), 1) == [2]  # unchanged since this plan


def test_a_power_cut_while_the_change_is_written_loses_no_game_and_no_cursor():
    flash = FlashDev()
    dev = evening(flash)
    a = laptop(dev)
    games, cursor = after(a, None)
    take_home(a, games)
    image = copy_image(flash.image)
    probe = FlashDev(image=copy_image(image))
    dev = device(flash=probe)
    start = probe.ops
    play_on_and_finish(dev)
    ops = probe.ops - start
    assert ops > 0
    cuts = 0
    for op in range(ops):
        for tear in (False, True):
            chip = FlashDev(image=copy_image(image))
            dev = device(flash=chip)
            chip.cut_at = chip.ops + op
            chip.tear = tear
            try:
                play_on_and_finish(dev)
            except PowerCut:
                pass
            assert chip.dead
            cuts += 1
            dev = device(flash=FlashDev(image=chip.image))  # power back
            stored = dev.app.store.load_game(1)
            host = laptop(dev)
            games, later = after(host, cursor)
            if len(stored.rounds) == 2:  # the change is on flash: the laptop must get it
                assert 1 in games and decode(games[1][1]).totals() == FINAL, (op, tear)
            assert later is not None and later[0], (op, tear)
            games2, _ = after(host, later)
            assert all(g[0] & wire.LIVE or g[0] & wire.DAMAGED for g in games2.values()), (op, tear, [(i, g[0]) for i, g in games2.items()])
    print("  %d cuts (clean and torn) while game 1 was played on and put away" % cuts)
