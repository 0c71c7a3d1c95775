# The journal as the club's outbox: the hub's cursor on flash in batches and after a power cut, games
# that are over leaving it, a main copy damaged under a record, unpairing and the pairing's checks,
# Wi-Fi set after pairing, the mark in the title row, and a broker that takes the connection and
# never answers (the table goes on stepping).
import gc
import sys
import time

from linkhost import Host, device
from mqttpeer import SECRET, Peer
from sim.flashdev import FlashDev, copy_image
from store import pairing
from tafel import club, journal, wire
from test_club_link import CLUB, DEVICE, pair_body, paired, run, start_game

SETTINGS_WLAN = "4 C C C # 8 2 3 3 3 wait:1200 3 3 5 5 5 # # #"  # from home: network "tafel", no password


def test_the_cursor_goes_to_flash_in_batches_and_a_reboot_goes_on_from_it():
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    session = start_game(dev)
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    session.save_round({"Anna": 12, "Cleo": 5}, "Ben")
    game = session.game_id
    assert run(dev, peer, hub, 3000, lambda: dev.app.club.outbox.acked.get(game) == 3)
    store = dev.app.store
    assert pairing.load_cursor(store) == (game, {})  # as pairing left it: no write per ACK
    for _ in range(310):  # five minutes on: one write with everything
        dev.advance(1000)
        peer.poll()
        hub.take()
    assert pairing.load_cursor(store) == (game + 1, {game: 3})
    # a power cut; the table boots on the same flash and goes on from the cursor
    dev.flash.power_off()
    dev = device(FlashDev(image=copy_image(dev.flash.image)))
    peer.drop()
    assert dev.app.club is not None and dev.app.club.outbox.acked == {game: 3}
    dev.app.session.save_round({"Ben": 1, "Cleo": 2}, "Anna")
    assert run(dev, peer, hub, 5000, lambda: len(hub.stored[game]) == 4)
    assert hub.late == [] and len(peer.connects) == 2
    assert dev.errors == []


def test_a_game_that_is_over_leaves_the_cursor_and_the_next_game_follows():
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    session = dev.app.session
    session.start(("Anna", "Ben"), "standard", 50)
    first = session.game_id
    session.save_round({"Ben": 60}, "Anna")  # Anna reaches 50: over, put away
    assert session.game.finished
    session.start(("Cleo", "Dora"), "standard", 500)
    second = session.game_id
    session.save_round({"Dora": 7}, "Cleo")
    assert run(dev, peer, hub, 5000, lambda: len(hub.stored.get(second, ())) == 2)
    assert run(dev, peer, hub, 3000, lambda: dev.app.club.outbox.acked == {second: 2})
    assert len(hub.stored[first]) == 2 and hub.late == []
    dev.app.club.outbox.save(dev.app.clock.ticks_ms(), True)
    assert pairing.load_cursor(dev.app.store) == (second + 1, {second: 2})
    assert dev.errors == []


def test_a_record_damaged_in_the_main_copy_goes_out_from_the_twin():
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    hub.quiet = True
    dev.app.club.client.close()  # offline for a moment: the records wait on flash
    dev.app.club.delay = 5000
    session = start_game(dev)
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    game = session.game_id
    disk = dev.app.store.disk
    path = "live/%06d.000" % game
    data = bytearray(disk.read(path))
    data[-6] ^= 0x40  # a flipped bit inside record 1's payload, main copy only
    f = disk.open(path, "wb")
    f.write(data)
    f.close()
    hub.quiet = False
    assert run(dev, peer, hub, 10000, lambda: len(hub.stored.get(game, ())) == 2)
    twin = dev.app.store.twin.read(path)
    assert bytes(hub.stored[game][0]) + bytes(hub.stored[game][1]) == twin
    assert dev.errors == []


