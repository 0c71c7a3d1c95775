# The live board's dict (live.view) over a history with earlier evenings: this evening's games and each
# table's latest game are shown, and those are all it reads of the history.
from club_fixtures import CLUB, DEVICE, OTHER, OTHER_SECRET, SECRET, TABLE, evening_game, record_message
from export_fixtures import EVENING
from tafel_host.club import live
from tafel_host.club.board import Board
from tafel_host.club.ingest import Ingest
from tafel_host.club.registry import Registry
from tafel_host.history.database import History

WEEK = 7 * 86400


class Hub:
    def __init__(self, registry):
        self.registry, self.club = registry, CLUB
        self.board = Board(registry, CLUB)


def store(registry, game_id, created, device=DEVICE, secret=SECRET, upto=None):
    ingest = Ingest(registry, CLUB)
    payloads = evening_game(game_id, created, players=("Anna%d" % game_id, "Ben", "Cleo"))
    for seq in range(len(payloads) if upto is None else upto):
        assert ingest.handle(*record_message(payloads, seq, game_id, secret, device), now=created + seq).stored


def test_the_board_shows_this_evenings_games_and_each_tables_latest_reading_no_other(tmp_path, monkeypatch):
    registry = Registry(tmp_path / "history.sqlite3")
    registry.pair(DEVICE, TABLE, SECRET, CLUB)
    registry.pair(OTHER, "Tisch 4", OTHER_SECRET, CLUB)
    for week in range(1, 4):  # three earlier evenings at the first table
        store(registry, week, EVENING - week * WEEK)
    store(registry, 1, EVENING - WEEK, OTHER, OTHER_SECRET)  # the other table's latest: last week's
    store(registry, 9, EVENING + 600, upto=3)  # tonight, running: create and two rounds
    read, games_of = [], History.games_of

    def reading(self, keys):
        read.append(set(keys))
        return games_of(self, keys)

    def whole(*args, **kwargs):
        raise AssertionError("the whole history read")

    monkeypatch.setattr(History, "games_of", reading)
    monkeypatch.setattr(History, "games", whole)
    board = live.view(Hub(registry), 15, ("wins", "points", "games"), now=EVENING + 1800)
    assert read == [{(DEVICE, 9), (OTHER, 1)}]
    assert [(t["device"], t["round"], t["players"][0]) for t in board["tables"]] == [
        (DEVICE, 2, "Anna9"), (OTHER, 3, "Anna1")]
    assert sorted(r["name"] for r in board["leaderboard"][0]["rows"]) == ["Anna9", "Ben", "Cleo"]
    registry.close()


def test_games_of_gives_the_games_asked_for_as_games_gives_them(tmp_path):
    registry = Registry(tmp_path / "history.sqlite3")
    registry.pair(DEVICE, TABLE, SECRET, CLUB)
    for game_id in range(1, 6):
        store(registry, game_id, EVENING + game_id * 60)
    every = registry.history.games()
    asked = {(DEVICE, 2), (DEVICE, 4), (DEVICE, 77)}
    assert registry.history.games_of(asked) == [g for g in every if (g["device"], g["id"]) in asked]
    assert registry.history.games_of([]) == []
    registry.close()
