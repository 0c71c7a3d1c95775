# Specification of the event record codec: exact round trips, garbage refused cleanly.
import pytest

from tafel import Game, RecordError, ScoreError, records


def test_create_record_round_trips():
    game = Game(["Anna", "Bön & Ça", "Cleo"], "penalty", 200, values={"swap": 50})
    payload = game.create_record(created=1764460800, game_id=42)
    kind, game_id, created, variant, target, players, overrides = records.decode(payload)
    assert (kind, game_id, created, variant, target) == ("create", 42, 1764460800, 1, 200)
    assert players == ("Anna", "Bön & Ça", "Cleo")
    assert overrides == ((15, 50),)


def test_game_from_create_record_has_the_same_setup():
    game = Game(["Anna", "Ben"], "challenge", 1000, values={"blank": 10})
    copy = Game.from_record(game.create_record())
    assert copy.players == game.players
    assert copy.variant == "challenge"
    assert copy.target == 1000
    assert copy.values == game.values


def test_round_record_round_trips():
    payload = records.encode_round(0, [0, 36, None, 53])
    assert records.decode(payload) == ("round", 0, (0, 36, None, 53))
    assert records.decode(records.encode_round(None, [1, 2])) == ("round", None, (1, 2))


def test_edit_undo_finish_round_trip():
    assert records.decode(records.encode_edit(299, 1, [5, 0])) == ("edit", 299, 1, (5, 0))
    assert records.decode(records.encode_undo(7)) == ("undo", 7)
    assert records.decode(records.encode_finish(1764460800)) == ("finish", 1764460800)


def test_round_records_are_small():
    payload = records.encode_round(2, [12, 7, 0, 30, 1, 80, 140, 2, 9, 3])
    assert len(payload) <= 16


def test_replaying_a_games_records_rebuilds_it():
    game = Game(["Anna", "Ben", "Cleo"], target=300)
    log = [game.create_record(game_id=3)]
    for hands, winner in (({"Ben": 36, "Cleo": 53}, "Anna"), ({"Anna": 20, "Cleo": 5}, "Ben"),
                          ({"Anna": 7, "Ben": 8}, "Cleo")):
        log.append(game.round_record(hands, winner))
        game.apply(log[-1])
    log.append(game.edit_record(1, {"Anna": 21, "Cleo": 5}, "Ben"))
    game.apply(log[-1])
    log.append(game.undo_record())
    game.apply(log[-1])
    log.append(game.finish_record(99))
    game.apply(log[-1])
    copy = Game.from_records(log)
    assert copy.totals() == game.totals() == [("Anna", 89), ("Ben", 26), ("Cleo", 0)]
    assert copy.finished and copy.winners() == ["Anna"]
    assert copy.game_id == 3


def test_unknown_version_and_kind_are_refused():
    with pytest.raises(RecordError, match="version"):
        records.decode(b"\x02\x02\x00\x02\x01\x01")
    with pytest.raises(RecordError, match="kind"):
        records.decode(b"\x01\x09")


def test_truncated_records_are_refused():
    payload = Game(["Anna", "Ben"]).create_record(created=5, game_id=1)
    for cut in range(len(payload)):
        with pytest.raises(RecordError):
            records.decode(payload[:cut])


def test_stray_bytes_are_refused():
    with pytest.raises(RecordError, match="stray"):
        records.decode(records.encode_undo(1) + b"\x00")


def test_bad_seat_counts_and_winners_are_refused():
    with pytest.raises(RecordError):
        records.decode(b"\x01\x02\x00\x0b" + b"\x01" * 11)
    with pytest.raises(RecordError):
        records.decode(b"\x01\x02\x05\x02\x01\x01")


def test_names_that_are_not_utf8_are_refused():
    payload = bytearray(Game(["Anna", "Ben"]).create_record())
    at = payload.index(b"Anna")
    payload[at] = 0xFF
    with pytest.raises(RecordError):
        records.decode(bytes(payload))


def test_non_bytes_are_refused():
    with pytest.raises(RecordError):
        records.decode("round")


def test_encoders_refuse_numbers_they_cannot_hold():
    with pytest.raises(RecordError):
        records.encode_undo(-1)
    with pytest.raises(RecordError):
        records.encode_finish(2 ** 40)


def _encode_again(record):
    kind = record[0]
    if kind == "round":
        return records.encode_round(record[1], list(record[2]))
    if kind == "edit":
        return records.encode_edit(record[1], record[2], list(record[3]))
    if kind == "undo":
        return records.encode_undo(record[1])
    assert kind == "finish", record
    return records.encode_finish(record[1])


def test_every_single_byte_corruption_is_refused_or_still_a_well_formed_record():
    # A changed byte is either refused with a RecordError (never another exception) or reads as a
    # record the encoders could have written: a kind, a winner among the seats, a hand per seat.
    payload = records.encode_round(0, [0, 36, 53])
    refused = accepted = 0
    for i in range(len(payload)):
        for value in (0x00, 0x7F, 0x80, 0xFF):
            bad = bytearray(payload)
            bad[i] = value
            try:
                record = records.decode(bytes(bad))
            except RecordError:
                refused += 1
                continue
            accepted += 1
            if record[0] in ("round", "edit"):
                winner, hands = record[-2], record[-1]
                assert 2 <= len(hands) <= records.MAX_SEATS
                assert winner is None or 0 <= winner < len(hands)
                assert all(h is None or (type(h) is int and h >= 0) for h in hands)
            assert records.decode(_encode_again(record)) == record
    assert refused and accepted  # both ways taken: the changes reach the checks


def test_a_record_that_does_not_fit_the_game_is_refused_and_changes_nothing():
    game = Game(["Anna", "Ben", "Cleo"])
    for payload in (records.encode_round(0, [0, 1]), records.encode_round(0, [5, 1, 2]),
                    records.encode_round(None, [0, 1, 2]), records.encode_undo(0),
                    records.encode_edit(0, 0, [0, 1, 2]), game.create_record()):
        with pytest.raises(ValueError):
            game.apply(payload)
    assert len(game.rounds) == 0
    assert game.totals() == [("Anna", 0), ("Ben", 0), ("Cleo", 0)]


def test_a_create_record_must_come_first():
    with pytest.raises(ScoreError):
        Game.from_records([records.encode_round(0, [0, 1])])
    with pytest.raises(RecordError):
        Game.from_records([])


def test_varints_packs_numbers_one_after_another():
    assert records.varints() == b""
    assert records.varints(0, 127, 128, 300) == b"\x00\x7f\x80\x01\xac\x02"
    with pytest.raises(RecordError):
        records.varints(1, -1)
