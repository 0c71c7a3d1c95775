# The history database: idempotent imports, devices merging, statistics, charts and the evening report.
import gc
import html.parser
import json
import sqlite3
from xml.etree import ElementTree

import pytest

from export_fixtures import EVENING, comeback_game, doc, play, worked_example
from tafel_host.cli import main
from tafel_host.history import charts, report, stats
from tafel_host.history import database as history
from tafel_host.history.database import History, HistoryError

PNG = b"\x89PNG\r\n\x1a\n"


def snapshot(path):
    db = sqlite3.connect(str(path))
    try:
        return {t: db.execute("SELECT * FROM %s ORDER BY 1, 2" % t).fetchall() for t in ("games", "seats", "rounds")}
    finally:
        db.close()


def test_import_twice_changes_nothing(tmp_path):
    path = tmp_path / "h.sqlite3"
    exported = doc([worked_example(), comeback_game()])
    with History(path) as hist:
        assert hist.import_doc(exported, now=100) == {"added": 2, "updated": 0, "unchanged": 0}
    before = snapshot(path)
    with History(path) as hist:
        assert hist.import_doc(exported, now=200) == {"added": 0, "updated": 0, "unchanged": 2}
        assert hist.counts() == {"devices": 1, "games": 2, "seats": 6, "rounds": 12}
    assert snapshot(path) == before


def test_two_devices_merge_and_same_ids_stay_apart(tmp_path):
    with History(tmp_path / "h.sqlite3") as hist:
        hist.import_doc(doc([worked_example(game_id=1)], device="dev-a"))
        hist.import_doc(doc([comeback_game(game_id=1)], device="dev-b"))
        games = hist.games()
        assert sorted((g["device"], g["id"]) for g in games) == [("dev-a", 1), ("dev-b", 1)]
        assert hist.counts()["devices"] == 2
        with pytest.raises(HistoryError, match="several devices"):
            hist.find_game("1")
        assert hist.find_game("dev-b:1")["winners"] == ["Cleo"]
        with pytest.raises(HistoryError, match="no game"):
            hist.find_game("dev-c:1")


def test_a_later_export_of_a_game_replaces_it_and_an_older_one_does_not(tmp_path):
    early = doc([worked_example()])
    _, longer = play([("Anna", {"Ben": [7, 9, 20], "Cleo": [50, 3]}), ("Ben", {"Anna": 10, "Cleo": 5})])
    late = doc([(None, longer)])
    with History(tmp_path / "h.sqlite3") as hist:
        hist.import_doc(early)
        assert hist.import_doc(late) == {"added": 0, "updated": 1, "unchanged": 0}
        assert hist.import_doc(early) == {"added": 0, "updated": 0, "unchanged": 1}
        (game,) = hist.games()
        assert game["totals"] == [89, 15, 0] and len(game["rounds"]) == 2
        assert hist.counts()["rounds"] == 6


def test_statistics_on_a_constructed_history():
    _, g1 = worked_example(game_id=1)  # unfinished: Anna 89
    _, g2 = comeback_game(game_id=2)  # Cleo wins from 100 behind
    _, g3 = play([("Anna", {"Ben": 150, "Cleo": 60})], target=200, game_id=3)  # Anna 210, wins at once
    games = doc([(None, g1), (None, g2), (None, g3)])["games"]
    by_name = {s.name: s for s in stats.per_player(games)}
    anna, ben, cleo = by_name["Anna"], by_name["Ben"], by_name["Cleo"]
    assert (anna.games, anna.finished, anna.wins, anna.win_rate) == (3, 2, 1, 0.5)
    assert (cleo.wins, cleo.win_rate, ben.wins, ben.win_rate) == (1, 0.5, 0, 0.0)
    assert anna.rounds == 5 and anna.points == 89 + 210
    assert anna.points_per_round == pytest.approx(299 / 5)
    assert ben.points_per_round == pytest.approx(100 / 5)
    assert cleo.comeback == 100 and cleo.comeback_game == "?:2"
    assert anna.comeback == 0  # won game 3 in one round, never behind
    assert [s.name for s in stats.per_player(games)][:2] == ["Anna", "Cleo"]


