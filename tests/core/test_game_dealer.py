# Specification of the first dealer: any seat may deal round 1, then the deal passes left.
import pytest

from tafel import Game, RecordError, ScoreError, records

# A create record as games were stored before the first dealer could be chosen:
# Anna, Ben, Cleo, standard to 500, swap worth 50, game 7.
OLD_CREATE = bytes.fromhex("0101078092aec90600f4030304416e6e610342656e04436c656f010f32")


def dealers(game, rounds):
    """The dealer before the game's first round and after each of `rounds` (hands, winner)."""
    seen = [game.dealer()]
    for hands, winner in rounds:
        game.add_round(hands, winner)
        seen.append(game.dealer())
    return seen


def test_seat_1_deals_first_unless_another_is_chosen():
    assert Game(["Anna", "Ben", "Cleo"]).dealer() == "Anna"
    assert Game(["Anna", "Ben", "Cleo"]).first_dealer == 0


def test_the_chosen_seat_deals_round_1_and_the_deal_passes_left_from_it():
    game = Game(["Anna", "Ben", "Cleo"], dealer=1)
    rounds = [({"Ben": 1, "Cleo": 1}, "Anna")] * 3
    assert dealers(game, rounds) == ["Ben", "Cleo", "Anna", "Ben"]


def test_the_last_seat_may_deal_first_and_the_deal_wraps_to_seat_1():
    game = Game(["Anna", "Ben", "Cleo", "Dirk"], "penalty", 500, dealer=3)
    rounds = [({"Anna": 0, "Ben": 2, "Cleo": 3, "Dirk": 4}, "Anna")] * 2
    assert dealers(game, rounds) == ["Dirk", "Anna", "Ben"]


def test_the_deal_from_a_chosen_seat_skips_eliminated_seats():
    game = Game(["Anna", "Ben", "Cleo", "Dirk"], "challenge", 100, dealer=2)
    assert game.dealer() == "Cleo"
    game.add_round({"Anna": 5, "Ben": 3, "Dirk": 100}, "Cleo")  # Cleo dealt; Dirk is out
    assert game.eliminated() == ["Dirk"]
    assert game.dealer() == "Anna"  # Dirk is skipped
    game.add_round({"Ben": 2, "Cleo": 1}, "Anna")
    assert game.dealer() == "Ben"


def test_undo_and_edit_keep_the_first_dealer():
    game = Game(["Anna", "Ben", "Cleo"], "challenge", 100, dealer=1)
    game.add_round({"Ben": 1, "Cleo": 1}, "Anna")  # dealt by Ben
    game.add_round({"Ben": 1, "Cleo": 1}, "Anna")  # dealt by Cleo
    assert game.dealer() == "Anna"
    game.undo_round()
    assert game.dealer() == "Cleo"
    game.undo_round()
    assert game.dealer() == "Ben"
    game.add_round({"Ben": 1, "Cleo": 1}, "Anna")
    assert game.dealer() == "Cleo"
    game.edit_round(0, {"Ben": 5, "Cleo": 100}, "Anna")  # now Cleo is out after round 1
    assert game.dealer() == "Anna"  # Ben dealt round 1; Cleo is skipped


def test_the_first_dealer_survives_the_create_record_and_a_replay():
    game = Game(["Anna", "Ben", "Cleo"], "standard", 500, None, 1764460800, 7, 2)
    log = [game.create_record()]
    game.add_round({"Ben": 1, "Cleo": 1}, "Anna")
    log.append(records.encode_round(0, [0, 1, 1]))
    copy = Game.from_records(log)
    assert copy.first_dealer == 2
    assert copy.dealer() == "Anna"
    assert Game.from_record(log[0]).dealer() == "Cleo"


def test_a_record_without_a_dealer_is_read_as_seat_1():
    game = Game.from_record(OLD_CREATE)
    assert game.players == ("Anna", "Ben", "Cleo")
    assert game.first_dealer == 0 and game.dealer() == "Anna"
    assert records.decode(OLD_CREATE, True)[7] == 0


def test_seat_1_as_first_dealer_writes_the_record_as_before():
    game = Game(["Anna", "Ben", "Cleo"], "standard", 500, {"swap": 50}, 1764460800, 7)
    assert game.create_record() == OLD_CREATE


def test_decode_gives_the_dealer_only_when_asked():
    payload = Game(["Anna", "Ben", "Cleo"], dealer=2).create_record()
    assert len(records.decode(payload)) == 7
    assert records.decode(payload, True)[7] == 2
    assert records.decode(payload, True)[:7] == records.decode(payload)


def test_a_dealer_that_is_no_seat_is_refused():
    for dealer in (-1, 3, "2", None, True, 1.0):
        with pytest.raises(ScoreError, match="dealer"):
            Game(["Anna", "Ben", "Cleo"], dealer=dealer)


def test_a_record_naming_a_dealer_beyond_the_seats_is_refused():
    with pytest.raises(RecordError):
        records.decode(OLD_CREATE + b"\x01\x03")
    with pytest.raises(RecordError):
        records.decode(OLD_CREATE + b"\x09\x01")  # a field this version does not know
    with pytest.raises(RecordError):
        records.decode(OLD_CREATE + b"\x01")  # cut short
