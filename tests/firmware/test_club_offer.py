# The hub's tournament round offered on a paired table's home screen (club/offer.py, ui/tournament.py):
# shown once a signed TABLE came, started with exactly its seats, variant and target (the game goes to
# the hub like any), declined, neither offered again after a reboot with the broker's retained copy,
# a newer round offered instead, forged ones never, and nothing of it on an unpaired table.
import sys

from linkhost import device
from mqttpeer import SECRET
from sim.flashdev import FlashDev, copy_image
from store import pairing
from tafel import club
from test_club_link import CLUB, DEVICE, paired, run, start_game

NAMES = ["Anna", "Ben", "Cleo", "Dora"]
TOPIC = club.topic(CLUB, DEVICE, "table")


def send_round(peer, round_no, names=NAMES, variant=0, target=500, table_no=3, secret=SECRET, topic=TOPIC):
    """The hub's TABLE for this device, signed and retained at the broker."""
    body = club.encode_table(round_no, table_no, variant, target, names)
    peer.publish(TOPIC, club.sign(secret, topic, body), retain=True)


def fresh():
    """The modules of an offer out of the module table, as on a device just booted (an earlier test's
    table may have left them)."""
    for name in ("club.offer", "ui.tournament"):
        sys.modules.pop(name, None)


def online():
    fresh()
    dev, host, peer, hub = paired()
    assert run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    dev.app.home()
    return dev, peer, hub


def offered(dev, peer, hub, round_no):
    assert run(dev, peer, hub, 5000, lambda: dev.app.club.offer is not None and dev.app.club.offer[0] == round_no)
    dev.play("wait:20")  # home's tick and redraw


def reboot(dev, peer, hub):
    """A power cut and the table back on the same flash; the broker sends the retained TABLE again."""
    dev.flash.power_off()
    dev = device(FlashDev(image=copy_image(dev.flash.image)))
    peer.drop()
    assert run(dev, peer, hub, 5000, lambda: dev.app.club.table is not None)
    dev.play("wait:20")
    return dev


def test_a_round_sent_is_offered_on_home_and_shows_where_what_and_who():
    dev, peer, hub = online()
    assert dev.screen()[-1] != "0=Turnier R2", dev.screen()
    assert "club.offer" not in sys.modules, "nothing before a round"
    send_round(peer, 2)
    offered(dev, peer, hub, 2)
    assert dev.screen()[-1] == "0=Turnier R2"
    dev.play("0")
    assert dev.screen() == ["Turnier", "Runde 2, Tisch 3", "UNO, Ziel 500", "Anna, Ben, Cleo,", "Dora",
                            "Starten?", "", "#=los B=ablehnen"]
    dev.play("*")  # back: the offer stays
    assert type(dev.app.screen).__name__ == "Home" and dev.screen()[-1] == "0=Turnier R2"
    assert dev.errors == []


def test_starting_the_round_makes_that_game_and_its_records_go_to_the_hub():
    dev, peer, hub = online()
    send_round(peer, 2, ["Dora", "Cleo", "Ben", "Anna"], variant=1, target=300)
    offered(dev, peer, hub, 2)
    dev.play("0 #")
    game = dev.app.session.game
    assert list(game.players) == ["Dora", "Cleo", "Ben", "Anna"] and game.target == 300 and game.variant == "penalty"
    assert type(dev.app.screen).__name__ == "RoundEntry", (type(dev.app.screen).__name__, dev.screen(), dev.errors)
    assert dev.app.club.offer is None
    assert pairing.load(dev.app.store)["handled"] == dev.app.club.table_mark
    g = dev.app.session.game_id
    assert run(dev, peer, hub, 3000, lambda: len(hub.stored.get(g, ())) == 1)  # the create record
    state = club.open_signed(SECRET, club.topic(CLUB, DEVICE, "state"), peer.retained[club.topic(CLUB, DEVICE, "state")])
    assert club.decode_state(state)[4] == ["Dora", "Cleo", "Ben", "Anna"]
    assert list(dev.app.store.load_game(g).players) == ["Dora", "Cleo", "Ben", "Anna"]  # on flash as it was sent
    dev = reboot(dev, peer, hub)  # the same retained round: started already, not offered again
    assert dev.app.club.offer is None and dev.app.session.game_id == g
    assert dev.errors == []


