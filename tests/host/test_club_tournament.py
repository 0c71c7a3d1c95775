# Specification of the tournament's rounds on the hub: each round is sent to the tables and kept, so a hub started
# again on the same evening goes on where it was (the board's round, the next round's Swiss draw, its seed).
import asyncio
import sqlite3

import pytest

from club_fixtures import CLUB, DEVICE, OTHER, OTHER_SECRET, SECRET
from export_fixtures import EVENING
from tafel import club
from tafel_host.club import draw
from tafel_host.club.registry import Registry
from tafel_host.club.tournament import Refused, Tournament
from tafel_host.history.database import evening_of

PLAYERS = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"]
NIGHT = EVENING + 3600  # the same evening, in any time zone
NEXT_EVENING = NIGHT + 24 * 3600


class StandIn:
    """What the tournament uses of the hub: its registry and club, publish (here: kept) and the board's event."""

    def __init__(self, registry, connected=True):
        self.registry = registry
        self.club = CLUB
        self.sent = []
        self.connected = connected
        self.changed = asyncio.Event()

    async def publish(self, topic, data, retain=False):
        if not self.connected:
            raise ValueError("not connected")
        self.sent.append((topic, data, retain))


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "history.sqlite3"
    with Registry(path) as registry:
        registry.pair(DEVICE, "Tisch 1", SECRET, CLUB)
        registry.pair(OTHER, "Tisch 2", OTHER_SECRET, CLUB)
    return path


def drawn(tournament, players=PLAYERS, tables=2, **how):
    return asyncio.run(tournament.draw(players, tables, **how))


def test_a_round_is_sent_to_each_table_signed_and_retained(db):
    with Registry(db) as registry:
        hub = StandIn(registry)
        got = drawn(Tournament(hub, seed=5, clock=lambda: NIGHT), variant="penalty", target=300)
    assert got["round"] == 1 and got["devices"] == ["Tisch 1", "Tisch 2"]
    assert got["tables"] == draw.first_round(PLAYERS, 2, 5)
    for (topic, data, retain), device, secret, names in zip(hub.sent, (DEVICE, OTHER), (SECRET, OTHER_SECRET),
                                                           got["tables"]):
        assert topic == club.topic(CLUB, device, "table") and retain
        assert club.decode_table(club.open_signed(secret, topic, data))[4] == names


def test_the_round_is_kept_per_table_with_its_seed(db):
    with Registry(db) as registry:
        got = drawn(Tournament(StandIn(registry), seed=5, clock=lambda: NIGHT), variant="penalty", target=300)
        (kept,) = registry.rounds(CLUB, evening_of(NIGHT))
    assert (kept.number, kept.variant, kept.target, kept.seed, kept.drawn) == (1, "penalty", 300, 5, NIGHT)
    assert [(s.device, s.table_name, s.players) for s in kept.tables] == [
        (DEVICE, "Tisch 1", got["tables"][0]), (OTHER, "Tisch 2", got["tables"][1])]


def test_a_hub_started_again_shows_the_round_and_draws_the_next_as_if_it_had_never_stopped(db):
    with Registry(db) as registry:
        first = Tournament(StandIn(registry), seed=5, clock=lambda: NIGHT)
        one = drawn(first)
        unbroken = draw.next_round(PLAYERS, 2, [], [one["tables"]], 5 + 1)  # what it would draw next
    with Registry(db) as registry:  # the hub stopped and started again, with a seed of its own
        hub = StandIn(registry)
        again = Tournament(hub, seed=999, clock=lambda: NIGHT + 60)
        assert again.shown() == {"round": 1, "tables": one["tables"]}
        asyncio.run(again.resend())  # once connected: the broker built in forgot the retained round
        assert [club.decode_table(club.open_signed(secret, topic, data))[:2] + (retain,)
                for (topic, data, retain), secret in zip(hub.sent, (SECRET, OTHER_SECRET))] == [
            (1, 1, True), (1, 2, True)]
        two = drawn(again)
    assert two["round"] == 2 and two["tables"] == unbroken
    assert draw.repeats(two["tables"], [one["tables"]]) == 2  # two tables of three from two of three: the least


def test_a_new_evening_starts_at_round_one(db):
    now = [NIGHT]
    with Registry(db) as registry:
        tournament = Tournament(StandIn(registry), seed=5, clock=lambda: now[0])
        drawn(tournament)
        drawn(tournament)
        now[0] = NEXT_EVENING
        assert tournament.shown() is None
        assert drawn(tournament)["round"] == 1
    with Registry(db) as registry:  # and a hub started the next evening finds that evening's round only
        assert Tournament(StandIn(registry), clock=lambda: NEXT_EVENING).shown()["round"] == 1
        assert [r.number for r in registry.rounds(CLUB, evening_of(NIGHT))] == [1, 2]


def test_a_round_that_cannot_be_drawn_or_sent_is_refused_with_its_reason_and_not_kept(db):
    with Registry(db) as registry:
        tournament = Tournament(StandIn(registry, connected=False), seed=5, clock=lambda: NIGHT)
        for how, key in ((dict(tables=3), "club_too_few_tables"), (dict(variant="poker"), "club_bad_variant"),
                         (dict(target=0), "club_bad_target"), (dict(players=PLAYERS[:3]), "club_do_not_fit"),
                         (dict(players=PLAYERS + ["Anna"]), "club_named_twice"), ({}, "club_not_connected")):
            with pytest.raises(Refused) as refused:
                drawn(tournament, **how)
            assert refused.value.key == key
        assert str(refused.value).startswith("the hub is not connected")
        assert registry.rounds(CLUB, evening_of(NIGHT)) == [] and tournament.shown() is None


def test_club_tables_of_schema_1_get_the_rounds_table_when_opened(db):
    raw = sqlite3.connect(str(db))
    with raw:
        raw.execute("DROP TABLE club_rounds")
        raw.execute("UPDATE meta SET value = '1' WHERE key = 'club_schema'")
    raw.close()
    with Registry(db) as registry:
        drawn(Tournament(StandIn(registry), seed=5, clock=lambda: NIGHT))
        assert len(registry.rounds(CLUB, evening_of(NIGHT))) == 1
        assert registry.db.execute("SELECT value FROM meta WHERE key = 'club_schema'").fetchone() == ("2",)
        assert len(registry.devices(CLUB)) == 2  # the pairings stay


def test_the_tables_are_taken_in_the_order_of_their_names_numbers_as_numbers(tmp_path):
    with Registry(tmp_path / "h.sqlite3") as registry:
        registry.pair(DEVICE, "Tisch 10", SECRET, CLUB)
        registry.pair(OTHER, "Tisch 2", OTHER_SECRET, CLUB)
        hub = StandIn(registry)
        got = drawn(Tournament(hub, seed=5, clock=lambda: NIGHT))
    assert got["devices"] == ["Tisch 2", "Tisch 10"]
    assert hub.sent[0][0] == club.topic(CLUB, OTHER, "table")