def test_unpairing_takes_the_pairing_and_the_cursor_off_the_flash_and_lets_go_of_the_club():
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    game = start_game(dev).game_id
    assert run(dev, peer, hub, 3000, lambda: dev.app.club.outbox.acked.get(game) == 1)
    assert dev.app.club.outbox.dirty  # a cursor not written yet: unpairing does not write it
    assert "club.table" in sys.modules
    assert host.ok(club.UNPAIR) == b"\x01"
    assert not dev.app.settings.get("club") and dev.app.store.disk.size(pairing.PAIRING) is None
    assert dev.app.store.disk.size(pairing.CURSOR) is None and not dev.app.store.settings.get("club")
    assert dev.app.club is None and dev.app.club_mark is None
    for name in ("club.table", "club.mqtt", "club.outbox", "store.pairing", "tafel.club", "link.pair"):
        assert name not in sys.modules, name
    peer.poll()
    assert peer.retained[club.topic(CLUB, DEVICE, "status")] == b"offline" and peer.disconnects == 1
    assert host.ok(club.UNPAIR) == b"\x00"
    run(dev, peer, hub, 2000)
    assert len(peer.connects) == 1
    assert dev.errors == []


def test_pairing_refuses_what_the_table_cannot_keep():
    dev = device()
    host = Host(dev)
    host.handshake()
    good = club.pair_fields("127.0.0.1", 1883, CLUB, "Tisch 7", SECRET)
    for fields in (club.pair_fields("127.0.0.1", 1883, "a/b", "Tisch 7", SECRET),
                   club.pair_fields("127.0.0.1", 1883, CLUB, "Tisch 7", SECRET[:16]),
                   club.pair_fields("127.0.0.1", 0, CLUB, "Tisch 7", SECRET),
                   club.pair_fields("a host", 1883, CLUB, "Tisch 7", SECRET),
                   club.pair_fields("127.0.0.1", 1883, CLUB, "", SECRET),
                   good[:4]):
        assert host.err(club.PAIR, pair_body(wire.FIRST | wire.LAST, fields)) == "bad_request"
    assert host.err(club.PAIR, pair_body(wire.LAST, good)) == "bad_request"  # no FIRST part
    assert host.err(club.PAIR, bytes((wire.FIRST | wire.LAST, 9)) + b"\x01x") == "bad_request"
    assert not dev.app.settings.get("club") and dev.app.store.disk.size(pairing.PAIRING) is None
    assert dev.app.club is None
    assert dev.errors == []


def test_a_table_paired_without_wifi_starts_its_link_once_a_network_is_set():
    dev, host, peer, hub = paired(wifi=False)
    assert dev.app.settings.get("club") and dev.app.club is None
    dev.app.home()
    dev.play("wait:10 " + SETTINGS_WLAN)
    assert dev.app.settings["wifi_ssid"] == "tafel"
    assert dev.app.club is not None
    assert run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    assert dev.errors == []


def test_the_mark_in_the_title_row_says_online_and_offline():
    dev, host, peer, hub = paired()
    host.ok(wire.BYE)  # the laptop's session ends: the link's mark goes, the club's takes the last cell
    dev.app.home()
    run(dev, peer, hub, 3000, lambda: dev.app.club_mark == 2)
    fb, canvas = dev.app.display, dev.app.canvas
    x = (canvas.cols - 1) * 8
    disc = [fb.pixel(x + 3, y) for y in range(8)]
    assert disc == [1, 0, 0, 0, 0, 0, 1, 1]  # dark on the title's bar: the disc's middle column
    peer.stop()
    run(dev, peer, hub, 500)
    assert dev.app.club_mark == 0
    ring = [fb.pixel(x + 3, y) for y in range(8)]
    assert ring == [1, 0, 1, 1, 1, 0, 1, 1]  # a ring: dark at its top and bottom only
    host.handshake()  # a laptop's session again: its mark in the last cell, the club's beside it
    dev.advance(20)
    assert [fb.pixel(x - 8 + 3, y) for y in range(8)] == ring
    assert fb.pixel(x + 3, 2) == 0  # the link's arrows
    assert dev.errors == []