def test_declining_hides_the_offer_and_a_reboot_does_not_bring_it_back_but_a_newer_round_comes():
    dev, peer, hub = online()
    send_round(peer, 2)
    offered(dev, peer, hub, 2)
    dev.play("0 B")
    assert dev.screen()[2].strip() == "Runde ablehnen?"
    dev.play("*")  # not declined after all
    assert dev.screen()[1] == "Runde 2, Tisch 3"
    dev.play("B #")
    assert type(dev.app.screen).__name__ == "Home" and dev.app.club.offer is None
    assert dev.screen()[-1] == "Abgelehnt"
    dev.play("wait:3000")
    assert dev.screen()[-1] == "" and dev.app.session.game is None
    dev.play("0")
    assert type(dev.app.screen).__name__ == "Home"  # 0 does nothing without an offer
    dev = reboot(dev, peer, hub)
    assert dev.app.club.table[0] == 2 and dev.app.club.offer is None and dev.screen()[-1] == ""
    send_round(peer, 3, ["Emil", "Fritz"])
    offered(dev, peer, hub, 3)
    assert dev.screen()[-1] == "0=Turnier R3"
    assert dev.errors == []


def test_a_round_that_comes_while_the_display_is_dark_lights_it():
    dev, peer, hub = online()
    run(dev, peer, hub, 61000)  # a minute without a key: the display goes dark
    assert dev.app.asleep
    send_round(peer, 1)
    offered(dev, peer, hub, 1)
    assert not dev.app.asleep and dev.screen()[-1] == "0=Turnier R1"
    dev.play("0")  # the first key counts: the display was lit already
    assert dev.screen()[1] == "Runde 1, Tisch 3"
    assert dev.errors == []


def test_a_newer_round_replaces_the_offer_even_on_its_screen_and_an_older_one_changes_nothing():
    dev, peer, hub = online()
    send_round(peer, 2)
    offered(dev, peer, hub, 2)
    dev.play("0")
    send_round(peer, 3, ["Emil", "Fritz", "Gus"], table_no=1)
    offered(dev, peer, hub, 3)
    assert dev.screen()[1:4] == ["Runde 3, Tisch 1", "UNO, Ziel 500", "Emil, Fritz, Gus"], dev.screen()
    send_round(peer, 2)  # an old round replayed
    run(dev, peer, hub, 500)
    assert dev.app.club.offer[0] == 3
    dev.play("#")
    assert list(dev.app.session.game.players) == ["Emil", "Fritz", "Gus"]
    assert dev.errors == []


def test_starting_while_a_game_runs_asks_first_and_keeps_that_game():
    dev, peer, hub = online()
    first = start_game(dev).game_id
    dev.app.home()
    send_round(peer, 1)
    offered(dev, peer, hub, 1)
    dev.play("0 #")
    assert dev.screen()[2].strip() == "Spiel pausieren?"
    dev.play("*")  # no: the offer again, the game as it was
    assert dev.app.session.game_id == first and dev.screen()[1] == "Runde 1, Tisch 3"
    dev.play("# #")
    assert dev.app.session.game_id != first and list(dev.app.session.game.players) == NAMES, dev.screen()
    assert not dev.app.store.load_game(first).finished and dev.app.club.offer is None
    assert dev.errors == []


def test_forged_or_unplayable_rounds_are_never_offered():
    dev, peer, hub = online()
    send_round(peer, 5, secret=bytes(32))  # another secret
    send_round(peer, 6, topic=club.topic(CLUB, "sim-other", "table"))  # another table's, copied here
    peer.publish(TOPIC, club.encode_table(7, 1, 0, 500, NAMES))  # not signed
    peer.publish(TOPIC, b"garbage")
    run(dev, peer, hub, 500)
    assert dev.app.club.table is None and dev.app.club.offer is None
    assert "club.offer" not in sys.modules and "ui.tournament" not in sys.modules
    for args in ((2, ["Anna"]), (3, NAMES, 9), (4, NAMES, 0, 0)):  # one seat, no such variant, no target
        send_round(peer, *args)
        run(dev, peer, hub, 300)
        assert dev.app.club.table[0] == args[0] and dev.app.club.offer is None
    assert dev.screen()[-1] == ""
    assert dev.errors == []


