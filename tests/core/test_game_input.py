# Specification of bad input: each gets a clear ScoreError and leaves the game unchanged.
import pytest

from tafel import Game, ScoreError, records
from tafel.names import shown


def anna_ben_cleo():
    game = Game(["Anna", "Ben", "Cleo"])
    game.add_round({"Ben": 36, "Cleo": 53}, "Anna")
    return game


def refused(hands, winner, match=None):
    game = anna_ben_cleo()
    with pytest.raises(ScoreError, match=match):
        game.add_round(hands, winner)
    assert game.totals() == [("Anna", 89), ("Ben", 0), ("Cleo", 0)]
    assert len(game.rounds) == 1


def test_negative_points():
    refused({"Ben": -1, "Cleo": 3}, "Anna", "Ben")


def test_non_integer_points():
    refused({"Ben": 2.5, "Cleo": 3}, "Anna", "Ben")
    refused({"Ben": "7", "Cleo": 3}, "Anna", "Ben")
    refused({"Ben": True, "Cleo": 3}, "Anna", "Ben")
    refused({"Ben": None, "Cleo": 3}, "Anna", "Ben")
    refused({"Ben": [], "Cleo": 3}, "Anna", "Ben")
    refused({"Ben": [3, -1], "Cleo": 3}, "Anna", "Ben")


def test_missing_seat():
    refused({"Ben": 4}, "Anna", "Cleo")


def test_seat_given_twice():
    refused([("Ben", 4), ("Cleo", 3), ("Ben", 5)], "Anna", "twice")


def test_unknown_player():
    refused({"Ben": 4, "Cleo": 3, "Dora": 1}, "Anna", "Dora")


def test_unknown_winner():
    refused({"Ben": 4, "Cleo": 3}, "Dora", "Dora")


def test_no_winner_in_standard():
    refused({"Anna": 1, "Ben": 4, "Cleo": 3}, None, "winner")


def test_winner_with_cards_left():
    refused({"Anna": 5, "Ben": 4, "Cleo": 3}, "Anna", "0")


def test_implausibly_large_hand():
    refused({"Ben": 70000, "Cleo": 3}, "Anna")


def test_seat_count_limits():
    with pytest.raises(ScoreError, match="2 to 10"):
        Game(["Anna"])
    with pytest.raises(ScoreError, match="2 to 10"):
        Game(["P%d" % i for i in range(11)])
    assert len(Game(["P%d" % i for i in range(10)]).players) == 10


def test_duplicate_names_ignoring_case_and_spaces():
    with pytest.raises(ScoreError, match="twice"):
        Game(["Anna", "Ben", "anna "])


def test_empty_names():
    with pytest.raises(ScoreError, match="name"):
        Game(["Anna", "  "])
    with pytest.raises(ScoreError, match="name"):
        Game(["Anna", None])


def test_names_carry_printable_characters_only():
    for bad in ("Cleo\x1b[2J", "Ben\x00", "Anna\nBen", "Dora\x7f", "Eva\u202e", "Fr\x85itz"):
        with pytest.raises(ScoreError) as err:
            Game(["Anna", bad] if not bad.startswith("Anna") else ["Cleo", bad])
        assert err.value.code == "name_bad"
    with pytest.raises(ScoreError, match="position 5") as err:
        Game(["Anna", "Cleo\x1b[2J"])
    assert "\\x1b" in str(err.value) and "\x1b" not in str(err.value)  # shown escaped, never raw
    assert Game(["Gül", "Hanna & Ömer", "Ida-Jo. 2"]).players == ("Gül", "Hanna & Ömer", "Ida-Jo. 2")


def test_a_name_longer_than_the_limit_is_refused_saying_the_limit():
    with pytest.raises(ScoreError, match="20") as err:
        Game(["Anna", "B" * 21])
    assert err.value.code == "name_long"
    assert Game(["Anna", "B" * 20]).players[1] == "B" * 20


def test_a_stored_game_with_an_old_control_character_name_is_still_rebuilt():
    record = records.encode_create(["Anna", "Ben\x07"], 0, 500, (), 0, 1)
    assert Game.from_record(record).players == ("Anna", "Ben\x07")  # nothing is lost
    assert shown("Ben\x07") == "Ben\\x07" and shown("Eva\u202e") == "Eva\\u202e" and shown("Gül") == "Gül"


def test_names_are_trimmed():
    assert Game([" Anna", "Ben "]).players == ("Anna", "Ben")


def test_target_must_be_positive_whole_number():
    for bad in (0, -500, 2.5, "500", True):
        with pytest.raises(ScoreError, match="target"):
            Game(["Anna", "Ben"], target=bad)


def test_unknown_variant():
    with pytest.raises(ScoreError, match="variant"):
        Game(["Anna", "Ben"], "strip")


def test_bad_house_values():
    with pytest.raises(ScoreError):
        Game(["Anna", "Ben"], values={"wild": -50})


def test_hands_above_the_deck_total_are_allowed_but_flagged():
    game = Game(["Anna", "Ben", "Cleo"], values={"wild": 500})
    hands = {"Ben": 1000, "Cleo": 500}
    assert game.deck_warning(hands) is None  # the house deck is worth 3200
    assert game.deck_warning({"Ben": 36, "Cleo": 53}) is None
    plain = Game(["Anna", "Ben", "Cleo"])
    assert "1400" in plain.deck_warning({"Ben": 1000, "Cleo": 500})
    plain.add_round({"Ben": 1000, "Cleo": 500}, "Anna")
    assert plain.totals()[0] == ("Anna", 1500)