def test_a_broker_that_never_answers_is_given_up_and_the_table_keeps_stepping():
    peer = Peer()
    peer.srv.close()  # a socket that listens and never accepts: the connection is made, CONNECT unanswered
    import socket

    mute = socket.socket()
    mute.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    mute.bind(socket.getaddrinfo("127.0.0.1", peer.port)[0][-1])
    mute.listen(4)
    peer.srv = None
    dev, host, _, hub = paired(peer)
    slowest = 0
    gc.collect()
    gc.disable()  # the test process's 8 MB heap takes its time to collect: not the table's doing
    try:
        for _ in range(1500):  # 15 s of the device's time
            t = time.ticks_us()
            dev.advance(10)
            slowest = max(slowest, time.ticks_diff(time.ticks_us(), t))
    finally:
        gc.enable()
    table = dev.app.club
    assert table.tries >= 2 and table.connections == 0 and dev.app.club_mark == 0
    assert slowest < 50000, slowest  # no step waited for the network (the laptop is far faster than the chip)
    mute.close()
    assert dev.errors == []


def test_a_record_larger_than_the_packet_buffer_goes_out_whole():
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    dev.app.club.client.out = bytearray(128)  # (its own buffer is larger than any record a table makes)
    names = ["%dÄÖÜäöüßÄÖÜäöüßÄÖÜ" % i for i in range(10)]
    session = dev.app.session
    session.start(names, "standard", 500, {"wild": 45, "draw2": 25, "skip": 15, "reverse": 15})
    game = session.game_id
    assert run(dev, peer, hub, 3000, lambda: len(hub.stored.get(game, ())) == 1)
    frame = bytes(hub.stored[game][0])
    assert len(frame) > 128 and frame == journal.frame(0, session.game.create_record())
    session.save_round(dict((name, 5) for name in names[1:]), names[0])
    assert run(dev, peer, hub, 3000, lambda: len(hub.stored[game]) == 2)  # and the small buffer again
    assert dev.errors == []


def test_a_deep_sleep_says_offline_writes_nothing_and_the_woken_table_learns_from_the_hub():
    dev, host, peer, hub = paired()
    host.ok(wire.BYE)  # no laptop's session: the table may sleep
    dev.app.settings["deep_sleep"] = 1
    dev.app.store.save_settings(dev.app.settings)
    session = start_game(dev)
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    game = session.game_id
    assert run(dev, peer, hub, 3000, lambda: dev.app.club.outbox.acked.get(game) == 2)
    cursor = dev.app.store.disk.read(pairing.CURSOR)
    assert run(dev, peer, hub, 70000, lambda: dev.asleep)
    peer.poll()
    assert peer.retained[club.topic(CLUB, DEVICE, "status")] == b"offline"
    assert dev.app.store.disk.read(pairing.CURSOR) == cursor  # nothing written for the sleep
    dev.key("7")  # awake: a reboot; the cursor on flash is older than what the hub has
    assert not dev.asleep and dev.app.club is not None
    assert run(dev, peer, hub, 5000, lambda: dev.app.club.outbox.acked.get(game) == 2)
    assert len(hub.stored[game]) == 2  # what came again was the same, and answered with the hub's cursor
    assert dev.errors == []


def test_a_game_paused_and_played_on_later_sends_what_came_since():
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    session = start_game(dev)
    first = session.game_id
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    assert run(dev, peer, hub, 3000, lambda: dev.app.club.outbox.acked.get(first) == 2)
    session.start(("Cleo", "Dora"), "standard", 500)  # the first game is put away unfinished
    second = session.game_id
    session.save_round({"Dora": 7}, "Cleo")
    outbox = dev.app.club.outbox
    assert run(dev, peer, hub, 3000, lambda: outbox.acked == {first: 2, second: 2})
    session.open(first)  # from the history: played on
    session.save_round({"Anna": 3, "Cleo": 4}, "Ben")
    assert run(dev, peer, hub, 3000, lambda: outbox.acked == {first: 3, second: 2})
    assert [len(hub.stored[g]) for g in (first, second)] == [3, 2] and hub.late == []
    assert dev.errors == []
