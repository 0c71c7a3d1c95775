# Export documents (JSON and CSV) from journals framed by the core, as the device stores and streams them.
import csv
import io
import json

import pytest

from export_fixtures import EVENING, comeback_game, doc, play, worked_example
from tafel import journal, wire
from tafel.errors import RecordError
from tafel_host import isotime
from tafel_host.link import export


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
    assert isotime.iso(0) is None
    assert isotime.iso(EVENING) == "2025-03-01T18:00:00Z"


# -- damage: every intact record reaches the laptop (issue 13) --

def evening_game(rounds=25, game_id=1):
    """A game of `rounds` rounds and its frames, one a record (create first)."""
    plays = [(("Anna", "Ben", "Cleo")[r % 3], {"Anna": 3 + r, "Ben": 10 + r, "Cleo": 20 + r}) for r in range(rounds)]
    for winner, hands in plays:
        hands[winner] = 0
    game, data = play(plays, game_id=game_id)
    return game, [journal.frame(seq, payload) for seq, payload in journal.scan(data)[0]], plays


def flip(frame):
    out = bytearray(frame)
    out[8] ^= 0x20  # inside the payload: the CRC no longer holds
    return bytes(out)


def test_the_issue_s_game_shows_10_rounds_and_its_14_intact_records_after_the_damage():
    # 25 rounds in one live segment, record 11 damaged: the store keeps records 0-10 in
    # the segment and sets the whole damaged bytes aside in keep/ (GAME file KEEP_FILE).
    _, frames, plays = evening_game(25)
    damaged = b"".join(frames[:11]) + flip(frames[11]) + b"".join(frames[12:])
    got = export.game_from_files([(1, b"".join(frames[:11])), (wire.KEEP_FILE, damaged)], game_id=1)
    assert len(got["rounds"]) == 10 and got["records"] == 11
    assert [r["seq"] for r in got["set_aside"]] == list(range(12, 26))  # 14 intact records
    first = got["set_aside"][0]  # record 12 is round 12
    assert first == {"seq": 12, "kind": "round", "winner": plays[11][0],
                     "hands": [plays[11][1][p] for p in ("Anna", "Ben", "Cleo")]}
    assert "14 intact records after the gap could not be replayed (missing: 11)" in got["damage"]


def test_files_moved_to_keep_after_a_gap_are_merged_by_number():
    # Segments 0-9, 10-19, 20-25; record 15 damaged: segment 1 keeps 10-14, its bytes and
    # segment 2 (after the gap) go to keep/. The host also gets the keep copy twice.
    _, frames, _ = evening_game(25)
    seg1 = b"".join(frames[10:15]) + flip(frames[15]) + b"".join(frames[16:20])
    files = [(1, b"".join(frames[:10])), (2, b"".join(frames[10:15])), (wire.KEEP_FILE, seg1),
             (wire.KEEP_FILE + 1, seg1), (wire.KEEP_FILE + 2, b"".join(frames[20:]))]
    got = export.game_from_files(files, game_id=1)
    assert got["records"] == 15 and [r["seq"] for r in got["set_aside"]] == list(range(16, 26))
    assert "missing: 15" in got["damage"]
    # A host from before keep/ files gets no wrong record out of them: the same run, damage said.
    payloads, problems = wire.journal_records([data for _, data in files])
    assert len(payloads) == 15 and problems


def test_a_game_mended_from_its_second_copy_is_whole_though_keep_holds_the_damaged_bytes():
    _, frames, _ = evening_game(5)
    whole = b"".join(frames)
    got = export.game_from_files([(1, whole), (wire.KEEP_FILE, whole[:30] + flip(whole[30:]))], game_id=1)
    assert len(got["rounds"]) == 5 and got["damage"] is None and got["set_aside"] == []


def test_damage_in_a_journal_not_set_aside_yet_is_searched_past():
    _, frames, _ = evening_game(6)
    got = export.game_from_files([b"".join(frames[:3]) + flip(frames[3]) + b"".join(frames[4:])])
    assert len(got["rounds"]) == 2 and [r["seq"] for r in got["set_aside"]] == [4, 5, 6]
    assert got["damage"].startswith("bad frame at byte")


