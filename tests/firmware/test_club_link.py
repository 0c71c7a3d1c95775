# A paired table on the simulated device and a tiny MQTT broker over real loopback sockets (mqttpeer.py):
# pairing over the USB link, the records of a game going out in order and signed, the hub's ACKs
# moving the cursor (on flash in batches), a broker that goes away and comes back, the table's Wi-Fi
# cut for ten minutes, unpairing.
from linkhost import Host, device
from mqttpeer import SECRET, Hub, Peer
from tafel import club, wire

CLUB = "kartenclub"
DEVICE = "sim-test"


def pair_body(flags, fields):
    out = bytearray((flags,))
    for tag, value in fields:
        club.put_field(out, tag, value)
    return out


def paired(peer=None, wifi=True):
    """A device with Wi-Fi set, paired with the peer's broker over the link; (dev, host, peer, hub)."""
    dev = device()
    if wifi:
        dev.app.settings["wifi_ssid"] = "club"
        dev.app.store.save_settings(dev.app.settings)
    peer = peer or Peer()
    host = Host(dev)
    host.handshake()
    fields = club.pair_fields("127.0.0.1", peer.port, CLUB, "Tisch 7", SECRET)
    host.ok(club.PAIR, pair_body(wire.FIRST, fields[:3]))
    host.ok(club.PAIR, pair_body(wire.LAST, fields[3:]))
    return dev, host, peer, Hub(peer, CLUB, DEVICE)


def first_round_at_the_hub():
    """A paired table online, a game of three started and its first round acknowledged by the hub:
    (dev, peer, hub, session, game id)."""
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    session = start_game(dev)
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    game = session.game_id
    assert run(dev, peer, hub, 3000, lambda: dev.app.club.outbox.acked.get(game) == 2)
    return dev, peer, hub, session, game


