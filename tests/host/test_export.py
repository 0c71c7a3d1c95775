# Export documents (JSON and CSV) from journals framed by the core, as the device stores and streams them.
import csv
import io
import json

import pytest
from tafel import journal
from tafel.errors import RecordError

from export_fixtures import EVENING, comeback_game, doc, play, worked_example
from tafel_host import export


def test_worked_example_exports_anna_89():
    out = doc([worked_example()])
    assert out["format"] == "tafel-export" and out["version"] == 1
    assert out["device"] == {"id": "dev-a", "firmware": "0.1.0"}
    (game,) = out["games"]
    assert game["players"] == ["Anna", "Ben", "Cleo"]
    assert game["rounds"] == [{"number": 1, "winner": "Anna", "hands": [0, 36, 53], "scores": [89, 0, 0]}]
    assert dict(zip(game["players"], game["totals"])) == {"Anna": 89, "Ben": 0, "Cleo": 0}
    assert game["finished"] is False and game["winners"] == []
    assert (game["id"], game["variant"], game["target"], game["records"]) == (1, "standard", 500, 2)
    assert game["created"] == "2025-03-01T18:00:00Z"


def test_json_round_trips_and_is_checked():
    text = export.to_json(doc([worked_example(), comeback_game()]))
    back = export.check(json.loads(text))
    assert [g["id"] for g in back["games"]] == [1, 2]
    assert back["games"][1]["winners"] == ["Cleo"] and back["games"][1]["finished"] is True


def test_clock_not_set_gives_created_null():
    out = doc([worked_example(created=0)])
    assert out["games"][0]["created"] is None


def test_house_values_are_listed_and_used():
    game, data = play([("Anna", {"Ben": 1, "Cleo": 2})], values={"swap": 50, "7": 10})
    got = export.game_from_journal(data)
    assert got["values"] == {"7": 10, "swap": 50}


def test_finished_early_penalty_game():
    _, data = play([(None, {"Anna": 10, "Ben": 5, "Cleo": 7}), ("Anna", {"Anna": 0, "Ben": 30, "Cleo": 2})],
                   variant="penalty", target=100, finish=True)
    got = export.game_from_journal(data)
    assert got["totals"] == [10, 35, 9]
    assert got["finished"] and got["ended_early"] and got["winners"] == ["Cleo"]
    assert got["rounds"][0]["winner"] is None and got["rounds"][0]["scores"] == [10, 5, 7]


def test_eliminated_seat_has_a_null_hand():
    rounds = [("Ben", {"Anna": 120, "Cleo": 5}), ("Ben", {"Cleo": 9})]
    _, data = play(rounds, players=("Anna", "Ben", "Cleo"), variant="challenge", target=100)
    got = export.game_from_journal(data)
    assert got["rounds"][1]["hands"] == [None, 0, 9]
    rows = list(csv.DictReader(io.StringIO(export.to_csv(export.document("d", "1", [got])))))
    assert rows[3]["hand"] == "" and rows[3]["player"] == "Anna"


def test_csv_has_one_row_per_seat_per_round_with_running_totals():
    text = export.to_csv(doc([worked_example(), comeback_game()]))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == list(export.CSV_FIELDS)
    assert len(rows) == 1 * 3 + 3 * 3
    anna = rows[0]
    assert (anna["device"], anna["game"], anna["round"], anna["player"], anna["winner"], anna["hand"],
            anna["score"], anna["total"]) == ("dev-a", "1", "1", "Anna", "1", "0", "89", "89")
    last_cleo = rows[-1]
    assert (last_cleo["game"], last_cleo["round"], last_cleo["player"], last_cleo["total"]) == ("2", "3", "Cleo", "200")


def test_torn_journal_keeps_the_good_part_and_says_so():
    _, data = comeback_game()
    got = export.game_from_journal(data[:-3])
    assert len(got["rounds"]) == 2 and got["damage"].startswith("torn tail")


def test_journal_without_create_record_is_refused():
    with pytest.raises(RecordError):
        export.game_from_journal(b"")
    with pytest.raises(RecordError):
        export.game_from_journal(journal.frame(0, b"\x01\x02\x00\x02\x00\x01\x01"))  # a round first


def test_game_id_must_match_what_the_device_said():
    _, data = worked_example(game_id=4)
    with pytest.raises(RecordError):
        export.game_from_journal(data, game_id=5)


@pytest.mark.parametrize("bad, words", [
    ({"format": "other"}, "not a Tafel export"),
    ({"format": "tafel-export", "version": 2}, "version 2"),
    ({"format": "tafel-export", "version": 1, "device": {}}, "device id"),
    ({"format": "tafel-export", "version": 1, "device": {"id": "x"}, "games": [{"id": 1}]}, "not well-formed"),
])
def test_check_refuses_what_is_not_an_export(bad, words):
    with pytest.raises(export.ExportError) as err:
        export.check(bad)
    assert words in str(err.value)


def test_iso_of_unset_clock_and_of_a_time():
    assert export.iso(0) is None
    assert export.iso(EVENING) == "2025-03-01T18:00:00Z"