def test_comeback_in_a_penalty_game_counts_from_the_lowest_total():
    rounds = [(None, {"Anna": 50, "Ben": 0, "Cleo": 10}), (None, {"Anna": 0, "Ben": 60, "Cleo": 50})]
    _, data = play(rounds, variant="penalty", target=60)
    (game,) = doc([(None, data)])["games"]
    assert game["winners"] == ["Anna"] and game["totals"] == [50, 60, 60]
    assert stats.deficits(game, 0) == [50, 0]
    assert stats.comeback(game, "Anna") == 50 and stats.comeback(game, "Ben") == 0


def test_games_belong_to_the_evening_they_began_and_unset_clocks_to_their_import(tmp_path):
    late_night = EVENING + 7 * 3600  # past midnight: still the same evening
    with History(tmp_path / "h.sqlite3") as hist:
        hist.import_doc(doc([worked_example(created=EVENING), comeback_game(created=late_night)]))
        hist.import_doc(doc([worked_example(game_id=5, created=0)], device="dev-b"), now=EVENING + 86400 * 3)
        assert hist.evenings() == [history.evening_of(EVENING), history.evening_of(EVENING + 86400 * 3)]
        assert history.evening_of(late_night) == history.evening_of(EVENING)
        assert [g["id"] for g in hist.games(history.evening_of(EVENING))] == [1, 2]


def test_chart_is_a_png():
    (game,) = doc([comeback_game()])["games"]
    data = charts.progression_png(game)
    assert data.startswith(PNG) and len(data) > 2000


def test_the_reports_chart_is_svg_drawing_each_seats_totals_and_the_target():
    (game,) = doc([comeback_game()])["games"]
    game["players"][0] = "A<&>"
    svg = ElementTree.fromstring(charts.progression_svg(game))  # well-formed XML, names escaped
    ns = "{http://www.w3.org/2000/svg}"
    lines = svg.findall(ns + "polyline")
    assert len(lines) == len(game["players"])
    for line in lines:  # round 0 (all 0) to the last
        assert len(line.get("points").split()) == len(game["rounds"]) + 1
    texts = [t.text for t in svg.iter(ns + "text")]
    assert charts.title(game) in texts and any("A<&>" in (t or "") for t in texts)
    assert any(t and str(game["target"]) in t for t in texts)