def run(dev, peer, hub, ms=300, until=None):
    """Step the device and the broker (and the hub) for `ms` of the device's time, or until until()."""
    for _ in range(ms // 10):
        dev.advance(10)
        peer.poll()
        hub.take()
        if until is not None and until():
            return True
    return until is None


def start_game(dev):
    session = dev.app.session
    session.start(("Anna", "Ben", "Cleo"), "standard", 500)
    dev.app.show_game()
    return session


def test_pairing_is_kept_on_flash_and_the_table_connects_with_a_will():
    dev, host, peer, hub = paired()
    assert dev.app.settings.get("club") and dev.app.store.settings.get("club") and dev.app.club is not None
    assert run(dev, peer, hub, 3000, lambda: peer.subscribed)
    client_id, flags, keepalive, will_topic, will = peer.connects[0]
    assert client_id == DEVICE.encode() and not flags & 0x02  # clean session 0
    assert flags & 0x04 and flags & 0x20 and will_topic == club.topic(CLUB, DEVICE, "status") and will == b"offline"
    assert sorted(peer.subscribed) == [club.topic(CLUB, DEVICE, "ack"), club.topic(CLUB, DEVICE, "table")]
    assert run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    assert peer.messages(b"status") == [b"online"] and peer.retained[club.topic(CLUB, DEVICE, "status")] == b"online"
    assert dev.app.club_mark == 2  # online
    assert dev.errors == []


def test_every_record_goes_out_signed_in_order_and_the_ack_moves_the_cursor():
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    session = start_game(dev)
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    session.save_round({"Anna": 12, "Cleo": 5}, "Ben")
    game = session.game_id
    assert run(dev, peer, hub, 3000, lambda: len(hub.stored.get(game, ())) == 3)
    journal = dev.app.store.log(game)
    frames = [bytes(f) for f in hub.stored[game]]
    from tafel import journal as jn

    assert frames == [jn.frame(seq, payload) for seq, payload in journal.records()]
    assert run(dev, peer, hub, 1000, lambda: dev.app.club.outbox.acked.get(game) == 3)
    assert hub.late == []
    state = club.open_signed(SECRET, club.topic(CLUB, DEVICE, "state"), peer.retained[club.topic(CLUB, DEVICE, "state")])
    assert club.decode_state(state) == (game, 2, 2, False, ["Anna", "Ben", "Cleo"], [89, 17, 0])
    assert dev.errors == []


def test_records_played_while_the_broker_is_away_follow_from_the_cursor_and_nothing_acknowledged_twice():
    dev, peer, hub, session, game = first_round_at_the_hub()
    peer.stop()  # the hub's laptop goes away
    for hands, winner in (({"Anna": 4, "Cleo": 5}, "Ben"), ({"Ben": 7, "Cleo": 1}, "Anna"),
                          ({"Anna": 9, "Ben": 2}, "Cleo")):
        session.save_round(hands, winner)
        run(dev, peer, hub, 200)
    run(dev, peer, hub, 2000)
    assert dev.app.club_mark == 0  # offline
    sent = len(hub.stored[game])
    peer.listen()  # back, on the same port: the table finds it within its backoff
    assert run(dev, peer, hub, 70000, lambda: len(hub.stored.get(game, ())) == 5)
    assert run(dev, peer, hub, 2000, lambda: dev.app.club.outbox.acked.get(game) == 5)
    assert sent == 2 and hub.late == [] and len(peer.connects) == 2
    assert dev.app.club_mark == 2
    assert dev.errors == []


def test_a_wifi_cut_of_ten_minutes_loses_nothing_and_play_goes_on():
    dev, peer, hub, session, game = first_round_at_the_hub()
    wlan = dev.app.wlan()
    wlan.networks = {}  # the table out of the network's range: the station drops, no access point is found
    wlan.disconnect()
    assert run(dev, peer, hub, 1000, lambda: dev.app.club_mark == 0)  # offline at once, not after the keepalive
    for hands, winner in (({"Anna": 4, "Cleo": 5}, "Ben"), ({"Ben": 7, "Cleo": 1}, "Anna"),
                          ({"Anna": 9, "Ben": 2}, "Cleo"), ({"Anna": 3, "Cleo": 8}, "Ben")):
        session.save_round(hands, winner)  # play goes on: each round on flash at once
        run(dev, peer, hub, 150000)  # ten minutes of the device's time in all, a round every 2.5 minutes
    assert len(hub.stored[game]) == 2 and dev.app.club_mark == 0
    tries = dev.app.club.tries
    assert 10 <= tries <= 20, tries  # it kept trying, backing off to once a minute
    wlan.networks = None  # back in range
    assert run(dev, peer, hub, 70000, lambda: len(hub.stored.get(game, ())) == 6)
    assert run(dev, peer, hub, 3000, lambda: dev.app.club.outbox.acked.get(game) == 6 and dev.app.club_mark == 2)
    assert hub.late == []  # nothing the table had been told the hub has came again
    assert dev.errors == []


def test_a_record_the_hub_missed_is_sent_again_from_what_the_hub_has():
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    session = start_game(dev)
    game = session.game_id
    assert run(dev, peer, hub, 3000, lambda: len(hub.stored.get(game, ())) == 1)
    hub.quiet = True  # the next records reach the broker but not the hub (a hub restarting): no ACK
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    session.save_round({"Anna": 12, "Cleo": 5}, "Ben")
    run(dev, peer, hub, 500)
    del hub.stored[game][1:]  # lost with it
    hub.quiet = False
    assert dev.app.club.outbox.next == 3
    # nothing is heard for 10 s: the table sends again from the hub's cursor
    assert run(dev, peer, hub, 15000, lambda: len(hub.stored[game]) == 3)
    assert run(dev, peer, hub, 2000, lambda: dev.app.club.outbox.acked.get(game) == 3)
    records = [club.decode_record(club.open_signed(SECRET, t, p))[1] for t, p, _ in peer.published
               if t.endswith(b"/records")]
    assert records == [0, 1, 2, 1, 2]  # again only what the hub had not acknowledged
    assert dev.errors == []


def test_an_ack_that_does_not_move_brings_the_missing_record_at_once():
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    session = start_game(dev)
    game = session.game_id
    assert run(dev, peer, hub, 3000, lambda: dev.app.club.outbox.acked.get(game) == 1)
    hub.quiet = True
    session.save_round({"Ben": 36, "Cleo": 53}, "Anna")
    run(dev, peer, hub, 300)
    session.save_round({"Anna": 12, "Cleo": 5}, "Ben")
    run(dev, peer, hub, 300)
    del hub.stored[game][1:]
    hub.quiet = False
    hub.ack(game, 1)  # what a hub answers to record 2 when record 1 never came: "1, please"
    assert run(dev, peer, hub, 1000, lambda: dev.app.club.outbox.acked.get(game) == 3)
    assert len(hub.stored[game]) == 3
    assert dev.errors == []


def test_forged_and_stale_acks_change_nothing():
    dev, peer, hub, session, game = first_round_at_the_hub()
    topic = club.topic(CLUB, DEVICE, "ack")
    peer.publish(topic, club.sign(bytes(32), topic, club.encode_ack(game, 40)))  # another secret
    other = club.topic(CLUB, "sim-other", "ack")
    peer.publish(topic, club.sign(SECRET, other, club.encode_ack(game, 40)))  # another device's topic
    peer.publish(topic, club.sign(SECRET, topic, club.encode_ack(game, 1)))  # an old one, replayed
    peer.publish(topic, b"garbage")
    run(dev, peer, hub, 500)
    assert dev.app.club.outbox.acked[game] == 2 and dev.app.club.outbox.next == 2
    assert dev.errors == []
