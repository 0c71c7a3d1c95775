# The games a club evening's hub stored, in `tafel history` and `tafel report`: marked with their club, table and
# tournament round (history/clubs.py), while every other game reads as before.
import pytest

from club_fixtures import CLUB, DEVICE, OTHER, OTHER_SECRET, SECRET, evening_game, record_message
from export_fixtures import EVENING, doc, play
from tafel_host.cli import main
from tafel_host.club.board import Board
from tafel_host.club.ingest import Ingest
from tafel_host.club.registry import Registry, Seat
from tafel_host.history.database import History, evening_of

NOW = EVENING + 1200  # when the hub took the games
ROUND_ONE = [Seat(DEVICE, "Tisch 3", ["Anna", "Ben", "Cleo"]), Seat(OTHER, "Tisch 10", ["Dora", "Emil", "Fritz"])]


def sent(registry, payloads, game_id, device=DEVICE, secret=SECRET, now=NOW):
    judge = Ingest(registry, CLUB, Board(registry, CLUB), clock=lambda: now)
    for seq in range(len(payloads)):
        assert judge.handle(*record_message(payloads, seq, game_id, secret, device)).stored


@pytest.fixture
def evening(tmp_path):
    """A club evening's database: round 1 drawn, then at Tisch 3 its game (7) and one of other players (8),
    at Tisch 10 a game begun before the round was drawn (9); and an export imported as ever."""
    path = tmp_path / "history.sqlite3"
    with Registry(path) as registry:
        registry.pair(DEVICE, "Tisch 3", SECRET, CLUB)
        registry.pair(OTHER, "Tisch 10", OTHER_SECRET, CLUB)
        sent(registry, evening_game(9, EVENING, ("Dora", "Emil", "Fritz")), 9, OTHER, OTHER_SECRET, now=NOW - 900)
        registry.add_round(CLUB, evening_of(NOW), 1, "standard", 500, 5, ROUND_ONE, drawn=NOW - 600)
        sent(registry, evening_game(7, EVENING, ("Cleo", "Anna", "Ben")), 7)
        sent(registry, evening_game(8, EVENING, ("Anna", "Ben", "Dora")), 8)
    with History(path) as hist:
        hist.import_doc(doc([play([])]))
    return path


def test_a_hub_game_is_marked_with_its_club_table_and_round(evening):
    with History(evening) as hist:
        games = {(g["device"], g["id"]): g for g in hist.games()}
    assert games[(DEVICE, 7)]["club"] == {"club": CLUB, "table": "Tisch 3", "round": 1}
    assert games[(DEVICE, 8)]["club"] == {"club": CLUB, "table": "Tisch 3", "round": None}  # not the round's players
    assert games[(OTHER, 9)]["club"] == {"club": CLUB, "table": "Tisch 10", "round": None}  # begun before the draw
    assert [g for key, g in games.items() if key[0] not in (DEVICE, OTHER) and "club" in g] == []


def test_a_history_without_a_hub_has_no_club_games(tmp_path):
    with History(tmp_path / "plain.sqlite3") as hist:
        hist.import_doc(doc([play([])]))
        assert all("club" not in g for g in hist.games())


def test_tafel_history_names_the_club_evening_its_tables_and_rounds(evening, capsys):
    assert main(["history", "--db", str(evening)]) == 0
    out = capsys.readouterr().out
    line = "club evening of %s on %s: 3 games at Tisch 3, Tisch 10; tournament round 1" % (CLUB, evening_of(NOW))
    assert line in out.splitlines()
    assert main(["--lang", "de", "history", "--db", str(evening)]) == 0
    assert "Clubabend von %s am %s: 3 Spiele an Tisch 3, Tisch 10; Turnierrunde 1" % (
        CLUB, evening_of(NOW)) in capsys.readouterr().out


def test_the_report_marks_each_of_the_clubs_games(evening, tmp_path, capsys):
    out = tmp_path / "abend.html"
    assert main(["report", "--db", str(evening), "--evening", evening_of(EVENING), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "club evening of %s on %s: 3 games at Tisch 3, Tisch 10; tournament round 1." % (
        CLUB, evening_of(NOW)) in page
    assert page.count("Tisch 3 (club %s), tournament round 1. " % CLUB) == 1
    assert page.count("Tisch 3 (club %s). " % CLUB) == 1 and page.count("Tisch 10 (club %s). " % CLUB) == 1
    assert main(["--lang", "de", "report", "--db", str(evening), "--evening", evening_of(EVENING), "-o",
                 str(out)]) == 0
    assert "Tisch 3 (Club %s), Turnierrunde 1. " % CLUB in out.read_text(encoding="utf-8")


def test_rounds_of_several_are_given_as_a_span(evening):
    with Registry(evening) as registry:
        registry.add_round(CLUB, evening_of(NOW), 2, "standard", 500, 6,
                           [Seat(DEVICE, "Tisch 3", ["Anna", "Dora", "Emil"]), Seat(OTHER, "Tisch 10", ["Ben", "Cleo", "Fritz"])],
                           drawn=NOW + 60)
        sent(registry, evening_game(10, EVENING, ("Emil", "Dora", "Anna")), 10, now=NOW + 120)
    from tafel_host.history import clubs

    with History(evening) as hist:
        lines = clubs.evenings(hist.games())
    assert lines == ["club evening of %s on %s: 4 games at Tisch 3, Tisch 10; tournament rounds 1 to 2"
                     % (CLUB, evening_of(NOW))]