def test_names_the_table_cannot_show_are_folded_or_their_seat():
    dev, peer, hub = online()
    send_round(peer, 1, ["Zoë", "\u674e\u660e", "Ben", "BEN", "Maximiliane-Charlotte v. H."])
    offered(dev, peer, hub, 1)
    dev.play("0")
    names = ["Zoe", "Platz 2", "Ben", "Platz 4", "Maximiliane-Charlott"]  # folded; no glyphs, a twin; cut
    assert dev.screen() == ["Turnier    1-6/7", "Runde 1, Tisch 3", "UNO, Ziel 500", "Zoe, Platz 2,", "Ben, Platz 4,",
                            "Maximiliane-Char", "lott", "#=los B=ablehnen"]  # a name wider than the glass goes on below
    dev.play("D D")  # the rest scrolls into view, and no further
    assert dev.screen()[0] == "Turnier    2-7/7" and dev.screen()[-2] == "Starten?"
    dev.play("#")
    assert list(dev.app.session.game.players) == names, (dev.app.session.game, dev.screen())
    assert dev.errors == []


def test_a_round_of_ten_seats_with_long_names_comes_whole_and_is_started_as_sent():
    # Longer than the link's receive buffer as it starts (256 bytes with its topic): the buffer grows.
    dev, peer, hub = online()
    names = ["Spielerin Nummer %02d" % (i + 1) for i in range(10)]  # 20 letters each
    send_round(peer, 4, names)
    offered(dev, peer, hub, 4)
    dev.play("0 #")
    assert list(dev.app.session.game.players) == names
    assert dev.errors == []


def test_an_unpaired_table_offers_nothing_and_unpairing_forgets_the_answer():
    fresh()
    dev = device()
    dev.play("wait:50 0")
    assert type(dev.app.screen).__name__ == "Home" and dev.screen()[-1] == ""
    for name in ("club.offer", "ui.tournament"):
        assert name not in sys.modules, name
    dev, host, peer, hub = paired()
    run(dev, peer, hub, 3000, lambda: peer.messages(b"status"))
    dev.app.home()
    send_round(peer, 2)
    offered(dev, peer, hub, 2)
    dev.play("0 B #")
    assert pairing.load(dev.app.store).get("handled") is not None
    assert host.ok(club.UNPAIR) == b"\x01"
    dev.play("wait:3000")
    assert dev.screen()[-1] == "", dev.screen()
    assert "club.offer" not in sys.modules


class HeldOffer:
    """What home and the offer's screen read of a club link: its offer."""

    def __init__(self, offer):
        self.offer = offer

    def step(self, now):  # the main loop's (runner.py)
        pass


def test_the_offer_fits_every_board_in_both_languages():
    from test_ui_fit import NAMES as LONG
    from test_ui_fit import boards
    from test_ui_fit import device as watched

    for profile in boards():
        for lang in ("de", "en"):
            fresh()
            dev = watched(profile, lang)
            where = "%s %s" % (profile.rsplit("/", 1)[-1], lang)
            dev.app.club = HeldOffer((9999, 9999, 1, 99999, list(LONG)))  # ten seats, the widest numbers
            dev.watch.where = where + " home"
            dev.play("wait:20")
            assert dev.screen()[-1] in ("0=Turnier R9999", "0=Tourney R9999"), (where, dev.screen())
            dev.watch.where = where + " offer"
            dev.play("0" + " D" * 10)
            assert ("Starten?" if lang == "de" else "Start it?") in dev.screen(), (where, dev.screen())
            assert dev.screen()[-1] in ("#=los B=ablehnen", "#=play B=decline"), (where, dev.screen())
            text = "\n".join(dev.screen())
            dev.watch.where = where + " decline?"
            dev.play("B *")
            assert "\n".join(dev.screen()) == text, where
            assert dev.watch.problems == [] and dev.errors == [], dev.watch.problems
