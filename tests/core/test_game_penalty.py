# Specification of the penalty variant: everybody adds their own hand; lowest wins.
import pytest

from tafel import Game, ScoreError


def test_everybody_adds_their_own_hand():
    game = Game(["Anna", "Ben", "Cleo"], "penalty")
    game.add_round({"Ben": 36, "Cleo": 53}, "Anna")
    assert game.totals() == [("Anna", 0), ("Ben", 36), ("Cleo", 53)]
    assert game.rounds[0].scores == (0, 36, 53)


def test_sieger_gets_nothing_in_the_hint_line():
    game = Game(["Anna", "Ben"], "penalty")
    assert game.preview({"Ben": 36}, "Anna") == 0


def test_a_round_may_end_without_a_winner():
    game = Game(["Anna", "Ben"], "penalty")
    game.add_round({"Anna": 4, "Ben": 6}, None)
    assert game.totals() == [("Anna", 4), ("Ben", 6)]
    assert game.rounds[0].winner is None


def test_without_a_winner_every_seat_needs_points():
    game = Game(["Anna", "Ben"], "penalty")
    with pytest.raises(ScoreError, match="Ben"):
        game.add_round({"Anna": 4}, None)


def test_game_ends_when_anybody_reaches_the_target_and_lowest_wins():
    game = Game(["Anna", "Ben", "Cleo"], "penalty", 100)
    game.add_round({"Ben": 60, "Cleo": 30}, "Anna")
    assert not game.finished
    game.add_round({"Anna": 10, "Cleo": 20}, "Ben")
    game.add_round({"Anna": 5, "Ben": 40}, "Cleo")
    assert game.finished
    assert game.totals() == [("Anna", 15), ("Ben", 100), ("Cleo", 50)]
    assert game.winners() == ["Anna"]


def test_ties_share_the_win():
    game = Game(["Anna", "Ben", "Cleo"], "penalty", 100)
    game.add_round({"Anna": 20, "Ben": 20, "Cleo": 120}, None)
    assert game.finished
    assert game.winners() == ["Anna", "Ben"]