class StrictParser(html.parser.HTMLParser):
    """Checks that every element that must close is closed in order; collects images' sources."""
    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self):
        super().__init__()
        self.stack, self.images, self.refs = [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.images.append(attrs["src"])
        for key in ("src", "href"):
            if key in attrs:
                self.refs.append(attrs[key])
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, "</%s> closes %s" % (tag, self.stack[-1:])
        self.stack.pop()


def test_report_is_one_self_contained_html_page(tmp_path):
    games = doc([worked_example(), comeback_game()])["games"]
    for g in games:
        g["device"], g["when"] = "dev-a", EVENING
    page = report.evening_html(games, "2025-03-01")
    parser = StrictParser()
    parser.feed(page)
    parser.close()
    assert parser.stack == []
    assert len(parser.images) == 2 and all(src.startswith("data:image/svg+xml;base64,") for src in parser.images)
    assert all(ref.startswith("data:") for ref in parser.refs)
    assert "Anna" in page and "+89" in page and "Won by Cleo." in page


def test_names_are_escaped_in_the_report():
    _, data = play([("A<b>", {"Ben": 3, "C&D": 4})], players=("A<b>", "Ben", "C&D"))
    games = doc([(None, data)])["games"]
    games[0]["device"], games[0]["when"] = "d", EVENING
    page = report.evening_html(games, "2025-03-01", with_charts=False)
    assert "A&lt;b&gt;" in page and "C&amp;D" in page and "<b>" not in page


# -- the commands --

def test_cli_import_history_chart_report(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "h.sqlite3")
    (tmp_path / "a.json").write_text(json.dumps(doc([worked_example(), comeback_game()])))
    (tmp_path / "b.json").write_text(json.dumps(doc([comeback_game(game_id=9)], device="dev-b")))
    assert main(["history", "--db", db, "import", "a.json", "b.json"]) == 0
    assert main(["history", "import", "a.json", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "a.json: 2 new, 0 updated, 0 already there" in out
    assert "a.json: 0 new, 0 updated, 2 already there" in out
    assert main(["history", "--db", db]) == 0
    assert gc.isenabled()  # off only while the games were read and counted
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("3 games (2 finished)")
    assert lines[2].startswith("Standard games:") and "More points per round is better" in lines[2]
    assert lines[3].split()[:3] == ["player", "games", "wins"]
    assert lines[4].split()[:3] == ["Cleo", "3", "2"]
    assert main(["chart", "dev-a:2", "--db", db, "-o", "c.png"]) == 0
    assert (tmp_path / "c.png").read_bytes().startswith(PNG)
    assert main(["report", "--db", db]) == 0
    assert list(tmp_path.glob("tafel-*.html"))


def test_cli_refuses_what_is_not_an_export_and_unknown_games(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    (tmp_path / "x.json").write_text("{}")
    assert main(["history", "import", str(tmp_path / "x.json"), "--db", db]) == 2
    assert main(["history", "import", str(tmp_path / "missing.json"), "--db", db]) == 2
    assert main(["chart", "7", "--db", db]) == 2
    assert main(["report", "--db", db]) == 2
    err = capsys.readouterr().err
    assert "not a Tafel export" in err and "cannot read" in err and "no game 7" in err


def test_a_file_that_is_not_a_database_is_reported(tmp_path):
    bad = tmp_path / "h.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(HistoryError, match="cannot use"):
        History(bad)


# -- a history that trusts only records: forged files are refused, nothing changes --

def forged(change, games=None):
    """An export of the worked example and the comeback game, then `change(doc)` applied."""
    out = json.loads(json.dumps(doc(games or [worked_example(), comeback_game()])))
    change(out)
    return out


def refused(tmp_path, bad, field):
    path = tmp_path / "h.sqlite3"
    with History(path) as hist:
        hist.import_doc(doc([worked_example()]))
    before = snapshot(path)
    with History(path) as hist:
        with pytest.raises(history.ImportRefused, match='game %d: "%s"' % (bad["games"][-1]["id"], field)):
            hist.import_doc(bad)
    assert snapshot(path) == before
    return path


def set_totals(d):
    d["games"][1]["totals"] = [999, 0, 200]


def set_winner(d):
    d["games"][1]["winners"] = ["Anna"]


def set_hand(d):
    d["games"][1]["rounds"][0]["hands"][2] = 61  # Ben's round is worth 101 now


def set_finished(d):
    d["games"][1]["finished"] = False


@pytest.mark.parametrize("change, field", [(set_totals, "totals"), (set_winner, "winners"), (set_hand, "rounds"),
                                           (set_finished, "finished")])
def test_a_forged_derived_field_is_refused_naming_game_and_field(tmp_path, change, field):
    refused(tmp_path, forged(change), field)


@pytest.mark.parametrize("change, field", [(set_totals, "totals"), (set_winner, "winners"), (set_hand, "rounds")])
def test_an_export_without_journal_is_checked_against_its_rounds(tmp_path, change, field):
    def old_style(d):
        for game in d["games"]:
            del game["journal"]
        change(d)

    refused(tmp_path, forged(old_style), field)
    with History(tmp_path / "h2.sqlite3") as hist:  # the same file unforged is taken
        assert hist.import_doc(forged(lambda d: [g.pop("journal") for g in d["games"]]))["added"] == 2


def test_a_journal_that_does_not_rebuild_is_refused(tmp_path):
    def cut(d):
        d["games"][1]["journal"] = d["games"][1]["journal"][:-8]

    with History(tmp_path / "h.sqlite3") as hist:
        with pytest.raises(history.ImportRefused, match="game 2: its journal holds records that do not replay"):
            hist.import_doc(forged(cut))
        with pytest.raises(history.ImportRefused, match="game 2: its \"journal\" is not base64"):
            hist.import_doc(forged(lambda d: d["games"][1].update(journal="not base64!")))
        assert hist.counts()["games"] == 0


def test_a_forged_copy_with_more_records_does_not_replace_the_genuine_one(tmp_path):
    _, longer = play([("Anna", {"Ben": [7, 9, 20], "Cleo": [50, 3]}), ("Ben", {"Anna": 10, "Cleo": 5})])
    path = tmp_path / "h.sqlite3"
    with History(path) as hist:
        hist.import_doc(doc([worked_example()]))
    before = snapshot(path)

    def more_records(d):  # claims a longer game: the derived fields and the count, not the records
        d["games"][0]["records"] = 9
        d["games"][0]["totals"] = [89, 500, 0]
        d["games"][0]["finished"], d["games"][0]["winners"] = True, ["Ben"]

    with History(path) as hist:
        with pytest.raises(history.ImportRefused, match="game 1"):
            hist.import_doc(forged(more_records, [worked_example()]))
        # a journal of another game 1 with more records: valid, but the stored one is not its beginning
        _, other = play([("Ben", {"Anna": 3, "Cleo": 4}), ("Ben", {"Anna": 1, "Cleo": 1})])
        with pytest.raises(history.ImportRefused, match="neither is the beginning of the other"):
            hist.import_doc(doc([(None, other)]))
    assert snapshot(path) == before
    with History(path) as hist:  # the genuine continuation is taken
        assert hist.import_doc(doc([(None, longer)])) == {"added": 0, "updated": 1, "unchanged": 0}
        (game,) = hist.games()
        assert game["totals"] == [89, 15, 0] and game["records"] == 3


def test_the_genuine_export_imports_after_a_refused_forgery(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    (tmp_path / "forged.json").write_text(json.dumps(forged(set_winner)))
    (tmp_path / "good.json").write_text(json.dumps(doc([worked_example(), comeback_game()])))
    assert main(["history", "import", str(tmp_path / "good.json"), str(tmp_path / "forged.json"), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "forged.json: device dev-a, game 2: \"winners\" is ['Anna'] in the file but ['Cleo']" in err
    assert "nothing imported" in err
    assert snapshot(db) == {"games": [], "seats": [], "rounds": []}  # the good file went back too: one transaction
    assert main(["history", "import", str(tmp_path / "good.json"), "--db", db]) == 0
    assert "good.json: 2 new, 0 updated, 0 already there" in capsys.readouterr().out
    with History(db) as hist:
        assert [g["winners"] for g in hist.games()] == [[], ["Cleo"]]


SCHEMA_1 = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE devices(id TEXT PRIMARY KEY, firmware TEXT, last_import INTEGER);
CREATE TABLE games(device TEXT NOT NULL, id INTEGER NOT NULL, created INTEGER, imported INTEGER NOT NULL,
    variant TEXT, target INTEGER, players TEXT, totals TEXT, winners TEXT, finished INTEGER,
    records INTEGER, doc TEXT NOT NULL, PRIMARY KEY(device, id));
CREATE TABLE seats(device TEXT NOT NULL, game INTEGER NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL,
    total INTEGER, won INTEGER, PRIMARY KEY(device, game, seat));
CREATE TABLE rounds(device TEXT NOT NULL, game INTEGER NOT NULL, number INTEGER NOT NULL, seat INTEGER NOT NULL,
    player TEXT NOT NULL, hand INTEGER, score INTEGER, winner INTEGER, PRIMARY KEY(device, game, number, seat));
INSERT INTO meta VALUES ('schema', '1');
"""


def older_tafel_history(path, games):
    """A history as a tafel from before the check wrote it: the files' games stored as they came."""
    db = sqlite3.connect(str(path))
    db.executescript(SCHEMA_1)
    for game in games:
        db.execute("INSERT INTO games VALUES ('dev-a', ?, NULL, 100, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (game["id"], game["variant"], game["target"], json.dumps(game["players"]),
                    json.dumps(game["totals"]), json.dumps(game["winners"]), int(game["finished"]),
                    game.get("records") or 0, json.dumps(game)))
    db.commit()
    db.close()


def forged_comeback():
    bad = forged(set_totals)["games"][1]  # totals the rounds do not add up to, no journal
    del bad["journal"]
    return bad


def test_an_older_history_is_checked_once_and_its_forgeries_are_left_out_and_said(tmp_path, capsys):
    path = tmp_path / "h.sqlite3"
    genuine = forged(lambda d: d["games"][0].update(comeback=204))["games"][0]  # a field no record gives
    older_tafel_history(path, [genuine, forged_comeback()])
    with History(path) as hist:
        (game,) = hist.games()
        assert game["id"] == 1 and "comeback" not in game and game["totals"] == [89, 0, 0]
        ((device, game_id, why),) = hist.unproven()
        assert (device, game_id) == ("dev-a", 2) and '"totals" is [999, 0, 200]' in why
        with pytest.raises(HistoryError, match="game dev-a:2 is in .* but left out: .*import its export again"):
            hist.find_game("2")
    db = sqlite3.connect(str(path))
    assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("2",)
    db.close()
    assert main(["history", "--db", str(path)]) == 0  # the statistics
    out, err = capsys.readouterr()
    assert out.startswith("1 game (") and "1 game left out, their records do not prove them" in err
    assert "dev-a:2: game 2: \"totals\" is [999, 0, 200]" in err


def test_a_proving_copy_replaces_a_game_left_out(tmp_path):
    path = tmp_path / "h.sqlite3"
    older_tafel_history(path, [forged_comeback()])
    with History(path) as hist:
        assert hist.games() == [] and len(hist.unproven()) == 1
        assert hist.import_doc(doc([comeback_game()])) == {"added": 0, "updated": 1, "unchanged": 0}
        assert hist.unproven() == []
        (game,) = hist.games()
        assert game["id"] == 2 and game["winners"] == ["Cleo"]


def test_statistics_see_only_rebuilt_games(tmp_path):
    def extra(d):  # fields the history does not check are not carried into it either
        d["games"][0]["comeback"] = 204

    with History(tmp_path / "h.sqlite3") as hist:
        hist.import_doc(forged(extra, [worked_example()]))
        (game,) = hist.games()
        assert "comeback" not in game and game["totals"] == [89, 0, 0]


def test_counts_are_said_in_the_singular_for_one(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    with History(db) as hist:
        hist.import_doc(doc([worked_example()]))
    assert main(["history", "--db", db]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "1 game (0 finished), 1 round, 1 evening"


def genuine_games():
    yield worked_example()
    yield comeback_game()
    yield play([(None, {"Anna": 10, "Ben": 5, "Cleo": 7}), ("Anna", {"Ben": 30, "Cleo": 2})],
               variant="penalty", target=100, finish=True, game_id=3)
    yield play([("Ben", {"Anna": 120, "Cleo": 5}), ("Ben", {"Cleo": 9}), ("Cleo", {"Ben": 99})],
               variant="challenge", target=100, game_id=4)
    yield play([("Anna", {"Ben": 1, "Cleo": 2})], values={"swap": 50, "7": 10}, created=0, game_id=5)


@pytest.mark.parametrize("with_journal", [True, False])
def test_every_genuine_game_proves_itself_with_or_without_its_journal(with_journal):
    from tafel_host.history import verify

    for game in doc(list(genuine_games()))["games"]:
        game = json.loads(json.dumps(game))
        if not with_journal:
            del game["journal"]
        assert verify.proven(game) == game


def test_an_edited_game_is_proven_from_its_journal_and_a_later_copy_continues_it(tmp_path):
    from tafel import journal
    from tafel.game import Game

    game = Game(("Anna", "Ben"), "standard", 500, None, EVENING, 7)
    payloads = [game.create_record()]
    for rec in (game.round_record({"Ben": 10}, "Anna"), game.round_record({"Anna": 4}, "Ben")):
        payloads.append(rec)
        game.apply(rec)
    early = b"".join(journal.frame(s, p) for s, p in enumerate(payloads))
    payloads.append(game.edit_record(0, {"Ben": 40}, "Anna"))
    game.apply(payloads[-1])
    late = b"".join(journal.frame(s, p) for s, p in enumerate(payloads))
    with History(tmp_path / "h.sqlite3") as hist:
        hist.import_doc(doc([(None, early)]))
        assert hist.import_doc(doc([(None, late)])) == {"added": 0, "updated": 1, "unchanged": 0}
        assert hist.import_doc(doc([(None, early)])) == {"added": 0, "updated": 0, "unchanged": 1}
        assert hist.games()[0]["totals"] == [40, 4]
