# Statistics per variant: standard and Minuspunkte games are never averaged together, and a game ended early is won by nobody.
import json
import re

from export_fixtures import EVENING, doc, play
from tafel_host.cli import main
from tafel_host.history import charts, report, stats

TABLE = ("Jürgen", "Özlem", "Käthe")


def evening():
    """Jürgen scores 503 in a standard game (one round); in a Minuspunkte game to 250 he holds 75
    and 107, and the table ends it early with Özlem lowest."""
    standard = play([("Jürgen", {"Özlem": 250, "Käthe": 253})], players=TABLE, game_id=1)
    penalty = play([(None, {"Jürgen": 75, "Özlem": 10, "Käthe": 40}), ("Özlem", {"Jürgen": 107, "Käthe": 30})],
                   players=TABLE, variant="penalty", target=250, game_id=2, created=EVENING + 3600, finish=True)
    games = doc([standard, penalty])["games"]
    for game in games:
        game["device"], game["when"], game["evening"] = "dev-a", EVENING, "2025-03-01"
    return games


def tables(lines):
    """{heading: {player: [games, wins, win rate, points/round, best comeback]}} of `tafel history`'s output."""
    out, heading = {}, None
    for i, line in enumerate(lines):
        cells = re.split(r"\s{2,}", line.strip())
        if i and not lines[i - 1].strip() and line.strip():
            heading = line
            out[heading] = {}
        elif heading and cells[0] in TABLE:
            out[heading][cells[0]] = cells[1:]
    return out


def test_each_variant_has_its_own_table_saying_which_way_is_better(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    (tmp_path / "a.json").write_text(json.dumps(doc([]) | {"games": evening()}))
    assert main(["history", "import", str(tmp_path / "a.json"), "--db", db]) == 0
    capsys.readouterr()
    assert main(["history", "--db", db]) == 0
    found = tables(capsys.readouterr().out.splitlines())
    (standard,) = [h for h in found if h.startswith("Standard games")]
    (penalty,) = [h for h in found if h.startswith("Penalty games (Minuspunkte)")]
    assert "More points per round is better" in standard and "Fewer points per round is better" in penalty
    # Jürgen: 503 in 1 standard round; (75 + 107) / 2 in Minuspunkte; never (503 + 75 + 107) / 3
    assert found[standard]["Jürgen"][3] == "503.0"
    assert found[penalty]["Jürgen"][3] == "91.0"
    # in Minuspunkte the lowest hands rank first when nobody won
    assert list(found[penalty]) == ["Özlem", "Käthe", "Jürgen"]


def test_a_game_ended_early_is_shown_as_such_and_counts_as_won_by_nobody():
    games = evening()
    penalty = games[1]
    assert penalty["ended_early"] and penalty["winners"] == ["Özlem"]  # the device's leader when it ended
    assert stats.result(penalty) == "Ended early, Özlem ahead"
    assert stats.result(games[0]) == "Won by Jürgen"
    ozlem = {s.name: s for s in stats.per_player([penalty])}["Özlem"]
    assert (ozlem.games, ozlem.wins, ozlem.win_rate) == (1, 0, None)
    assert "ended early, Özlem ahead" in charts.title(penalty) and "won by" not in charts.title(penalty)
    page = report.evening_html(games, "2025-03-01", with_charts=False)
    assert "Ended early, Özlem ahead." in page and "Won by Özlem" not in page
    assert "Won by Jürgen." in page


def test_in_german_the_tables_and_the_early_end_say_so(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    (tmp_path / "a.json").write_text(json.dumps(doc([]) | {"games": evening()}))
    assert main(["history", "import", str(tmp_path / "a.json"), "--db", db]) == 0
    assert main(["--lang", "de", "history", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "2 Spiele (1 zu Ende gespielt, 1 vorzeitig beendet), 3 Runden, 1 Abend" in out
    assert "Mehr Punkte pro Runde ist besser" in out and "Weniger Punkte pro Runde ist besser" in out
    assert main(["--lang", "de", "report", "--db", db, "-o", str(tmp_path / "r.html")]) == 0
    assert "Vorzeitig beendet, Özlem vorn." in (tmp_path / "r.html").read_text(encoding="utf-8")
