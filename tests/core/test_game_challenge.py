# Specification of the challenge variant: reaching the target puts a seat out.
import pytest

from tafel import Game, ScoreError


def four_seats():
    return Game(["Anna", "Ben", "Cleo", "Dirk"], "challenge", 100)


def test_reaching_the_target_eliminates():
    game = four_seats()
    game.add_round({"Ben": 100, "Cleo": 10, "Dirk": 20}, "Anna")
    assert game.eliminated() == ["Ben"]
    assert not game.finished


def test_an_eliminated_seat_is_skipped_and_gets_no_hand():
    game = four_seats()
    game.add_round({"Ben": 100, "Cleo": 10, "Dirk": 20}, "Anna")
    with pytest.raises(ScoreError, match="out"):
        game.add_round({"Ben": 3, "Cleo": 1, "Dirk": 2}, "Anna")
    with pytest.raises(ScoreError, match="out"):
        game.add_round({"Anna": 3, "Cleo": 1, "Dirk": 2}, "Ben")
    game.add_round({"Cleo": 1, "Dirk": 2}, "Anna")
    assert game.rounds[1].hands == (0, None, 1, 2)
    assert game.totals() == [("Anna", 0), ("Ben", 100), ("Cleo", 11), ("Dirk", 22)]


def test_the_deal_skips_eliminated_seats():
    game = four_seats()
    game.add_round({"Ben": 100, "Cleo": 10, "Dirk": 20}, "Anna")
    assert game.dealer() == "Cleo"


def test_of_the_last_two_the_first_to_reach_the_target_loses():
    game = Game(["Anna", "Ben", "Cleo"], "challenge", 100)
    game.add_round({"Ben": 10, "Cleo": 100}, "Anna")
    assert game.eliminated() == ["Cleo"]
    game.add_round({"Anna": 50}, "Ben")
    assert not game.finished
    game.add_round({"Anna": 60}, "Ben")
    assert game.finished
    assert game.winners() == ["Ben"]



def test_two_dropping_out_of_four_leaves_two_playing_on():
    game = four_seats()
    game.add_round({"Ben": 100, "Cleo": 120, "Dirk": 20}, "Anna")
    assert not game.finished
    assert game.eliminated() == ["Ben", "Cleo"]


def test_three_of_four_dropping_out_at_once_ends_the_game():
    game = four_seats()
    game.add_round({"Ben": 100, "Cleo": 120, "Dirk": 130}, "Anna")
    assert game.finished
    assert game.winners() == ["Anna"]


def test_when_the_last_two_cross_together_the_lower_total_wins():
    game = Game(["Anna", "Ben"], "challenge", 100)
    game.add_round({"Anna": 110, "Ben": 130}, None)
    assert game.finished
    assert game.winners() == ["Anna"]