def test_records_of_another_game_under_the_same_id_are_never_mixed_in():
    _, frames, _ = evening_game(4)
    _, other, _ = evening_game(2)  # the same id, other players' rounds, from an older firmware
    other_create = journal.frame(0, play([], players=("Dora", "Emil"), game_id=1)[0].create_record())
    files = [(1, b"".join(frames[:3])), (wire.KEEP_FILE, other_create + b"".join(other[1:]))]
    got = export.game_from_files(files, game_id=1)
    assert len(got["rounds"]) == 2 and got["records"] == 3
    assert [(r["seq"], r.get("foreign")) for r in got["set_aside"]] == [(0, True), (1, True), (2, True)]
    assert got["set_aside"][0]["players"] == ["Dora", "Emil"] and "another game" in got["damage"]


def test_a_game_without_its_create_record_comes_home_as_unreadable_with_its_records():
    _, frames, _ = evening_game(8)
    with pytest.raises(export.Unreadable) as err:
        export.game_from_files([(wire.KEEP_FILE, flip(frames[0]) + b"".join(frames[1:]))], game_id=9)
    unplaced = err.value.unplaced
    assert unplaced["id"] == 9 and [r["seq"] for r in unplaced["set_aside"]] == list(range(1, 9))
    assert unplaced["set_aside"][0]["winner_seat"] == 0 and "hands" in unplaced["set_aside"][0]
    with pytest.raises(RecordError):
        export.game_from_files([b"\xff" * 40])  # nothing intact at all: no entry


def test_the_export_document_carries_set_aside_records_and_the_storage_report():
    _, frames, _ = evening_game(25)
    damaged = b"".join(frames[:11]) + flip(frames[11]) + b"".join(frames[12:])
    game = export.game_from_files([(1, b"".join(frames[:11])), (wire.KEEP_FILE, damaged)])
    report = [{"key": "game_damaged", "game": 1, "detail": "bad frame at byte 209"}]
    unplaced = [{"id": 9, "damage": "no readable start", "set_aside": [{"seq": 3, "kind": "undo", "round": 1}]}]
    text = export.to_json(export.document("d", "0.4.0", [game], storage_report=report, unreadable=unplaced))
    back = export.check(json.loads(text))
    assert back["storage_report"] == report and back["unreadable"] == unplaced
    assert len(back["games"][0]["set_aside"]) == 14
    assert '\n    {"seq": 12, "kind": "round"' in text  # one record a line, as rounds are
    assert "storage_report" not in export.document("d", "0.4.0", [game])  # only where a device said it


def test_every_note_about_one_game_names_it_in_game_whatever_firmware_sent_it():
    sent = [{"key": "game_lost", "game": 4, "detail": None},  # this firmware
            {"key": "torn_tail_repaired", "game": None, "detail": "7"},  # an older one: the id as the detail
            {"key": "game_damaged", "game": 1, "detail": "bad frame at byte 9"},
            {"key": "flash_low", "game": None, "detail": "40"}]
    doc = export.document("d", "0.4.0", [], storage_report=sent)
    assert doc["storage_report"] == [{"key": "game_lost", "game": 4, "detail": None},
                                     {"key": "torn_tail_repaired", "game": 7, "detail": None},
                                     {"key": "game_damaged", "game": 1, "detail": "bad frame at byte 9"},
                                     {"key": "flash_low", "game": None, "detail": "40"}]


def test_tafel_export_tells_each_damaged_game():
    from tafel_host.link import salvage

    _, frames, _ = evening_game(25)
    damaged = b"".join(frames[:11]) + flip(frames[11]) + b"".join(frames[12:])
    game = export.game_from_files([(1, b"".join(frames[:11])), (wire.KEEP_FILE, damaged)])
    lines = salvage.tell({1: game, 2: export.game_from_journal(comeback_game()[1])},
                         [{"id": 9, "damage": "x", "set_aside": [{}, {}]}], [(9, "no records"), (4, "empty journal")])
    assert lines[0] == ("game 1 is damaged: 10 rounds replayed; 14 intact records after the gap could not be "
                        "replayed (missing: 11); see set_aside")
    assert lines[1:] == ['game 9 has no readable start; its 2 intact records are under "unreadable"',
                         "game 4 cannot be read (empty journal); it is left out"]
